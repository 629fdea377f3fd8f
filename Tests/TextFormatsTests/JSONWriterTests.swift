import ControlProtocol
import Foundation
import TestSupport
import Testing
import TextFormats

@Suite("JSON writer: the bytes JSONEncoder wrote", .timeLimit(.minutes(5)))
struct JSONWriterTests {
    @Test(
        "numbers are written as JSONEncoder writes them",
        arguments: [
            (5.0, "5"), (-0.0, "-0"), (0.0, "0"), (0.1, "0.1"), (1e-05, "1e-05"), (1e21, "1e+21"), (1e16, "1e+16"),
            (1e15, "1000000000000000"), (1.2345678901234568e+20, "1.2345678901234568e+20"), (48.8584, "48.8584"),
            (-180, "-180"), (0.30000000000000004, "0.30000000000000004"), (.leastNonzeroMagnitude, "5e-324"),
            (1.7976931348623157e308, "1.7976931348623157e+308"),
        ] as [(Double, String)])
    func pinnedNumbers(_ number: Double, _ text: String) throws {
        #expect(JSONWriter.number(number) == text)
        #expect(try FoundationOracle.bytes([number]) == Array("[\(text)]".utf8))
    }

    @Test("random numbers are written as JSONEncoder writes them, and read back exactly")
    func randomNumbers() throws {
        var random = RandomJSON(generator: SeededGenerator(seed: 7))
        var numbers: [Double] = []
        for _ in 0..<20_000 { numbers.append(random.number()) }
        let ours = "[" + numbers.map(JSONWriter.number).joined(separator: ",") + "]"
        #expect(Array(ours.utf8) == (try FoundationOracle.bytes(numbers)))
        let readBack = try #require(try JSONParser.parse(Array(ours.utf8)).array)
        #expect(readBack.map { $0.number?.bitPattern } == numbers.map(\.bitPattern))
    }

    @Test("strings escape what JSONEncoder escapes, and nothing else")
    func strings() throws {
        for character in RandomJSON.awkwardCharacters {
            let text = "<\(character)>"
            #expect(
                Array(JSONWriter.quoted(text).utf8) == Array(try FoundationOracle.bytes([text]).dropFirst().dropLast()))
        }
        #expect(JSONWriter.quoted("a/b \"c\" \\ \n\u{01}\u{1F}é") == #""a/b \"c\" \\ \n\u0001\u001fé""#)
    }

    @Test("random values are written byte for byte as JSONEncoder writes them, compact and pretty")
    func randomValues() throws {
        var random = RandomJSON(generator: SeededGenerator(seed: 2026))
        for _ in 0..<2_000 {
            let value = random.value()
            #expect(JSONWriter.bytes(value, layout: .compact) == (try FoundationOracle.bytes(of: value)))
            #expect(JSONWriter.bytes(value, layout: .pretty) == (try FoundationOracle.bytes(of: value, pretty: true)))
            // And what is written reads back as the same value.
            #expect(try JSONParser.parse(JSONWriter.bytes(value, layout: .pretty)) == value)
        }
    }

    @Test("pretty layout, empty containers included, is JSONEncoder's")
    func prettyLayout() throws {
        let value = JSONValue.object([
            "b": .array([]), "a": .object([:]), "c": .array([.number(1), .object(["x": .array([]), "y": .null])]),
        ])
        let expected = """
            {
              "a" : {

              },
              "b" : [

              ],
              "c" : [
                1,
                {
                  "x" : [

                  ],
                  "y" : null
                }
              ]
            }
            """
        #expect(String(decoding: JSONWriter.bytes(value, layout: .pretty), as: UTF8.self) == expected)
        #expect(JSONWriter.bytes(value, layout: .pretty) == (try FoundationOracle.bytes(of: value, pretty: true)))
        #expect(String(decoding: JSONWriter.bytes(.array([]), layout: .pretty), as: UTF8.self) == "[\n\n]")
        #expect(String(decoding: JSONWriter.bytes(.object([:]), layout: .pretty), as: UTF8.self) == "{\n\n}")
        #expect(
            String(decoding: JSONWriter.bytes(value, layout: .compact), as: UTF8.self)
                == #"{"a":{},"b":[],"c":[1,{"x":[],"y":null}]}"#)
    }

    @Test("members are sorted by the UTF-8 bytes of their names")
    func sortedMembers() throws {
        let value = JSONValue.object([
            "b": .null, "B": .null, "é": .null, "a": .null, "": .null, "😀": .null, "ab": .null,
        ])
        #expect(
            String(decoding: JSONWriter.bytes(value, layout: .compact), as: UTF8.self)
                == #"{"":null,"B":null,"a":null,"ab":null,"b":null,"é":null,"😀":null}"#)
        #expect(JSONWriter.bytes(value, layout: .compact) == (try FoundationOracle.bytes(of: value)))
    }
}
