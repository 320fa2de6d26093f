/// How a request's body is delimited, decided from its head alone, or why the head is refused.
///
/// RFC 9112 §6.3 lets a server that sees ambiguous framing only reject it and close the
/// connection: a proxy in front of it may have read the same bytes differently, and whatever it
/// took for a second request must not be served ("request smuggling"). So any of these is refused
/// before a byte of the body is read, and the connection is closed after the answer:
///
/// - `Content-Length` together with `Transfer-Encoding` (400);
/// - more than one `Content-Length` field, or a list of values in one (400), or one that is not
///   plain digits (400);
/// - a `Transfer-Encoding` other than exactly `chunked`, stacked codings (`gzip, chunked`) or the
///   field given twice (501: the server implements no other coding);
/// - an HTTP/1.1 request without exactly one `Host` (400, RFC 9112 §3.2);
/// - a control character (NUL, CR, LF, ...) other than tab in any header value (400). A NUL never
///   reaches this type (libmicrohttpd cuts the value there): ``HeadLayout`` finds it in the head.
///
/// Pure: it sees the version and the header fields as received, nothing else.
public enum RequestFraming: Sendable, Equatable {
    /// No body (no `Content-Length`, or `Content-Length: 0`).
    case empty
    /// A body of exactly this many bytes.
    case length(Int)
    /// A chunked body of unknown length.
    case chunked

    /// A head that cannot be served: the code (with its status) and a message for the client.
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        public let code: APIErrorCode
        public let message: String
        public var status: Int { code.status }

        init(_ code: APIErrorCode, message: String? = nil) {
            self.code = code
            self.message = message ?? code.defaultMessage
        }

        public var description: String { "\(status) \(code): \(message)" }
    }

    /// The framing of a request with `version` (`HTTP/1.1`) and `headers`, or the problem with it.
    /// A `Content-Length` too large for an `Int` reads as `Int.max` (it is over any cap anyway).
    public static func of(version: String, headers: HTTPHeaders) -> Swift.Result<RequestFraming, Problem> {
        for field in headers where !isCleanValue(field.value) {
            return .failure(Problem(.invalidHeader,
                                    message: "the value of header \(field.name.prefix(64)) holds a control character"))
        }
        let lengths = headers.values(for: "Content-Length")
        let codings = headers.values(for: "Transfer-Encoding")
        if version == "HTTP/1.1" {
            let hosts = headers.values(for: "Host")
            guard hosts.count == 1 else {
                return .failure(Problem(.invalidHost,
                                        message: hosts.isEmpty ? "an HTTP/1.1 request needs a Host header"
                                                 : "a request may carry only one Host header"))
            }
        }
        if !lengths.isEmpty, !codings.isEmpty {
            return .failure(Problem(.ambiguousFraming,
                                    message: "a request may not carry both Content-Length and Transfer-Encoding"))
        }
        if !codings.isEmpty {
            guard codings.count == 1, codings[0].trimmingSpacesAndTabs().lowercased() == "chunked" else {
                return .failure(Problem(.unsupportedTransferEncoding))
            }
            return .success(.chunked)
        }
        guard let text = lengths.first else { return .success(.empty) }
        guard lengths.count == 1 else {
            return .failure(Problem(.ambiguousFraming, message: "a request may carry only one Content-Length"))
        }
        let digits = text.trimmingSpacesAndTabs()
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            return .failure(Problem(.invalidContentLength))
        }
        let length = Int(digits) ?? Int.max
        return .success(length == 0 ? .empty : .length(length))
    }

    /// No control character but tab (so no NUL, CR or LF), and no DEL.
    static func isCleanValue(_ value: String) -> Bool {
        value.utf8.allSatisfy { $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }
    }
}
