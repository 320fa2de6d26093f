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
        let key: String
        switch BearerCredential(of: request) {
        case .missing:
            return .failure(IngestError(status: 401, code: "missing_key",
                                        message: "send the API key as Authorization: Bearer <key>"))
        case .malformed:
            return .failure(IngestError(status: 401, code: "missing_key",
                                        message: "the Authorization header must be Bearer <key>"))
        case .presented(let credential):
            key = credential
        }
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
