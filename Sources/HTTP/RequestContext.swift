/// The state of one request between libmicrohttpd's access-handler calls, kept in its `con_cls`
/// slot as a retained `Unmanaged` reference and released in the request-completed callback.
final class RequestContext {
    /// The body received so far (never more than the server's cap).
    var body: [UInt8] = []
    /// The body went over the cap: further upload data is dropped and the answer is 413.
    var overLimit = false
    /// Bytes of an over-limit body read and dropped so far.
    var discarded = 0
    /// A response has been queued; later calls for this request do nothing.
    var responded = false
}
