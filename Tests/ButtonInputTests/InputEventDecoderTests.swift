@preconcurrency import Glibc
import ButtonInput
import SystemSupport
import Testing

@Suite("Decoding input_event records", .timeLimit(.minutes(5)))
struct InputEventDecoderTests {
    static let press = InputEvent(seconds: 12.25, type: InputEvent.key, code: 28, value: 1)
    static let release = InputEvent(seconds: 12.5, type: InputEvent.key, code: 28, value: 0)

    @Test func aRecordIsTheKernelsSize() {
        // struct input_event on a 64-bit ABI: a timeval of 16 bytes, type, code, value.
        #expect(InputEvent.size == (MemoryLayout<Int>.size == 8 ? 24 : 16))
        #expect(Self.press.bytes.count == InputEvent.size)
    }

    @Test func recordsSplitAtEveryByteAreReadWhole() {
        let bytes = Self.press.bytes + Self.release.bytes
        for cut in 0...bytes.count {
            var decoder = InputEventDecoder()
            var events: [InputEvent] = []
            bytes[..<cut].withUnsafeBytes { decoder.decode($0) { events.append($0) } }
            bytes[cut...].withUnsafeBytes { decoder.decode($0) { events.append($0) } }
            #expect(events == [Self.press, Self.release], "cut at \(cut)")
        }
    }

    @Test func oneByteAtATime() {
        var decoder = InputEventDecoder()
        var events: [InputEvent] = []
        for byte in Self.press.bytes + Self.release.bytes {
            [byte].withUnsafeBytes { decoder.decode($0) { events.append($0) } }
        }
        #expect(events == [Self.press, Self.release])
    }

    @Test func theTimeStampKeepsMicroseconds() {
        var decoder = InputEventDecoder()
        var seen: InputEvent?
        InputEvent(seconds: 1234.567891, type: 1, code: 2, value: -3).bytes.withUnsafeBytes { decoder.decode($0) { seen = $0 } }
        #expect(abs((seen?.seconds ?? 0) - 1234.567891) < 2e-6)
        #expect(seen?.value == -3)
    }

    @Test func keyNamesAndCodes() {
        #expect(KeyCode.code("KEY_ENTER") == 28)
        #expect(KeyCode.code("key_playpause") == 164)
        #expect(KeyCode.code("300") == 300)
        #expect(KeyCode.code("99999") == nil)
        #expect(KeyCode.code("KEY_NOPE") == nil)
        #expect(KeyCode.name(28) == "KEY_ENTER")
        #expect(KeyCode.name(300) == "300")
        #expect(Set(KeyCode.names.map(\.code)).count == KeyCode.names.count)
    }
}
