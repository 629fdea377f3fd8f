@preconcurrency import Glibc
import FuzzTargets

// SwiftPM links an executable's `main` under another name, and which `main` the linker then
// keeps, this one or libFuzzer's, is its choice; both run libFuzzer's driver on the same entry
// point, so either will do. (The entry point lives in this file: referring to it as a C
// function from another file makes the compiler emit a second copy of the symbol.)

/// The target named in the environment.
let selectedTarget: FuzzTarget = {
    guard let name = getenv("WAYPOINT_FUZZ_TARGET").map({ String(cString: $0) }), let target = FuzzTarget(rawValue: name)
    else {
        fatalError("set WAYPOINT_FUZZ_TARGET to one of: \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", "))")
    }
    return target
}()

/// libFuzzer's entry point: one input, any bytes.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    selectedTarget.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}

@_silgen_name("LLVMFuzzerRunDriver")
private func runDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

var argumentCount = CommandLine.argc
var arguments = CommandLine.unsafeArgv
exit(runDriver(&argumentCount, &arguments, fuzzOneInput))
