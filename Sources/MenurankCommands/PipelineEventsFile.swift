import ArgumentParsing
import Events
import Foundation
import Menus
import Nightly
import Ranking

/// `menurank recommend --manifest FILE --events FILE.jsonl`: the nightly run without a database.
/// The events (the import format, `menurank import`) are decoded and checked line by line as the
/// import does, counted into the same per-day aggregates as the rollups (`UsageTally`), and go
/// through the same `NightlyRun`, so the documents are those the database path gives for the same
/// events; nothing is filed (no proposal ids).
enum PipelineEventsFile {
    /// What the file run found: the run as `recommend` prints it, and the lines refused.
    struct Loaded {
        var run: PipelineRecommendation.AppRun
        var rejected: [LineRejection]
        var lines: Int
    }

    /// Reads the manifest and the events and runs the night.
    /// - Throws: `CLIError.failure` when a file cannot be read or the manifest does not load.
    /// Only the events `filter` keeps are counted (as the rollups' segments would).
    static func run(manifest path: String, events eventsPath: String, window: RankingWindow,
                    filter: SegmentFilter = .default, nightly: NightlyRun) throws -> Loaded
    {
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
        var tally = UsageTally()
        for event in batch.events
            where filter.matches(isTest: event.isTest, platform: event.platform, appVersion: event.appVersion)
        {
            tally.add(id: event.id.description, day: event.partitionDayNumber, elementType: event.elementType,
                      command: event.kind == .dismiss ? nil : event.command, user: event.user)
        }
        let outcome = nightly.run(app: manifest.app, manifest: manifest, activities: tally.activities(in: window),
                                  recordedStability: { _ in [:] })
        return Loaded(run: PipelineRecommendation.AppRun(report: outcome.report, appFindings: outcome.appFindings,
                                                         commands: manifest.commands),
                      rejected: batch.rejections, lines: batch.lineCount)
    }
}
