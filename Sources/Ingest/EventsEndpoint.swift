import CivilTime
import Events
import Foundation
import HTTP
import Storage

/// `POST /v1/events`: authenticate, limit, decompress, decode, check times, resolve names, store
/// (waiting for the commit), answer with accepted / duplicates / rejected.
struct EventsEndpoint: Sendable {
    let authenticator: Authenticator
    let limiter: RateLimiter
    let decoder: EventBatchDecoder
    let policy: EventPolicy
    let preparer: EventPreparer
    let writer: EventWriter
    let maxBodyBytes: Int
    let retryAfter: Int
    let metrics: IngestMetrics
    /// The receive time of a request, and the reply's `server_time`.
    let clock: WallClock

    /// Judges the request from its head, before its body is read: the key (401/403/503), the
    /// page's origin when it sends one (403, ``CrossOrigin``), the key's rate (429) and the
    /// content type (415). Nil admits it.
    func admit(_ head: HTTPRequest) -> RequestOutcome? {
        let key: String
        let grant: KeyGrant
        switch authenticator.authenticate(head, as: .write) {
        case .success(let found): (key, grant) = found
        case .failure(let error): return RequestOutcome(error)
        }
        var refusal: RequestOutcome
        if let error = CrossOrigin.refusal(head, grant: grant) {
            refusal = RequestOutcome(error)
        } else if let wait = limiter.admit(key: key) {
            refusal = RequestOutcome(IngestError(.rateLimited,
                                                 message: "more than \(Self.format(limiter.rate)) requests per second for this key; retry after \(wait) s",
                                                 retryAfter: wait))
        } else if let error = Self.checkContentType(head) {
            refusal = RequestOutcome(error)
        } else {
            return nil
        }
        refusal.grant(grant)
        return refusal
    }

    /// The admitted request with its body (``admit(_:)`` has passed it).
    func handle(_ request: HTTPRequest) -> RequestOutcome {
        let grant: KeyGrant
        switch authenticator.authenticate(request, as: .write) {
        case .success(let found): grant = found.grant
        case .failure(let error): return RequestOutcome(error)
        }
        var outcome = process(request, grant: grant)
        outcome.grant(grant)
        return outcome
    }

    private func process(_ request: HTTPRequest, grant: KeyGrant) -> RequestOutcome {
        let body: [UInt8]
        switch decodeContent(request) {
        case .success(let bytes): body = bytes
        case .failure(let error): return RequestOutcome(error)
        }
        let receivedAt = clock.now()
        var batch: EventBatch
        do {
            batch = try decoder.decode(body)
        } catch {
            return RequestOutcome(IngestError(APIErrorCode(error.kind), message: error.message, body: error.jsonBytes()))
        }
        batch = policy.apply(to: batch, receivedAt: receivedAt)
        metrics.batchSize.observe(Double(batch.totalCount))

        var rejections = batch.rejections
        var counts = WriteCounts()
        if !batch.events.isEmpty {
            do {
                let prepared = try preparer.prepare(batch.events, appID: grant.appID, hashSecret: grant.hashSecret)
                if !prepared.rejections.isEmpty { rejections = Self.merge(rejections, prepared.rejections) }
                counts = try writer.write(prepared.rows)
            } catch where error.kind == .notFound {
                // `apps delete` committed after the key was looked up: the key is gone with the app,
                // and nothing of the batch was stored (the write checks the app in its transaction).
                var outcome = RequestOutcome(IngestError.unknownKey)
                outcome.events = batch.totalCount
                return outcome
            } catch {
                var outcome = RequestOutcome(IngestError.failure(error, retryAfter: retryAfter))
                outcome.events = batch.totalCount
                return outcome
            }
        }
        metrics.accepted.increment(by: counts.accepted)
        metrics.duplicates.increment(by: counts.duplicates)
        for rejection in rejections { metrics.rejected(code: rejection.code.rawValue).increment() }

        let reply = IngestResponse(accepted: counts.accepted, duplicates: counts.duplicates, rejected: rejections,
                                   serverTime: clock.now().microsecondsSince1970)
        var outcome = RequestOutcome(HTTPResponse(status: 200, headers: ["Content-Type": "application/json"],
                                                  body: reply.jsonBytes()))
        outcome.events = batch.totalCount
        outcome.accepted = counts.accepted
        outcome.duplicates = counts.duplicates
        outcome.rejected = rejections.count
        return outcome
    }

    /// 415 unless the body is declared `application/json` (parameters such as charset allowed).
    static func checkContentType(_ request: HTTPRequest) -> IngestError? {
        let declared = request.header("Content-Type") ?? ""
        let mediaType = declared.split(separator: ";", maxSplits: 1).first.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        } ?? ""
        guard mediaType == "application/json" else {
            return IngestError(.unsupportedMediaType,
                               message: declared.isEmpty
                                        ? "Content-Type must be application/json"
                                        : "Content-Type must be application/json, not \(declared.prefix(100))")
        }
        return nil
    }

    /// The body, inflated when `Content-Encoding: gzip`; 415 for another encoding, 413 when the
    /// inflated body passes the limit (inflation stops there), 400 for corrupt gzip data.
    func decodeContent(_ request: HTTPRequest) -> Swift.Result<[UInt8], IngestError> {
        let encoding = (request.header("Content-Encoding") ?? "").trimmingCharacters(in: .whitespaces).lowercased()
        switch encoding {
        case "", "identity":
            return .success(request.body)
        case "gzip", "x-gzip":
            do {
                return .success(try Gzip.inflate(request.body, limit: maxBodyBytes))
            } catch {
                if error.kind == .tooLarge {
                    return .failure(IngestError(.payloadTooLarge,
                                                message: "the decompressed body is larger than \(maxBodyBytes) bytes"))
                }
                return .failure(IngestError(.invalidGzip, message: "the body is not valid gzip data: \(error.message)"))
            }
        default:
            return .failure(IngestError(.unsupportedContentEncoding,
                                        message: "Content-Encoding must be gzip or absent, not \(encoding.prefix(100))"))
        }
    }

    /// Two index-ordered lists of rejections as one.
    static func merge(_ a: [EventRejection], _ b: [EventRejection]) -> [EventRejection] {
        (a + b).sorted { $0.index < $1.index }
    }

    static func format(_ rate: Double) -> String {
        rate == rate.rounded() ? String(Int(rate)) : String(rate)
    }
}
