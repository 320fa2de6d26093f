import Storage

extension IngestMetrics: EventWriterObserver {
    func writerCommitted(rows: Int, duplicates: Int, requests: Int, seconds: Double) {
        transactionRows.observe(Double(rows + duplicates))
        commitSeconds.observe(seconds)
        databaseUp.set(1)
    }

    func writerFailed(_ error: StorageError, requests: Int) {
        databaseError(kind: error.kind == .unavailable ? "unavailable" : "query").increment()
        if error.kind == .unavailable { databaseUp.set(0) }
    }
}
