@preconcurrency import Glibc

// SwiftPM links an executable's `main` under another name, and which `main` the linker then
// keeps, this one or libFuzzer's, is its choice; both run libFuzzer's driver on the same entry
// point, so either will do. (The entry point lives in this file: referring to it as a C
// function from another file makes the compiler emit a second copy of the symbol.)

/// libFuzzer's entry point: one input, any bytes.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    FuzzTarget.selected.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
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
