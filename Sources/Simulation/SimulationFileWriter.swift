import Foundation

/// Writes generated events to a file (or standard output for `-`), batch by batch, without holding
/// them all in memory.
public enum SimulationFileWriter {
    /// JSON Lines, or COPY rows with `copyRowsForApp` as their app id.
    public static func write(_ encoder: SimulationEncoder, to path: String, copyRowsForApp appID: Int?) throws(SimulationError) {
        let handle: FileHandle
        if path == "-" {
            handle = FileHandle.standardOutput
        } else {
            guard FileManager.default.createFile(atPath: path, contents: nil),
                  let opened = FileHandle(forWritingAtPath: path)
            else { throw SimulationError(.io, "cannot create \(path)") }
            handle = opened
        }
        defer { if path != "-" { try? handle.close() } }
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 20)
        for index in 0..<encoder.generator.batchCount {
            let batch = encoder.generator.batch(index)
            if let appID {
                encoder.appendCopyRows(batch, appID: appID, to: &buffer)
            } else {
                encoder.appendJSONLines(batch, to: &buffer)
            }
            if buffer.count >= 1 << 20 || index == encoder.generator.batchCount - 1 {
                do { try handle.write(contentsOf: buffer) } catch {
                    throw SimulationError(.io, "cannot write \(path): \(error.localizedDescription)")
                }
                buffer.removeAll(keepingCapacity: true)
            }
        }
    }
}
