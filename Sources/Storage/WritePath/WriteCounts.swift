/// What one write did: events newly stored and events that were already stored (same app, id and
/// day), which are not stored again.
public struct WriteCounts: Sendable, Hashable {
    public var accepted: Int
    public var duplicates: Int

    public init(accepted: Int = 0, duplicates: Int = 0) {
        self.accepted = accepted
        self.duplicates = duplicates
    }
}
