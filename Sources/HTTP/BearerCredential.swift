/// What a request's `Authorization` header holds, read the one way every authenticated route reads
/// it (RFC 6750's `Bearer <credential>`; the scheme in any case, blanks around the credential
/// dropped). The routes decide what a credential is and which error a missing one gets.
public enum BearerCredential: Sendable, Hashable {
    /// No `Authorization` header.
    case missing
    /// A header that is not `Bearer <credential>`.
    case malformed
    /// The credential as sent, without the blanks around it.
    case presented(String)

    public init(of request: HTTPRequest) {
        guard let header = request.header("Authorization") else {
            self = .missing
            return
        }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            self = .malformed
            return
        }
        self = .presented(String(parts[1]).trimmingSpacesAndTabs())
    }
}
