import ArgumentParsing
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import JSON
import Reports
import Storage

/// `recommend --notify-url URL`: posts each proposal that the run newly filed to a webhook, one
/// request per proposal, so a team can route it to chat or open a pull request from it. The body:
///
/// ```json
/// {"event": "proposal.filed", "app": "mail", "element_type": "mail.message", "proposal_id": 12,
///  "superseded": [9], "window": {"from": "2026-11-02", "to": "2026-11-29"}, "changed_items": 5,
///  "markdown": "### mail.message ...", "proposal": {...the evidence...}}
/// ```
///
/// A delivery is retried twice (after 1 s and 2 s) on a network error or a 5xx; a 2xx is success.
struct RecommendNotifier: Sendable {
    let url: URL
    var timeout: TimeInterval = 10
    var attempts = 3

    /// An http or https URL with a host; nil otherwise.
    static func parse(_ text: String) -> URL? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host, !host.isEmpty
        else { return nil }
        return url
    }

    /// The webhook bodies of a run's newly filed proposals (not those already pending or rejected).
    static func bodies(for run: PipelineRecommendation.AppRun) -> [(proposalID: Int64, body: String)] {
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
            if let failure = await post(body) { failed.append((id, failure)) }
        }
        return failed
    }

    /// One delivery with its retries; nil on success, else the last failure.
    private func post(_ body: String) async -> String? {
        var failure = ""
        for attempt in 0..<attempts {
            if attempt > 0 { try? await Task.sleep(for: .seconds(attempt)) }
            var request = URLRequest(url: url, timeoutInterval: timeout)
            request.httpMethod = "POST"
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.setValue("menurank/\(Menurank.version)", forHTTPHeaderField: "User-Agent")
            request.httpBody = Data(body.utf8)
            do {
                let status = try await Self.send(request)
                if (200..<300).contains(status) { return nil }
                failure = "HTTP \(status)"
                if status < 500 { return failure }  // the receiver refused it: a retry would not help
            } catch {
                failure = error.localizedDescription
            }
        }
        return failure
    }

    private static func send(_ request: URLRequest) async throws -> Int {
        try await withCheckedThrowingContinuation { continuation in
            URLSession.shared.dataTask(with: request) { _, response, error in
                if let error {
                    continuation.resume(throwing: error)
                } else {
                    continuation.resume(returning: (response as? HTTPURLResponse)?.statusCode ?? 0)
                }
            }.resume()
        }
    }
}
