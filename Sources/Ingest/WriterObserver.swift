import Observability
import Storage

/// Feeds the writer's transactions into the metrics, and logs its failures.
struct WriterObserver: EventWriterObserver {
    let metrics: IngestMetrics
    let logger: Logger

    func writerCommitted(rows: Int, duplicates: Int, requests: Int, seconds: Double) {
        metrics.transactionRows.observe(Double(rows + duplicates))
        metrics.commitSeconds.observe(seconds)
        metrics.databaseUp.set(1)
    }

    func writerFailed(_ error: StorageError, requests: Int) {
        let unavailable = error.kind == .unavailable
        metrics.databaseError(kind: unavailable ? "unavailable" : "query").increment()
        if unavailable { metrics.databaseUp.set(0) }
        // Each request this failure answered is logged once, with its request id and this cause,
        // by `IngestHandler`; here only the transaction, at debug.
        logger.debug("event write failed", metadata: ["requests": .int(requests), "error": .string(error.debugDescription)])
    }
}
