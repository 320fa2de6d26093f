import ArgumentParsing
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading the files the commands are given, with the operating system's reason when one cannot be
/// read ("cannot read menus.json: No such file or directory"), so the user knows what to fix.
enum PipelineFile {
    /// The bytes of the file at `path`.
    /// - Throws: `CLIError.failure` "cannot read WHAT PATH: REASON".
    static func read(_ path: String, what: String = "") throws -> [UInt8] {
        if let data = FileManager.default.contents(atPath: path) { return [UInt8](data) }
        throw CLIError.failure("cannot read \(what.isEmpty ? "" : what + " ")\(path): \(reason(path))")
    }

    /// Why `path` cannot be opened for reading: the OS's words for `open`'s error, or that it is a
    /// directory.
    static func reason(_ path: String) -> String {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return String(cString: strerror(errno)) }
        defer { close(descriptor) }
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFDIR { return "it is a directory" }
        return "it could not be read"
    }
}
