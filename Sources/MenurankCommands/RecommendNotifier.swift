import ArgumentParsing
import CivilTime
import Foundation
import JSON
import Nightly
import Postgres
import Reports
import Storage
import Webhooks

/// `recommend --notify-url URL`: posts each proposal that the run newly filed to a webhook, one
/// request per proposal, so a team can route it to chat or open a pull request from it. The body:
///
/// ```json
/// {"event": "proposal.filed", "app": "mail", "element_type": "mail.message", "proposal_id": 12,
///  "superseded": [9], "window": {"from": "2026-11-02", "to": "2026-11-29"}, "changed_items": 5,
///  "markdown": "### mail.message ...", "proposal": {...the evidence...}}
/// ```
///
/// Each attempt has one deadline for the whole exchange (`deadline`, 10 s by default: connect,
/// headers and body; `WebhookPoster`), redirects are not followed (a 3xx is a failure, logged, not
/// retried), and a network error, a passed deadline or a 5xx is retried twice (after 1 s and 2 s);
/// a 2xx is success. With a secret every attempt is signed (`Menurank-Signature`, over its own
/// timestamp and the exact body bytes: `WebhookSignature`).
struct RecommendNotifier: Sendable {
    let url: URL
    var secret: [UInt8]?
    var deadline: Duration = .seconds(10)
    var attempts = 3
    /// Told of every attempt that failed, with why (`recommend` prints it to standard error).
    var log: @Sendable (String) -> Void = { _ in }
    /// Where "now" comes from: the timestamp each attempt's signature covers.
    var clock: WallClock = .system

    /// An http or https URL with a host; nil otherwise.
    static func parse(_ text: String) -> URL? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host, !host.isEmpty
        else { return nil }
        return url
    }

    /// The webhook bodies of a run's newly filed proposals (not those already pending or rejected).
    static func bodies(for run: NightlyAppRun) -> [(proposalID: Int64, body: String)] {
        let titles = run.commands.mapValues(\.title)
        var out: [(Int64, String)] = []
        for document in run.report.elementTypes {
            guard case let .filed(id, superseded)? = run.filings[document.elementType] else { continue }
            let body: JSONValue = .object([
                ("event", .string("proposal.filed")),
                ("app", .string(run.report.app)),
                ("element_type", .string(document.elementType)),
                ("proposal_id", .number(JSONNumber(Int(id)))),
                ("superseded", .array(superseded.map { .number(JSONNumber(Int($0))) })),
                ("window", .object([("from", .string(run.report.from)), ("to", .string(run.report.to))])),
                ("changed_items", .number(JSONNumber(document.changedItemCount))),
                ("markdown", .string(MarkdownReportRenderer(titles: titles).render(document))),
                ("proposal", document.jsonValue),
            ])
            out.append((id, body.jsonText))
        }
        return out.sorted { $0.0 < $1.0 }
    }

    /// Posts every body; returns the proposal ids whose delivery failed, with why.
    func deliver(_ bodies: [(proposalID: Int64, body: String)]) async -> [(Int64, String)] {
        var failed: [(Int64, String)] = []
        for (id, body) in bodies {
            if let failure = await post(body, proposalID: id) { failed.append((id, failure)) }
        }
        return failed
    }

    /// One delivery with its retries; nil on success, else the last failure.
    private func post(_ text: String, proposalID: Int64) async -> String? {
        let poster = WebhookPoster(deadline: deadline, userAgent: "menurank/\(Menurank.version)")
        let body = Array(text.utf8)
        let target = url.absoluteString
        var failure = ""
        for attempt in 0..<attempts {
            if attempt > 0 { try? await Task.sleep(for: .seconds(attempt)) }
            var headers: [(name: String, value: String)] = [("Content-Type", "application/json")]
            if let secret {
                let seconds = clock.now().microsecondsSince1970 / 1_000_000
                let signature = WebhookSignature(body: body, secret: secret, timestamp: seconds)
                headers.append((WebhookSignature.headerName, signature.headerValue))
            }
            let signed = headers
            let outcome = (try? await BlockingThread.run { poster.post(url: target, body: body, headers: signed) })
                ?? .failed("no thread for the delivery")
            var retry = true
            switch outcome {
            case .answered(let status, _) where (200..<300).contains(status):
                return nil
            case .answered(let status, let location) where (300..<400).contains(status):
                failure = "HTTP \(status), a redirect" + (location.map { " to \($0)" } ?? "") + ", not followed"
                retry = false
            case .answered(let status, _):
                failure = "HTTP \(status)"
                retry = status >= 500  // a 4xx: the receiver refused it, and a retry would not help
            case .failed(let why):
                failure = why
            }
            log("--notify-url: proposal #\(proposalID), attempt \(attempt + 1) of \(attempts): \(failure)"
                + (retry && attempt + 1 < attempts ? "; retrying" : ""))
            if !retry { return failure }
        }
        return failure
    }
}
