#if FUZZING
import Foundation

/// libFuzzer's entry points (built by `scripts/fuzz` with `-sanitize=fuzzer` and `-DFUZZING`). The
/// target comes from `MENURANK_FUZZ_TARGET`.
private let selected: FuzzTarget = {
    let name = ProcessInfo.processInfo.environment["MENURANK_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
        fatalError("set MENURANK_FUZZ_TARGET to one of \(FuzzTarget.allCases.map(\.rawValue))")
    }
    return target
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    selected.run(bytes)
    return 0
}

/// libFuzzer's driver: parses libFuzzer's flags and runs the loop, calling `callback` per input.
@_silgen_name("LLVMFuzzerRunDriver")
private func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

/// The process's entry point. SwiftPM links an executable target's `main` to `<module>_main` (so
/// that tests can link the module), which leaves libFuzzer's own `main` out: this one hands the
/// command line to libFuzzer's driver instead.
@_cdecl("menurank_fuzz_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var count = argc
    var arguments = argv
    return runFuzzerDriver(&count, &arguments) { data, size in fuzzOneInput(data, size) }
}
#else
import Foundation

/// Without libFuzzer: replays inputs (files, or every file of directories) through a target, so the
/// seed corpus and past findings run in an ordinary build.
/// `menurank-fuzz TARGET PATH...`
@main
enum Replay {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard let name = arguments.first, let target = FuzzTarget(rawValue: name) else {
            FileHandle.standardError.write(Data("usage: menurank-fuzz \(FuzzTarget.allCases.map(\.rawValue).joined(separator: "|")) PATH...\n".utf8))
            exit(64)
        }
        var count = 0
        for path in arguments.dropFirst() {
            for file in files(at: path) {
                guard let data = FileManager.default.contents(atPath: file) else { continue }
                target.run(Array(data))
                count += 1
            }
        }
        print("\(name): \(count) inputs replayed")
    }

    static func files(at path: String) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return [] }
        guard isDirectory.boolValue else { return [path] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.sorted().map { path + "/" + $0 }
    }
}
#endif
