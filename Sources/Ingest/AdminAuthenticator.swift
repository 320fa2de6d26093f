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
            return .failure(IngestError(.missingToken))
        case .malformed:
            return .failure(IngestError(.missingToken, message: "the Authorization header must be Bearer <token>"))
        case .presented(let credential):
            text = credential
        }
        if APIKey(parsing: text) != nil {
            return .failure(IngestError(.wrongKeyKind,
                                        message: "an app's write or read key cannot use the admin API; use an admin token"))
        }
        let unknown = IngestError(.unknownToken)
        guard AdminToken(parsing: text) != nil else { return .failure(unknown) }
        let grant: TokenGrant
        do {
            switch try tokens.verdict(for: text, from: request.clientAddress) {
            case .found(let found):
                grant = found
            case .unknown:
                return .failure(unknown)
            case .throttled(let wait):
                return .failure(.lookupsThrottled(code: .tokenLookupsThrottled, of: "admin tokens", retryAfter: wait))
            }
        } catch {
            return .failure(.failure(error, retryAfter: retryAfter))
        }
        if grant.revoked {
            return .failure(IngestError(.revokedToken))
        }
        return .success(grant)
    }
}
