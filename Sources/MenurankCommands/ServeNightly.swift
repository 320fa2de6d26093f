import CivilTime
import Foundation
import Nightly
import Observability
import Postgres
import Ranking
import Recommender
import Storage

/// `serve --nightly-at HH:MM [--nightly-tz ZONE]`: the nightly job (`NightlyJob`, the one
/// `menurank recommend --all` runs) inside the daemon, on a thread of its own.
///
/// Every tick (a minute) the thread asks which night is due: the latest day of the schedule's time
/// zone whose HH:MM has passed. A night not done yet is run, so a daemon started after the hour (or
/// down at the hour) runs the night it missed, once. With several daemons on one database exactly
/// one runs it: the night runs under a session advisory lock, and its row in `nightly_runs`
/// (`NightlyRunStore`) says whether it succeeded already (a daemon that finds the lock taken, or the
/// night done, does nothing). A night that fails is logged (`msg="night failed"`, with the error)
/// and tried again at the next tick.
///
/// SIGTERM (`stop`) during a night: the job is asked to stop before each app and before filing
/// (`NightlyJob`'s `shouldStop`), and filing is one transaction per app, so the night ends at the
/// next of those points with no proposal set half filed; the night is recorded `stopped` and the
/// next daemon runs it again. The rollup the night is in when asked finishes first (seconds).
///
/// Metrics on `/metrics`: `menurank_nightly_last_end_seconds` (when the last night ended, Unix
/// time), `menurank_nightly_last_success` (1 when it succeeded, else 0), `menurank_nightly_last_filed`
/// (proposals it filed) and `menurank_nightly_runs_total{outcome}`.
final class ServeNightly: @unchecked Sendable {
    /// When the night is due.
    struct Schedule: Sendable, Hashable {
        var hour: Int
        var minute: Int
        var zone: TimeZone

