import HTTP
import Storage

/// Finds the app of a request from its `Authorization: Bearer <key>` header.
struct Authenticator: Sendable {
    let keys: KeyCache
    let retryAfter: Int

    /// The grant of the request's key when it may act as `kind`; otherwise the whole-request error:
    /// 401 for a missing, malformed or unknown key or a key of the other kind, 403 for a revoked
    /// key, 503 when the database cannot be asked.
    func authenticate(_ request: HTTPRequest, as kind: KeyKind) -> Swift.Result<(key: String, grant: KeyGrant), IngestError> {
        guard let header = request.header("Authorization") else {
            return .failure(IngestError(status: 401, code: "missing_key",
                                        message: "send the API key as Authorization: Bearer <key>"))
        }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            return .failure(IngestError(status: 401, code: "missing_key",
                                        message: "the Authorization header must be Bearer <key>"))
        }
        let key = parts[1].trimmingSpaces
        let grant: KeyGrant
        do {
            switch try keys.verdict(for: key, from: request.clientAddress) {
            case .known(let found):
                grant = found
            case .unknown:
                return .failure(IngestError.unknownKey)
            case .throttled(let wait):
                return .failure(.lookupsThrottled(code: "key_lookups_throttled", of: "API keys", retryAfter: wait))
            }
        } catch {
            return .failure(.failure(error, retryAfter: retryAfter))
        }
        if grant.revoked {
            return .failure(IngestError(status: 403, code: "revoked_key", message: "the API key has been revoked"))
        }
        guard grant.kind == kind else {
            let message = kind == .write
                ? "a read key cannot send events; use the app's write key"
                : "a write key cannot read menus; use the app's read key"
            return .failure(IngestError(status: 401, code: "wrong_key_kind", message: message))
        }
        return .success((key, grant))
    }
}

extension Substring {
    /// The text without leading and trailing spaces and tabs.
    fileprivate var trimmingSpaces: String {
        var slice = self[...]
        while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice = slice.dropLast() }
        return String(slice)
    }
}
