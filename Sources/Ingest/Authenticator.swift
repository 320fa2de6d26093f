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
            return .failure(IngestError(.missingKey))
        case .malformed:
            return .failure(IngestError(.missingKey, message: "the Authorization header must be Bearer <key>"))
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
                return .failure(.lookupsThrottled(code: .keyLookupsThrottled, of: "API keys", retryAfter: wait))
            }
        } catch {
            return .failure(.failure(error, retryAfter: retryAfter))
        }
        if grant.revoked {
            return .failure(IngestError(.revokedKey))
        }
        guard grant.kind == kind else {
            let message = kind == .write
                ? "a read key cannot send events; use the app's write key"
                : "a write key cannot read menus; use the app's read key"
            return .failure(IngestError(.wrongKeyKind, message: message))
        }
        return .success((key, grant))
    }
}
