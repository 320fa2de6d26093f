import Foundation
import Locking

/// A one-line progress display on standard error (only when it is a terminal): batches done out of
/// all, redrawn a few times a second by a thread of its own while the senders run.
final class SimulationProgress: Sendable {
    private let state = Locked((done: 0, finished: false))
    private let total: Int
    private let enabled: Bool
    private let stopped = DispatchSemaphore(value: 0)

    init(total: Int, enabled: Bool = isatty(STDERR_FILENO) == 1) {
        self.total = total
        self.enabled = enabled
    }

    func batchDone() {
        state.withLock { $0.done += 1 }
    }

    func start() {
        guard enabled else { return }
        Thread.detachNewThread { [self] in
            while true {
                let (count, over) = state.withLock { $0 }
                let percent = total > 0 ? count * 100 / total : 100
                FileHandle.standardError.write(Foundation.Data("\rsimulate: \(count)/\(total) batches (\(percent)%)".utf8))
                if over { break }
                Thread.sleep(forTimeInterval: 0.25)
            }
            FileHandle.standardError.write(Foundation.Data("\n".utf8))
            stopped.signal()
        }
    }

    /// Draws the last state and waits until the line is complete.
    func finish() {
        state.withLock { $0.finished = true }
        if enabled { stopped.wait() }
    }
}
