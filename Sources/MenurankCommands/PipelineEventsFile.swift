import ArgumentParsing
import Events
import Foundation
import Menus
import Nightly
import Ranking

/// `menurank recommend --manifest FILE --events FILE.jsonl`: the nightly job without a database.
/// The events (the import format, `menurank import`) are decoded and checked line by line as the
/// import does and held in a `MemoryNightlyStore`, which counts them as the rollups do, so the job
/// gives the documents the database gives for the same events; nothing is filed (no proposal ids).
enum PipelineEventsFile {
    /// The store with the events loaded, and the lines refused.
    struct Loaded {
        var store: MemoryNightlyStore
        var rejected: [LineRejection]
        var lines: Int
    }

    /// Reads the manifest and the events; only the events `filter` keeps are counted (as the
    /// rollups' segments would).
    /// - Throws: `CLIError.failure` when a file cannot be read or the manifest does not load.
    static func load(manifest path: String, events eventsPath: String, filter: SegmentFilter = .default) throws -> Loaded {
        let (_, loaded) = try PipelineManifestFile.load(path)
        let manifest: Manifest
        switch loaded {
        case .success(let document): manifest = document.manifest
        case .failure(let error):
            throw CLIError.failure(PipelineManifestFile.errorLines(error, file: path).joined(separator: "\n"))
        }
        let bytes: [UInt8]
        if eventsPath == "-" {
            bytes = [UInt8](FileHandle.standardInput.readDataToEndOfFile())
        } else {
            bytes = try PipelineFile.read(eventsPath)
        }
        let batch = JSONLinesDecoder().decode(bytes)
        let store = MemoryNightlyStore(manifest: manifest)
        for event in batch.events
            where filter.matches(isTest: event.isTest, platform: event.platform, appVersion: event.appVersion)
        {
            store.add(id: event.id.description, day: event.partitionDay, elementType: event.elementType,
                      command: event.kind == .dismiss ? nil : event.command, user: event.user)
        }
        return Loaded(store: store, rejected: batch.rejections, lines: batch.lineCount)
    }
}
