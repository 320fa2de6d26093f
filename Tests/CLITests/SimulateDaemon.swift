import Foundation
import TestSupport

/// A `menurank serve` process on a free port of 127.0.0.1, for the live simulate test. The port
/// is read from the daemon's log (it logs the real address when started with port 0).
final class SimulateDaemon: @unchecked Sendable {
    let process = Process()
    private(set) var port: UInt16 = 0
    private let lock = NSLock()
    private var log = ""

    init(database: String) throws {
        process.executableURL = try RepositoryPaths.menurankBinary()
        process.arguments = ["serve", "--listen", "127.0.0.1:0", "--database", database]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        errors.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let chunk = handle.availableData
            guard let self, !chunk.isEmpty else { return }
            self.lock.lock()
            self.log += String(decoding: chunk, as: UTF8.self)
            self.lock.unlock()
        }
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, process.isRunning {
            if let found = Self.port(in: logText) {
                port = found
                return
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        stop()
        throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "menurank serve did not log its port: \(logText)"])
    }

    var logText: String {
        lock.lock()
        defer { lock.unlock() }
        return log
    }

    /// The first non-zero port in the log, written as `port=N` (logfmt), `"port":N` (JSON) or
    /// `127.0.0.1:N`.
    static func port(in text: String) -> UInt16? {
        for marker in ["port=", "\"port\":", "127.0.0.1:"] {
            var rest = Substring(text)
            while let range = rest.range(of: marker) {
                let digits = rest[range.upperBound...].prefix { $0.isNumber }
                if let port = UInt16(digits), port != 0 { return port }
                rest = rest[range.upperBound...]
            }
        }
        return nil
    }

    /// SIGTERM, then waits; returns the exit status.
    @discardableResult
    func stop() -> Int32 {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
