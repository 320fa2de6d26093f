import ArgumentParsing
import CivilTime
import Events
import Foundation
import Ingest
import Postgres
import Storage

/// `menurank import FILE --app NAME`: historical events from JSON Lines, through the same
/// validation, dictionaries, dedupe and writer as the daemon.
extension Menurank {
    static let importCommand = CommandSpec(
        name: "import",
        abstract: "Load events from a JSON Lines file (one event per line; - reads standard input).",
        discussion: """
            Each line is one event with the fields of POST /v1/events (app_version, platform, \
            locale and is_test per line). Lines are checked like API events; refused lines are \
            reported on standard error with their line number and code, and the summary goes to \
            standard output. Events already stored (same app, id and day) count as duplicates, so \
            importing a file twice stores nothing twice. Exit status: 0 when every line was \
            stored or a duplicate, 2 when some lines were refused, 1 on failure.
            """,
        options: [
            ImportOptions.app.spec, ImportOptions.retention.spec, ImportOptions.batchSize.spec,
            ImportOptions.maxElementTypes.spec, ImportOptions.maxCommands.spec, ImportOptions.maxContexts.spec,
        ],
        arguments: [ImportOptions.file.spec],
        // The whole import talks to libpq, so it runs on a thread of its own (see BlockingThread).
        run: { context in try await BlockingThread.run { try EventImport(context: context).run() } })
}

/// The options of `menurank import`, each declared once; retention and the dictionary limits
/// default to the daemon's (`IngestConfiguration()`), as the import stores events as it does.
enum ImportOptions {
    private static var defaults: IngestConfiguration { IngestConfiguration() }

    static let app: Option<String> = .required("app", valueName: "name", help: "The app the events belong to.")
    static let file: Argument<String> = .required("file", help: "A JSON Lines file, or - for standard input.")
    static let retention: Option<Duration> = .duration(
        "retention", valueName: "duration", default: .seconds(defaults.retentionDays * 86_400), environment: ["MENURANK_RETENTION"],
        range: Limits.retention, help: "Events older than this are refused, as the daemon does.")
    static let batchSize: Option<Int> = .int(
        "batch-size", valueName: "n", default: 5000, range: .ints(1...100_000), help: "Events per transaction.")
    static let maxElementTypes: Option<Int> = .int(
        "max-element-types", valueName: "n", default: defaults.dictionaryLimits.maxElementTypes,
        environment: ["MENURANK_MAX_ELEMENT_TYPES"], range: Limits.dictionarySize, help: "Distinct element types per app.")
    static let maxCommands: Option<Int> = .int(
        "max-commands", valueName: "n", default: defaults.dictionaryLimits.maxCommands,
        environment: ["MENURANK_MAX_COMMANDS"], range: Limits.dictionarySize, help: "Distinct commands per app.")
    static let maxContexts: Option<Int> = .int(
        "max-contexts", valueName: "n", default: defaults.dictionaryLimits.maxContexts,
        environment: ["MENURANK_MAX_CONTEXTS"], range: Limits.dictionarySize, help: "Distinct contexts per app.")
}

/// One run of `menurank import`.
struct EventImport {
    let context: CommandContext

    private var values: ParsedValues { context.values }

    func run() throws {
        let path = values[ImportOptions.file]
        let handle: FileHandle
        var totalBytes: UInt64 = 0
        if path == "-" {
            handle = FileHandle.standardInput
        } else {
            guard let opened = FileHandle(forReadingAtPath: path) else {
                throw CLIError.failure("cannot open \(path): \(PipelineFile.reason(path))")
            }
            handle = opened
            totalBytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? UInt64) ?? 0
        }
        defer { try? handle.close() }

        let pool = try CommandDatabase.pool(values, application: "menurank-import")
        defer { pool.close() }
        let appName = values[ImportOptions.app]
        let app: AppRecord
        do {
            guard let found = try AppStore(pool: pool).app(named: appName) else {
                throw CLIError.failure("no app named \(appName); create it with: menurank apps create \(appName)")
            }
            app = found
        } catch let error as StorageError {
            throw CommandDatabase.failure(error)
        }
        let retentionDays = max(1, Int(values[ImportOptions.retention].components.seconds / 86_400))
        let conninfo = try CommandDatabase.conninfo(values)
        let parameters = CommandDatabase.parameters(application: "menurank-import")
        let writer = EventWriter(
            configuration: .init(connect: { try PostgresConnection(conninfo, parameters: parameters) }, writers: 1),
            partitions: PartitionManager(retentionDays: retentionDays))
        writer.start()
        defer { writer.shutdown() }
        let limits = DictionaryLimits(maxElementTypes: values[ImportOptions.maxElementTypes],
                                      maxCommands: values[ImportOptions.maxCommands],
                                      maxContexts: values[ImportOptions.maxContexts])
        var state = ImportState(
            app: app, decoder: JSONLinesDecoder(),
            policy: EventPolicy(retention: Int64(retentionDays) * EventPolicy.dayMicroseconds),
            preparer: EventPreparer(dictionaries: Dictionaries(pool: pool, limits: limits)), writer: writer,
            batchSize: values[ImportOptions.batchSize], console: context.console,
            progress: isatty(STDERR_FILENO) == 1 ? ImportProgress(totalBytes: totalBytes) : nil)

