/// The state of one request between libmicrohttpd's access-handler calls, kept in its `con_cls`
/// slot as a retained `Unmanaged` reference and released in the request-completed callback.
final class RequestContext {
    /// The body received so far (never more than the server's cap).
    var body: [UInt8] = []
    /// How the head said the body is delimited.
    var framing: RequestFraming = .empty
    /// Bytes of the in-flight body budget held by this request (given back when it completes).
    var reserved = 0
    /// An answer decided before the body ended (refused from its head, over the cap, over the
    /// budget): the rest of the body is read and dropped, and this is sent, with
    /// `Connection: close`, when the body ends.
    var pending: HTTPResponse?
    /// Bytes of the body read and dropped so far while an answer is pending.
    var discarded = 0
    /// A response has been queued; later calls for this request do nothing.
    var responded = false
    /// The request id of the answer (the client's valid `X-Request-Id`, else a fresh one).
    var requestID = ""
    /// The request's head (no body), for telling the handler of answers the server decides.
    var head: HTTPRequest?
    /// The forwarded client address this request counts under (a trusted proxy's request), given
    /// back when it completes.
    var countedAddress: String?
}
