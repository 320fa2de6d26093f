public import CivilTime
import Foundation
import Locking
public import Nightly
public import Postgres
public import Ranking
public import Reports

/// The nightly store on PostgreSQL (`Nightly.NightlyStore`): the rollups (`RollupStore`), the
/// window's usage read from them (`RankingQuery`), the current menus (`ManifestStore`) and
/// `proposals` (`ProposalStore`), on the caller's connection and an optional helper connection.
///
/// With a helper, a night's reading overlaps its rollup: the rollup runs on a thread of its own on
/// `connection` and hands over the new rows of the days it recomputes as soon as they are computed
/// (`RollupPreview`); `open` reads the window on the helper with them (exactly what the committed
/// rollups will hold) and lets the rollup commit once its snapshot is taken, so the rollup's last
/// writes and the night's computing run at once; `close` waits for the commit. When that cannot be
/// (no helper, a backfill of many days, a filter or a half-life) or the read fails, the usage is
/// read after the commit. Filing comes after `close`.
///
/// One night at a time, used from the one thread that runs the job; not `Sendable`.
public final class PostgresNightlyStore: NightlyStore {
    private let connection: PostgresConnection
    private let helper: PostgresConnection?
    private let rollups: RollupStore
    private let proposals: ProposalStore
    /// The rollup of the app being opened, running on its own thread until `close`.
    private var rollup: RollupThread?

    /// - Parameters:
    ///   - connection: the night's connection (the rollup's transaction and the filing).
    ///   - helper: a second connection to the same database, for reads that share out their work
    ///     and the reading while the rollup writes; nil: everything on `connection`.
    ///   - clock: the night's "now", for what it stamps: the rollup's time (`rollup_times`) and the
    ///     proposals it files or supersedes; the daemon passes its own, a test a fixed instant.
    public init(connection: PostgresConnection, helper: PostgresConnection?, clock: WallClock = .system) {
        self.connection = connection
        self.helper = helper
        rollups = RollupStore(asynchronousCommit: true, clock: clock)
        proposals = ProposalStore(clock: clock)
    }

    /// - Throws: `NightlyError.unknownApp`, `StorageError`.
    public func apps(named name: String?) throws -> [NightlyApp] {
        if let name {
            guard let id = try AppStore.appID(named: name, on: connection) else { throw NightlyError.unknownApp(name) }
            return [NightlyApp(id: id, name: name)]
        }
        return try StorageError.mapping {
            // Not a correlated `EXISTS`: on Citus, `apps` is a reference table and `manifests`
            // distributed, and Citus refuses a correlated subquery under a reference table; the
            // app ids of the manifests are gathered from the shards instead.
            try connection.query("""
                SELECT a.app_id, a.name FROM apps a
                WHERE a.app_id IN (SELECT DISTINCT m.app_id FROM manifests m)
                ORDER BY a.name
                """).map {
                NightlyApp(id: try $0.decode(Int32.self, column: "app_id"), name: try $0.decode(String.self, column: "name"))
            }


        }
    }

    /// - Throws: `StorageError`.
    public func open(_ app: NightlyApp, window: RankingWindow, filter: SegmentFilter) throws -> NightlyInput? {
        precondition(rollup == nil, "close the previous app's night first")
        guard let helper else {
            rollup = RollupThread(done: try rollups.rollUp(appID: app.id, on: connection))
            return try read(app, window: window, filter: filter, on: connection, alongside: nil)
        }
        let running = RollupThread(rollups, appID: app.id, on: connection, alongside: helper, previewing: window.days)
        rollup = running
        var failure: String?
        if let preview = running.preview() {
            let query = RankingQuery(appID: app.id, window: window, includePrevious: false)
            if filter.isDefault, query.accepts(preview) {
                do {
                    let input = try read(app, window: window, filter: filter, on: helper, preview: preview)
                    running.release()
                    return input.map {
                        var input = $0
                        input.readWhileRollingUp = true
                        return input
                    }
                } catch {
                    failure = "\(error)"
                }
            }
            running.release()
        }
        _ = try running.join()
        return try read(app, window: window, filter: filter, on: connection, alongside: helper).map {
            var input = $0
            input.previewFailure = failure
            return input
        }
    }

    /// The current menus and the window's usage: on `connection` (sharing the totals with
    /// `helper`), or with `preview` as the rollup handing it will have committed them.
    private func read(_ app: NightlyApp, window: RankingWindow, filter: SegmentFilter, on connection: PostgresConnection,
                      alongside helper: PostgresConnection? = nil, preview: RollupPreview? = nil) throws -> NightlyInput?
    {
        try StorageError.mapping {
            let stored = try ManifestStore().fetchCurrent(appID: app.id, on: connection)
            guard stored.hasManifest else { return nil }
            let query = RankingQuery(appID: app.id, window: window, includePrevious: false,
                                     segments: filter.isDefault ? nil
                                         : try SegmentStore().ids(appID: app.id, matching: filter, on: connection))
            // The stored menus are decoded on another thread while the totals are read.
            let (activities, decoded) = try ForkJoin.both({
                if let preview { return try query.activities(on: connection, replacing: preview) }
                return try query.activities(on: connection, alongside: helper)
            }, alongside: { try stored.decoded() })
            guard let (record, layouts) = decoded else { return nil }
            var manifest = record.document.manifest
            manifest.menus = manifest.menus.filter { layouts[$0.key] != nil }
            return NightlyInput(manifest: manifest, baseVersions: layouts.mapValues { $0.version }, activities: activities)
        }
    }

