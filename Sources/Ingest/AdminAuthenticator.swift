import HTTP
import Hashing
import Storage

/// Finds the reviewer of an admin API request from its `Authorization: Bearer <token>` header.
/// Tokens are looked up on every request (no cache of grants): the admin API is low-volume, and a
/// revoked token stops working at once. A value without a token's shape costs no lookup, and the
/// lookups of tokens never seen to exist are bounded (`AdminTokenGate`).
struct AdminAuthenticator: Sendable {
    let tokens: AdminTokenGate
    let retryAfter: Int

    /// The grant of the request's admin token; otherwise the whole-request error: 401 for a
    /// missing, malformed or unknown token and for an app's write or read key (never valid here),
    /// 403 for a revoked token, 503 when the database cannot be asked or too many unknown tokens
    /// were tried lately (`token_lookups_throttled`, with `Retry-After`).
    func authenticate(_ request: HTTPRequest) -> Swift.Result<TokenGrant, IngestError> {
        let text: String
        switch BearerCredential(of: request) {
        case .missing:
            return .failure(IngestError(status: 401, code: "missing_token",
                                        message: "send an admin token as Authorization: Bearer <token> (menurank tokens create NAME)"))
        case .malformed:
            return .failure(IngestError(status: 401, code: "missing_token",
                                        message: "the Authorization header must be Bearer <token>"))
        case .presented(let credential):
            text = credential
        }
        if APIKey(parsing: text) != nil {
            return .failure(IngestError(status: 401, code: "wrong_key_kind",
                                        message: "an app's write or read key cannot use the admin API; use an admin token"))
        }
        let unknown = IngestError(status: 401, code: "unknown_token", message: "the admin token is not known")
        guard AdminToken(parsing: text) != nil else { return .failure(unknown) }
        let grant: TokenGrant
        do {
            switch try tokens.verdict(for: text) {
            case .found(let found):
                grant = found
            case .unknown:
                return .failure(unknown)
            case .throttled(let wait):
                return .failure(.lookupsThrottled(code: "token_lookups_throttled", of: "admin tokens", retryAfter: wait))
            }
        } catch {
            return .failure(.failure(error, retryAfter: retryAfter))
        }
        if grant.revoked {
            return .failure(IngestError(status: 403, code: "revoked_token", message: "the admin token has been revoked"))
        }
        return .success(grant)
    }
}