        /// `HH:MM` (24-hour), nil for anything else.
        static func time(_ text: String) -> (hour: Int, minute: Int)? {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCII) }),
                  let hour = Int(parts[0]), let minute = Int(parts[1]), (0..<24).contains(hour), (0..<60).contains(minute)
            else { return nil }
            return (hour, minute)
        }

        /// The night due at `now`: the latest day (of `zone`) whose `hour:minute` is at or before `now`.
        func dueNight(at now: UTCTimestamp) -> CivilDate {
            let date = Date(timeIntervalSince1970: Double(now.microsecondsSince1970) / 1_000_000)
            let offset = Int64(zone.secondsFromGMT(for: date))
            let local = CivilDateTime(microsecondsSince1970: now.microsecondsSince1970 + offset * 1_000_000)
            let passed = local.hour * 60 + local.minute >= hour * 60 + minute
            return passed ? local.date : local.date.adding(days: -1)
        }
    }

    private let schedule: Schedule
    private let conninfo: String
    private let logger: Logger
    private let tick: Duration
    private let runner: String
    private let condition = NSCondition()
    private var stopping = false
    private var finished = false
    private let lastEnd: Gauge
    private let lastSuccess: Gauge
    private let lastFiled: Gauge
    private let runs: [String: Counter]
    private let clock: WallClock

    /// - Parameters:
    ///   - tick: how often the thread looks whether a night is due (a minute; the tests'
    ///     `MENURANK_TEST_NIGHTLY_TICK_MS` makes it shorter).
    ///   - clock: what "now" is (the system's clock): which night is due, the night's window, its
    ///     record in `nightly_runs`, and what the night stamps (the rollup's time, the proposals).
    init(schedule: Schedule, conninfo: String, logger: Logger, metrics: MetricsRegistry, tick: Duration = .seconds(60),
         clock: WallClock = .system)
    {
        self.schedule = schedule
        self.clock = clock
        self.conninfo = conninfo
        self.logger = logger.labeled("menurank.nightly")
        self.tick = tick
        runner = "\(ProcessInfo.processInfo.hostName) pid \(getpid())"
        lastEnd = metrics.gauge("menurank_nightly_last_end_seconds", help: "When the daemon's last night ended (Unix time).")
        lastSuccess = metrics.gauge("menurank_nightly_last_success", help: "1 when the daemon's last night succeeded, else 0.")
        lastFiled = metrics.gauge("menurank_nightly_last_filed", help: "Proposals the daemon's last night filed.")
        runs = Dictionary(uniqueKeysWithValues: ["succeeded", "failed", "stopped"].map { outcome in
            (outcome, metrics.counter("menurank_nightly_runs", help: "Nights this daemon ran, by outcome.",
                                      labels: ["outcome": outcome]))
        })
    }

    /// Starts the thread.
    func start() {
        logger.info("nightly job scheduled", metadata: [
            "at": "\(String(format: "%02d:%02d", schedule.hour, schedule.minute))", "tz": "\(schedule.zone.identifier)",
        ])
        let thread = Thread { [self] in
            var done: CivilDate?
            while !isStopping {
                let night = schedule.dueNight(at: clock.now())
                if night != done, runNight(night) { done = night }
                wait(for: tick)
            }
            condition.lock()
            finished = true
            condition.broadcast()
            condition.unlock()
        }
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// Asks a running night to stop and waits until the thread has ended.
    func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        while !finished { condition.wait() }
        condition.unlock()
    }

    private var isStopping: Bool {
        condition.lock()
        defer { condition.unlock() }
        return stopping
    }

    /// Sleeps for `span` or until `stop`.
    private func wait(for span: Duration) {
        let seconds = Double(span.components.seconds) + Double(span.components.attoseconds) / 1e18
        let deadline = Date(timeIntervalSinceNow: seconds)
        condition.lock()
        while !stopping, condition.wait(until: deadline) {}
        condition.unlock()
    }

    /// Runs `night` unless another daemon holds it or it succeeded already; true when it is done.
    private func runNight(_ night: CivilDate) -> Bool {
        let connection: PostgresConnection
        do {
            connection = try PostgresConnection(conninfo, parameters: ["application_name": "menurank-nightly"])
        } catch {
            logger.error("night failed", metadata: ["night": "\(night)", "error": "cannot connect to PostgreSQL: \(error)"])
            ended("failed", filed: 0)
            return false
        }
        let store = NightlyRunStore()
        do {
            guard try store.tryLock(on: connection) else {
                logger.debug("another daemon runs the night", metadata: ["night": "\(night)"])
                return false
            }
            defer { try? store.unlock(on: connection) }
            if try store.outcome(of: night, on: connection) == "succeeded" {
                logger.debug("the night is done", metadata: ["night": "\(night)"])
                return true
            }
            try store.begin(night, runner: runner, at: clock.now(), on: connection)
            logger.info("night started", metadata: ["night": "\(night)"])
            let helper = try? PostgresConnection(conninfo, parameters: ["application_name": "menurank-nightly"])
            // The window `recommend --all` takes by default: 28 days up to today (UTC).
            let job = NightlyJob(window: RankingWindow(asOf: clock.now().day), options: Recommender.Options(),
                                 files: true)
            do {
                let apps = try job.run(appNamed: nil, on: PostgresNightlyStore(connection: connection, helper: helper, clock: clock),
                                       shouldStop: { self.isStopping })
                let filed = apps.reduce(0) { $0 + $1.filed.count }
                try store.finish(night, outcome: "succeeded", filed: filed, at: clock.now(), on: connection)
                logger.info("night done", metadata: ["night": "\(night)", "apps": "\(apps.count)", "filed": "\(filed)"])
                ended("succeeded", filed: filed)
                return true
            } catch NightlyError.cancelled {
                try? store.finish(night, outcome: "stopped", detail: "the daemon was shut down", at: clock.now(),
                                  on: connection)
                logger.notice("night stopped", metadata: ["night": "\(night)", "reason": "shutting down before filing"])
                ended("stopped", filed: 0)
                return false
            } catch {
                try? store.finish(night, outcome: "failed", detail: "\(error)", at: clock.now(), on: connection)
                throw error
            }
        } catch {
            logger.error("night failed", metadata: ["night": "\(night)", "error": "\(error)", "retry": "next tick"])
            ended("failed", filed: 0)
            return false
        }
    }

    private func ended(_ outcome: String, filed: Int) {
        lastEnd.set(Double(clock.now().microsecondsSince1970) / 1_000_000)
        lastSuccess.set(outcome == "succeeded" ? 1 : 0)
        lastFiled.set(Double(filed))
        runs[outcome]?.increment()
    }
}