        var pending: [UInt8] = []
        while true {
            let chunk = handle.readData(ofLength: 1 << 20)
            if chunk.isEmpty { break }
            state.bytesRead += UInt64(chunk.count)
            pending.append(contentsOf: chunk)
            guard let lastNewline = pending.lastIndex(of: UInt8(ascii: "\n")) else { continue }
            try state.feed(pending[...lastNewline])
            pending.removeSubrange(...lastNewline)
        }
        if !pending.isEmpty { try state.feed(pending[...]) }
        try state.flush()
        state.progress?.finish()

        let summary = "\(state.lines) lines: \(state.accepted) events stored, \(state.duplicates) duplicates, "
            + "\(state.rejected) rejected"
        context.console.print(summary)
        if state.rejected > 0 {
            throw CLIError.exit(ExitCode(2), message: "\(state.rejected) of \(state.lines) lines were rejected (see above)")
        }
    }
}

/// The running totals and the batch being built.
struct ImportState {
    let app: AppRecord
    let decoder: JSONLinesDecoder
    let policy: EventPolicy
    let preparer: EventPreparer
    let writer: EventWriter
    let batchSize: Int
    let console: Console
    var progress: ImportProgress?
    var events: [IncomingEvent] = []
    var lines = 0
    var accepted = 0
    var duplicates = 0
    var rejected = 0
    var bytesRead: UInt64 = 0

    /// Decodes whole lines (the slice ends at a newline or at the end of the input).
    mutating func feed(_ bytes: ArraySlice<UInt8>) throws {
        try bytes.withUnsafeBufferPointer { buffer in
            var start = 0
            while start < buffer.count {
                var end = start
                while end < buffer.count, buffer[end] != UInt8(ascii: "\n") { end += 1 }
                lines += 1
                switch decoder.decodeLine(UnsafeBufferPointer(rebasing: buffer[start..<end]), lineNumber: lines) {
                case .blank: break
                case .event(let event): events.append(event)
                case .rejected(let rejection): report(line: rejection.line, code: rejection.code.rawValue, message: rejection.message)
                }
                if events.count >= batchSize { try flush() }
                start = end + 1
            }
        }
        progress?.show(lines: lines, bytes: bytesRead)
    }

    /// Stores the batch being built.
    mutating func flush() throws {
        guard !events.isEmpty else { return }
        let (inWindow, outOfWindow) = policy.apply(to: events, receivedAt: WallClock.system.now())
        events.removeAll(keepingCapacity: true)
        var refused = outOfWindow
        do {
            let prepared = try preparer.prepare(inWindow, appID: app.appID, hashSecret: app.hashSecret)
            refused += prepared.rejections
            let counts = try writer.write(prepared.rows)
            accepted += counts.accepted
            duplicates += counts.duplicates
        } catch {
            progress?.finish()
            throw CLIError.failure(
                "storing events failed after line \(lines - 1) (\(accepted) stored so far; importing again is safe): \(error)",
                causedBy: error)
        }
        for rejection in refused.sorted(by: { $0.index < $1.index }) {
            report(line: rejection.index, code: rejection.code.rawValue, message: rejection.message)
        }
    }

    private mutating func report(line: Int, code: String, message: String) {
        rejected += 1
        progress?.clear()
        console.printError("line \(line): \(code): \(message)")
    }
}

/// A one-line progress bar on standard error, only when it is a terminal, redrawn at most every
/// 100 ms: an interval, so measured on the monotonic clock (`ContinuousClock`), not the time of day.
struct ImportProgress {
    let totalBytes: UInt64
    private var lastShown: ContinuousClock.Instant?

    init(totalBytes: UInt64) { self.totalBytes = totalBytes }

    mutating func show(lines: Int, bytes: UInt64) {
        let now = ContinuousClock.now
        if let lastShown, now - lastShown <= .milliseconds(100) { return }
        lastShown = now
        var text = "\rimporting: \(lines) lines"
        if totalBytes > 0 {
            let fraction = min(1, Double(bytes) / Double(totalBytes))
            let filled = Int(fraction * 30)
            text += " [" + String(repeating: "#", count: filled) + String(repeating: ".", count: 30 - filled) + "] "
                + String(Int(fraction * 100)) + "%"
        }
        FileHandle.standardError.write(Data(text.utf8))
    }

    func clear() {
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }

    func finish() {
        clear()
    }
}
