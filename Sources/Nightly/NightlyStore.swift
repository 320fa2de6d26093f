public import CivilTime
public import Menus
public import Ranking
public import Reports

/// Where a night reads its usage and files its proposals: PostgreSQL (Storage's
/// `PostgresNightlyStore`, the rollups and `proposals`) or memory (`MemoryNightlyStore`, the
/// database-free run of `recommend --manifest --events`). `NightlyJob` is written against this
/// protocol alone, so both runs go through the same steps.
///
/// A store serves one night at a time, one app after the other, on the thread that runs the job:
/// `apps`, then per app `open` (the rollup and the reading), `onFile` (while the rollup may still
/// commit), `close` (the rollup committed), and `file` after it. Every call may throw the store's
/// own error (Storage's `StorageError`), which the job passes on unchanged.
public protocol NightlyStore {
    /// The apps a night runs for: the one called `name`, or with nil every app with a manifest, by
    /// name. - Throws: `NightlyError.unknownApp` when no app is called `name`.
    func apps(named name: String?) throws -> [NightlyApp]

    /// Rolls up what is queued for `app` and reads what its night needs: the current menus and the
    /// window's usage of the events `filter` counts, as they read once the rollup has committed.
    /// The rollup may still be committing when this returns (its last writes overlap the night's
    /// computing); `close` waits for it. Nil when the app has no manifest.
    func open(_ app: NightlyApp, window: RankingWindow, filter: SegmentFilter) throws -> NightlyInput?

    /// Of `drafts` (changed proposals), those matching a pending or rejected proposal on file with
    /// the same layout made from the same base layout, by element type.
    func onFile(_ drafts: [NightlyDraft], of app: NightlyApp) throws -> [String: NightlyMatch]

    /// Waits for the rollup `open` started to commit (or, when it failed, throws its error) and
    /// tells what it did. Called once after every `open`, also when the night failed in between.
    func close(_ app: NightlyApp) throws -> NightlyRollup

    /// Files `drafts` for `app` all at once or not at all (one transaction), each with its
    /// document (`documents`, in the same order) as evidence, the document's `proposalID` set to
    /// the id it is filed under. Returns per draft, in order, what filing did and for a new
    /// proposal the evidence's compact JSON text as stored (what the run prints: each document is
    /// written once).
    func file(_ drafts: [NightlyDraft], documents: [ProposalDocument], of app: NightlyApp) throws
        -> [(filing: ProposalFiling, evidence: String?)]
}

/// An app as a night runs it.
public struct NightlyApp: Hashable, Sendable {
    /// The store's id of the app (the database's `app_id`; 0 in memory).
    public var id: Int32
    public var name: String

    public init(id: Int32, name: String) {
        self.id = id
        self.name = name
    }
}

/// What a night reads for one app.
public struct NightlyInput: Sendable {
    /// The app's manifest with its current menus: only element types with a current layout, each
    /// with that layout.
    public var manifest: Manifest
    /// By element type of `manifest.menus`: the version of its current layout, from which a
    /// proposal is made (0 in memory).
    public var baseVersions: [String: Int]
    /// The window's usage: one activity per element type with use, sorted by element type.
    public var activities: [ElementTypeActivity]
    /// Whether the usage was read while the rollup wrote (from its preview) rather than after it.
    public var readWhileRollingUp: Bool
    /// Why the usage was read again after the rollup, when reading it while the rollup wrote
    /// failed (logged by the caller; the night goes on).
    public var previewFailure: String?

    public init(manifest: Manifest, baseVersions: [String: Int], activities: [ElementTypeActivity],
                readWhileRollingUp: Bool = false, previewFailure: String? = nil)
    {
        self.manifest = manifest
        self.baseVersions = baseVersions
        self.activities = activities
        self.readWhileRollingUp = readWhileRollingUp
        self.previewFailure = previewFailure
    }
}

/// A proposal the night would file for one element type: looked up among those on file
/// (`NightlyStore.onFile`), then filed with its document when none matched.
public struct NightlyDraft: Hashable, Sendable {
    public var elementType: String
    /// The version of the current layout the proposal was made from.
    public var baseVersion: Int
    public var window: RankingWindow
    public var current: Layout
    public var proposed: Layout

    public init(elementType: String, baseVersion: Int, window: RankingWindow, current: Layout, proposed: Layout) {
        self.elementType = elementType
        self.baseVersion = baseVersion
        self.window = window
        self.current = current
        self.proposed = proposed
    }
}

/// A proposal on file that a draft matches (`NightlyStore.onFile`).
public struct NightlyMatch: Sendable, Hashable {
    /// `.alreadyPending` or `.alreadyRejected`, with its id.
    public var filing: ProposalFiling
    /// The stability its evidence recorded for each step of the ladder (empty for a document
    /// filed before the ladder: its steps are resampled).
    public var stabilities: [String: Double]

    public init(filing: ProposalFiling, stabilities: [String: Double]) {
        self.filing = filing
        self.stabilities = stabilities
    }
}

/// What the rollup of an app's night did.
public struct NightlyRollup: Sendable, Hashable {
    /// The days recomputed.
    public var days: [CivilDate]

    public init(days: [CivilDate] = []) {
        self.days = days
    }
}

/// Why a night could not run, in words for the person who started it.
public enum NightlyError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No app has this name.
    case unknownApp(String)
    /// The app named has no manifest.
    case noManifest(String)
    /// The night was asked to stop (a daemon shutting down) before filing.
    case cancelled

    public var description: String {
        switch self {
        case .unknownApp(let name): "no app named \(name) (create it with: menurank apps create \(name))"
        case .noManifest(let name): "no manifest imported for \(name) (run menurank menus import FILE)"
        case .cancelled: "the night was stopped before it filed anything"
        }
    }
}
