import CCurl

/// One attempt to POST a webhook body, through libcurl, under one deadline that covers the whole
/// exchange: name lookup, connect, TLS, sending, the answer's headers and its body. A receiver that
/// accepts the connection and never answers, or trickles its answer a byte at a time, costs at
/// most `deadline` (issue 32: URLSession's timeout was an idle timeout, which a trickle resets).
///
/// Redirects are never followed (a 3xx comes back as the answer), only http and https are spoken,
/// and the answer's body is read and dropped. `post` blocks its thread: async callers run it on
/// a thread of their own.
public struct WebhookPoster: Sendable {
    /// What one attempt came to.
    public enum Outcome: Sendable, Equatable {
        /// The receiver answered with this status (any status: the caller decides).
        case answered(status: Int, location: String?)
        /// No answer: no connection, a broken one, or the deadline passed.
        case failed(String)
    }

    public var deadline: Duration
    public var userAgent: String

    public init(deadline: Duration, userAgent: String) {
        self.deadline = deadline
        self.userAgent = userAgent
    }

    /// libcurl's global state, set up once before the first handle (not thread-safe itself).
    private static let ready: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

    public func post(url: String, body: [UInt8], headers: [(name: String, value: String)]) -> Outcome {
        guard Self.ready, let handle = curl_easy_init() else { return .failed("libcurl could not start") }
        defer { curl_easy_cleanup(handle) }
        var list: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(list) }
        // No "Expect: 100-continue" wait before the body.
        for line in headers.map({ "\($0.name): \($0.value)" }) + ["Expect:"] {
            list = curl_slist_append(list, line)
        }
        let errors = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        defer { errors.deallocate() }
        errors.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        let (seconds, attoseconds) = deadline.components
        let milliseconds = max(1, Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000))

        let code: CURLcode = url.withCString { urlText in
            userAgent.withCString { agent in
                body.withUnsafeBufferPointer { bytes in
                    _ = menurank_curl_setopt_pointer(handle, CURLOPT_URL, urlText)
                    _ = menurank_curl_setopt_pointer(handle, CURLOPT_PROTOCOLS_STR, "http,https")
                    _ = menurank_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0)
                    _ = menurank_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
                    _ = menurank_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, milliseconds)
                    _ = menurank_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, milliseconds)
                    _ = menurank_curl_setopt_pointer(handle, CURLOPT_USERAGENT, agent)
                    _ = menurank_curl_setopt_pointer(handle, CURLOPT_HTTPHEADER, list)
                    _ = menurank_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errors)
                    _ = menurank_curl_setopt_long(handle, CURLOPT_POST, 1)
                    _ = menurank_curl_setopt_off(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(bytes.count))
                    _ = menurank_curl_setopt_pointer(handle, CURLOPT_POSTFIELDS, bytes.baseAddress)
                    _ = menurank_curl_setopt_write(handle) { _, size, count, _ in size * count }
                    return curl_easy_perform(handle)
                }
            }
        }
        guard code == CURLE_OK else {
            if code == CURLE_OPERATION_TIMEDOUT {
                return .failed("no complete answer within \(DeadlineText.seconds(deadline)) (the deadline of an attempt)")
            }
            let detail = String(cString: errors)
            return .failed(detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail)
        }
        var status = 0
        _ = menurank_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        var location: UnsafeMutablePointer<CChar>?
        _ = menurank_curl_getinfo_string(handle, CURLINFO_REDIRECT_URL, &location)
        return .answered(status: status, location: location.map { String(cString: $0) })
    }
}

/// A deadline as people read it: `10 s`, `0.5 s`.
enum DeadlineText {
    static func seconds(_ span: Duration) -> String {
        let (seconds, attoseconds) = span.components
        let value = Double(seconds) + Double(attoseconds) / 1e18
        return value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}
