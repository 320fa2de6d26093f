import Foundation

/// What to do with a batch after the server's answer: a pure function of the status, so the policy
/// is tested without a network.
enum DeliveryDecision: Equatable {
    /// 200: the batch is done (its per-event rejections are in the body).
    case acknowledged
    /// 413, or a 400 that blames the body: send each half on its own; a single event is rejected.
    case split(code: String)
    /// Network error, 408, 429, 5xx: the same batch again later (Retry-After honoured).
    case retry
    /// 401, 403 (the key), 404, 405, 415 (the endpoint): sending cannot succeed until the app is
    /// reconfigured; delivery stops and the events stay in the journal.
    case stop

    static func classify(status: Int) -> DeliveryDecision {
        switch status {
        case 200..<300: return .acknowledged
        case 413: return .split(code: "payload_too_large")
        case 400, 422: return .split(code: "invalid_batch")
        case 401, 403, 404, 405, 415: return .stop
        case 408, 425, 429, 500...599: return .retry
        default: return .retry
        }
    }
}

/// Exponential backoff with full jitter (a uniform wait between 0 and base * 2^attempt, capped),
/// never shorter than the server's Retry-After.
struct Backoff: Sendable {
    var base: Double
    var cap: Double
    var maxRetryAfter: Double

    func delay(attempt: Int, retryAfter: Double?, unit: Double) -> Double {
        let ceiling = min(cap, base * Double(1 << min(attempt, 30)))
        let jittered = ceiling * min(max(unit, 0), 1)
        guard let retryAfter else { return jittered }
        return max(min(retryAfter, maxRetryAfter), jittered)
    }

    /// `Retry-After` as delta-seconds, or as an HTTP date relative to `now` (seconds since 1970).
    static func parseRetryAfter(_ value: String?, now: Double) -> Double? {
        guard let text = value?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        if let seconds = Double(text), seconds >= 0, seconds.isFinite { return seconds }
        return HTTPDate.parse(text).map { max(0, $0 - now) }
    }
}

/// IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), the form RFC 9110 requires senders to use.
enum HTTPDate {
    static func parse(_ text: String) -> Double? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[5] == "GMT", let day = Int(parts[1]), let year = Int(parts[3]) else { return nil }
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        guard let monthIndex = months.firstIndex(of: String(parts[2])) else { return nil }
        let clock = parts[4].split(separator: ":").compactMap { Int($0) }
        guard clock.count == 3 else { return nil }
        let m = monthIndex + 1
        let y = m <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146_097 + doe - 719_468
        return Double(days * 86400 + clock[0] * 3600 + clock[1] * 60 + clock[2])
    }
}
