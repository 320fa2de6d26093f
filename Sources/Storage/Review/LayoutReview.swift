public import CivilTime
public import Outcomes
public import Postgres
public import Ranking

/// The layout history of an element type, its rollback and the outcomes of its layouts, over a
/// pool, for the admin API (`GET /v1/admin/layouts`, `POST /v1/admin/layouts/rollback`,
/// `GET /v1/admin/outcomes`).
public final class LayoutReview: Sendable {
    private let pool: PostgresPool

    public init(pool: PostgresPool) {
        self.pool = pool
    }

    /// Every version of the element type's layout (oldest first) and its rollbacks (newest first).
    /// - Throws: `StorageError`.
    public func history(appID: Int32, elementType: String) throws(StorageError)
        -> (layouts: [LayoutRecord], rollbacks: [LayoutRollbackRecord])
    {
        try StorageError.mapping {
            try pool.withConnection { connection in
                (try LayoutStore().history(appID: appID, elementType: elementType, on: connection),
                 try LayoutRollback().history(appID: appID, elementType: elementType, on: connection))
            }
        }
    }

    /// `OutcomeQuery.report` on a connection of the pool: how each layout did, and each accepted
    /// one against the layout before it (what `menurank outcomes` prints).
    /// - Throws: `StorageError`.
    public func outcomes(appID: Int32, appName: String, from: CivilDate, to: CivilDate, elementType: String?,
                         filter: SegmentFilter,
                         predicted: @escaping @Sendable (String) -> PredictedEvidence?) throws(StorageError) -> OutcomeReport
    {
        try StorageError.mapping {
            try pool.withConnection { connection in
                try OutcomeQuery().report(appID: appID, appName: appName, from: from, to: to, elementType: elementType,
                                          filter: filter, predicted: predicted, on: connection)
            }
        }
    }

    /// `LayoutRollback.rollBack` on a connection of the pool.
    /// - Throws: `StorageError` (`.invalidArgument` when refused).
    public func rollBack(appID: Int32, elementType: String, note: String, by author: String) throws(StorageError)
        -> (rollback: LayoutRollbackRecord, menuVersion: String)
    {
        try StorageError.mapping {
            try pool.withConnection { connection in
                try LayoutRollback().rollBack(appID: appID, elementType: elementType, note: note, by: author, on: connection)
            }
        }
    }
}
