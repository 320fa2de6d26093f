/// Hooks for metrics and logs about the writer's transactions.
public protocol EventWriterObserver: Sendable {
    /// A transaction committed `rows` new rows for `requests` waiting writes in `seconds`.
    func writerCommitted(rows: Int, duplicates: Int, requests: Int, seconds: Double)
    /// A transaction failed; its writes got `error`.
    func writerFailed(_ error: StorageError, requests: Int)
}
