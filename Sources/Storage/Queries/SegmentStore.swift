public import Postgres
public import Ranking

/// Reads the segments of an app (`segments`, sql/0014) and picks those a `SegmentFilter` keeps,
/// so that readings of the rollups sum the rows of those segments only.
public struct SegmentStore: Sendable {
    public init() {}

    /// A segment as stored: test flag, platform name and app version text.
    public struct Segment: Sendable, Hashable {
        public var id: Int32
        public var isTest: Bool
        public var platform: String
        public var appVersion: String
    }

    /// Every segment of the app, by id.
    /// - Throws: `StorageError`.
    public func segments(appID: Int32, on connection: PostgresConnection) throws(StorageError) -> [Segment] {
        return try StorageError.mapping {
            try connection.query("""
                SELECT segment_id, is_test, platform, app_version FROM segments WHERE app_id = \(appID) ORDER BY segment_id
                """).map { row in
                Segment(id: try row.decode(column: "segment_id"), isTest: try row.decode(column: "is_test"),
                        platform: try row.decode(column: "platform"), appVersion: try row.decode(column: "app_version"))

            }
        }
    }

    /// The ids of the app's segments that `filter` keeps, ascending (empty when none does).
    /// - Throws: `StorageError`.
    public func ids(appID: Int32, matching filter: SegmentFilter, on connection: PostgresConnection) throws(StorageError)
        -> [Int32]
    {
        try segments(appID: appID, on: connection)
            .filter { filter.matches(isTest: $0.isTest, platform: $0.platform, appVersion: $0.appVersion) }
            .map { $0.id }
    }
}