    /// Looked up on the helper while the rollup may still hold `connection`.
    /// - Throws: `StorageError`.
    public func onFile(_ drafts: [NightlyDraft], of app: NightlyApp) throws -> [String: NightlyMatch] {
        let reader = rollup?.isRunning == true ? helper ?? connection : connection
        return try proposals.lookUp(drafts.map { Self.draft($0, evidence: "") }, appID: app.id, on: reader)
            .mapValues { NightlyMatch(filing: $0.filing, stabilities: $0.stabilities) }
    }

    /// - Throws: the rollup's `StorageError`.
    public func close(_ app: NightlyApp) throws -> NightlyRollup {
        guard let running = rollup else { return NightlyRollup() }
        rollup = nil
        running.release()
        return NightlyRollup(days: try running.join().days)
    }

    /// One transaction (`ProposalStore.file`): the new proposals' ids are drawn first, so each
    /// document is written once, with its id.
    /// - Throws: `StorageError`.
    public func file(_ drafts: [NightlyDraft], documents: [ProposalDocument], of app: NightlyApp) throws
        -> [(filing: ProposalFiling, evidence: String?)]
    {
        precondition(rollup == nil, "file after close")
        var written = [String?](repeating: nil, count: drafts.count)
        let filings = try proposals.file(drafts.map { Self.draft($0, evidence: "") }, appID: app.id, on: connection) {
            index, id in
            var document = documents[index]
            document.proposalID = Int(id)
            let text = document.jsonText()
            written[index] = text
            return text
        }
        return Array(zip(filings, written))
    }

    private static func draft(_ draft: NightlyDraft, evidence: String) -> ProposalDraft {
        ProposalDraft(elementType: draft.elementType, baseLayoutVersion: draft.baseVersion, windowFrom: draft.window.firstDay,
                      windowTo: draft.window.asOf, current: draft.current, proposed: draft.proposed, evidence: evidence)
    }
}

/// A rollup running on a thread of its own (`RollupStore.rollUp(appID:on:alongside:previewing:meanwhile:)`)
/// that hands over its preview and then waits, before it commits, until the reader has read with
/// it (`release`): the reader's snapshot must be taken before the commit, or it would count the
/// recomputed days twice.
private final class RollupThread: @unchecked Sendable {
    private let condition = NSCondition()
    private var handed = false
    private var handedPreview: RollupPreview?
    private var released = false
    private var outcome: Result<RollupOutcome, StorageError>?

    /// A rollup already done (on the calling thread).
    init(done: RollupOutcome) {
        handed = true
        released = true
        outcome = .success(done)
    }

    /// Starts the rollup on a new thread.
    init(_ rollups: RollupStore, appID: Int32, on connection: PostgresConnection, alongside helper: PostgresConnection,
         previewing days: ClosedRange<CivilDate>)
    {
        let thread = Thread { [self] in
            let result: Result<RollupOutcome, StorageError>
            do {
                result = .success(try rollups.rollUp(appID: appID, on: connection, alongside: helper, previewing: days) {
                    preview in
                    self.hand(preview)
                }.outcome)
            } catch let error as StorageError {
                result = .failure(error)
            } catch {
                result = .failure(StorageError(.database, "\(error)"))
            }
            condition.lock()
            handed = true
            outcome = result
            condition.broadcast()
            condition.unlock()
        }
        thread.stackSize = ForkJoin.stackSize
        thread.start()
    }

    /// Whether the rollup has not ended yet.
    var isRunning: Bool {
        condition.lock()
        defer { condition.unlock() }
        return outcome == nil
    }

    /// On the rollup's thread: hands `preview` over and waits for `release`.
    private func hand(_ preview: RollupPreview) {
        condition.lock()
        handedPreview = preview
        handed = true
        condition.broadcast()
        while !released { condition.wait() }
        condition.unlock()
    }

    /// Waits for the preview; nil when the rollup ended (or failed) without one (more days than
    /// a preview holds).
    func preview() -> RollupPreview? {
        condition.lock()
        defer { condition.unlock() }
        while !handed { condition.wait() }
        return handedPreview
    }

    /// Lets the rollup go on to commit.
    func release() {
        condition.lock()
        released = true
        handedPreview = nil
        condition.broadcast()
        condition.unlock()
    }

    /// Waits for the rollup to end (call `release` first).
    func join() throws(StorageError) -> RollupOutcome {
        condition.lock()
        while outcome == nil { condition.wait() }
        let result = outcome!
        condition.unlock()
        return try result.get()
    }
}
