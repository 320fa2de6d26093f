import CMicroHTTPD
import Synchronization

/// What libmicrohttpd's callbacks reach through their `cls` pointer: the handler, the limits, the
/// in-flight count, the body budget and the connection deadlines. Lives as long as the
/// ``HTTPServer`` that owns it, which stops the daemon before letting it go.
///
/// One request goes through these access-handler calls:
/// 1. The head is complete (first call, nothing of the body read yet): the framing is checked
///    (``RequestFraming``; a bad one is answered 400/501 and the connection closed), then, for a
///    request a trusted proxy forwarded, its client's requests in flight (429), then the
///    declared length against the cap (413), then the handler's ``HTTPHandler/admit(_:)`` (for
///    the API: the key), then the in-flight body budget (503). Every refusal here is decided
///    before any of the body is buffered.
///
/// Connections per address are counted here, not by libmicrohttpd (whose count cannot leave a
/// proxy out): a socket from an address that holds `connectionLimitPerAddress` already is refused
/// as it is accepted (libmicrohttpd's accept policy, before it takes a place under the connection
/// limit); a trusted proxy's connections are not counted, its clients' requests in flight are,
/// each under the address it forwarded (``TrustedProxies``).
/// 2. Body data: appended, or, when an answer is already decided, counted and dropped.
/// 3. The body is complete (a call with no data): the decided answer, or the handler's.
final class ServerCore: Sendable {
    let handler: any HTTPHandler
    let maxBodyBytes: Int
    /// How much of a refused request's body is read and dropped so the client can get its answer;
    /// past this the connection is closed without one.
    let drainLimit: Int
    let busyRetryAfter: Int
    let inFlight = InFlightRequests()
    let budget: BodyBudget
    let watchdog: ConnectionWatchdog
    /// Set when a graceful stop begins: responses then carry `Connection: close`.
    let stopping = Atomic<Bool>(false)
    let trustedProxies: TrustedProxies
    /// Connections per peer address; requests in flight per forwarded client address.
    let perAddress: AddressCounts
    /// Connections shut down as they opened, their address over its limit.
    let refusedConnections = Atomic<Int>(0)

    init(handler: any HTTPHandler, configuration: HTTPServer.Configuration) {
        self.handler = handler
        maxBodyBytes = configuration.maxBodyBytes
        drainLimit = configuration.drainLimit
        busyRetryAfter = configuration.busyRetryAfter
        budget = BodyBudget(capacity: configuration.maxInFlightBodyBytes)
        watchdog = ConnectionWatchdog(headerTimeout: configuration.headerTimeout,
                                      bodyTimeout: configuration.bodyTimeout, minBodyRate: configuration.minBodyRate,
                                      minBodyRateGrace: configuration.minBodyRateGrace)
        // Checked by `HTTPServer.start` (`Configuration.validate`) before any connection.
        trustedProxies = (try? TrustedProxies(configuration.trustedProxies)) ?? (try! TrustedProxies([]))
        perAddress = AddressCounts(limit: configuration.connectionLimitPerAddress)
    }

    // MARK: Connections

    /// Whether to take a socket just accepted from `address` (libmicrohttpd's accept policy, asked
    /// before it counts the connection, so a refused one never takes a place under
    /// `connectionLimit`): not when the address, unless a trusted proxy, holds its limit already.
    /// Accepting and ``connectionStarted(_:socketContext:)`` run on the one listening thread, one
    /// connection after the other, so the count it reads is the one that connection then takes.
    func accepts(_ address: UnsafePointer<sockaddr>?) -> Bool {
        var text = [CChar](repeating: 0, count: 64)
        guard menurank_sockaddr_text(address, &text, text.count) == 0 else { return true }
        let peer = String(cString: text)
        guard !trustedProxies.contains(peer), perAddress.held(by: peer) >= perAddress.limit else { return true }
        refusedConnections.add(1, ordering: .relaxed)
        return false
    }

    /// A connection opened: its deadlines start (see ``ConnectionWatchdog``), and it counts under
    /// its peer's address unless the peer is a trusted proxy; over the limit it is shut down at once.
    func connectionStarted(_ connection: OpaquePointer, socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>) {
        let entry = watchdog.register(descriptor: menurank_mhd_connection_fd(connection))
        socketContext.pointee = Unmanaged.passRetained(entry).toOpaque()
        var text = [CChar](repeating: 0, count: 64)
        entry.peer = menurank_mhd_client_address(connection, &text, text.count) == 0 ? String(cString: text) : ""
        guard !trustedProxies.contains(entry.peer) else { return }
        if perAddress.acquire(entry.peer) {
            entry.counted = entry.peer
        } else {
            refusedConnections.add(1, ordering: .relaxed)
            watchdog.refuse(entry)
        }
    }

    /// A connection is about to be closed (its socket is still open).
    func connectionClosed(socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>) {
        guard let raw = socketContext.pointee else { return }
        socketContext.pointee = nil
        let entry = Unmanaged<ConnectionWatchdog.Entry>.fromOpaque(raw).takeRetainedValue()
        if let counted = entry.counted { perAddress.release(counted) }
        watchdog.unregister(entry)
    }

    private func entry(of connection: OpaquePointer) -> ConnectionWatchdog.Entry? {
        guard let raw = menurank_mhd_socket_context(connection) else { return nil }
        return Unmanaged<ConnectionWatchdog.Entry>.fromOpaque(raw).takeUnretainedValue()
    }

    // MARK: Requests

    /// One access-handler call (see `MHD_AccessHandlerCallback`).
    func access(connection: OpaquePointer, url: UnsafePointer<CChar>, method: UnsafePointer<CChar>,
                version: UnsafePointer<CChar>?, uploadData: UnsafePointer<CChar>?,
                uploadDataSize: UnsafeMutablePointer<Int>,
                slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> MHD_Result {
        guard let existing = slot.pointee else {
            return begin(connection: connection, url: url, method: method,
                         version: version.map { String(cString: $0) } ?? "", slot: slot)
        }
        let context = Unmanaged<RequestContext>.fromOpaque(existing).takeUnretainedValue()
        let size = uploadDataSize.pointee
        if size > 0 {
            uploadDataSize.pointee = 0
            if let entry = entry(of: connection) { watchdog.received(entry, bytes: size) }
            return receive(context, uploadData, size)
        }
        if context.responded { return .YES }
        let entry = entry(of: connection)
        if let pending = context.pending {
            context.responded = true
            if let entry { watchdog.sending(entry) }
            return queue(pending, context: context, on: connection, closing: true)
        }
        if let entry { watchdog.handling(entry) }
        var request = makeRequest(connection, url: url, method: method, headers: Self.values(of: connection, kind: .HEADER_KIND),
                                  requestID: context.requestID, body: context.body)
        request.clientAddress = context.head?.clientAddress
        context.body = []
        let response = handler.handle(request)
        context.responded = true
        if let entry { watchdog.sending(entry) }
        return queue(response, context: context, on: connection)
    }

    /// The request-completed notification: gives back the request's budget, frees its context,
    /// and starts the wait for the connection's next request.
    func completed(connection: OpaquePointer?, slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>) {
        if let connection, let entry = entry(of: connection) { watchdog.awaitingRequest(entry) }
        guard let existing = slot.pointee else { return }
        slot.pointee = nil
        let context = Unmanaged<RequestContext>.fromOpaque(existing).takeRetainedValue()
        budget.release(context.reserved)
        context.reserved = 0
        if let counted = context.countedAddress { perAddress.release(counted) }
        context.countedAddress = nil
        inFlight.end()
    }

    /// The first call: the head is complete and nothing of the body has been read.
    private func begin(connection: OpaquePointer, url: UnsafePointer<CChar>, method: UnsafePointer<CChar>,
                       version: String, slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> MHD_Result {
        inFlight.begin()
        let context = RequestContext()
        slot.pointee = Unmanaged.passRetained(context).toOpaque()
        let entry = entry(of: connection)
        if let entry { watchdog.receivingBody(entry) }
        let headers = Self.values(of: connection, kind: .HEADER_KIND)
        context.requestID = headers[RequestID.headerName].flatMap { RequestID.isValid($0) ? $0 : nil } ?? RequestID.generate()
        var head = makeRequest(connection, url: url, method: method, headers: headers, requestID: context.requestID, body: [])
        let peer = entry?.peer ?? ""
        let forwarded = trustedProxies.contains(peer)
        head.clientAddress = forwarded ? trustedProxies.client(peer: peer, headers: headers) : peer
        context.head = head

        let framing = Self.headProblem(of: connection, method: method).map { Swift.Result<RequestFraming, RequestFraming.Problem>.failure($0) }
            ?? RequestFraming.of(version: version, headers: headers)
        switch framing {
        case .failure(let problem):
            // The body's extent is unknown: answer at once and close, never read on.
            context.responded = true
            let response = HTTPResponse.error(problem.code, message: problem.message)
            handler.serverAnswered(head, with: response, cause: "request framing: \(problem.message)")
            return queue(handler.amend(response, answering: head), context: context, on: connection, closing: true)
        case .success(let framing):
            context.framing = framing
        }
        if forwarded, let client = head.clientAddress {
            // A trusted proxy's connection: its client's requests in flight count, not the connection.
            guard perAddress.acquire(client) else {
                return refuse(context, serverAnswer(context, tooManyFromAddress(), cause: "requests in flight from \(client) over the limit"),
                              on: connection)
            }
            context.countedAddress = client
        }
        if case .length(let declared) = context.framing, declared > maxBodyBytes {
            return refuse(context, serverAnswer(context, tooLarge(), cause: "Content-Length \(declared) over the cap"),
                          on: connection)
        }
        if let refusal = handler.admit(head) {
            return refuse(context, refusal, on: connection)
        }
        if case .length(let declared) = context.framing {
            guard budget.reserve(declared) else {
                return refuse(context, serverAnswer(context, busy(), cause: "in-flight body budget exhausted"), on: connection)
            }
            context.reserved = declared
            context.body.reserveCapacity(declared)
        }
        return .YES
    }

    /// Body data of a request.
    private func receive(_ context: RequestContext, _ uploadData: UnsafePointer<CChar>?, _ size: Int) -> MHD_Result {
        if context.pending != nil {
            context.discarded += size
            // Past the drain allowance the client is not going to stop: close without an answer.
            return context.discarded > drainLimit ? .NO : .YES
        }
        if context.body.count + size > maxBodyBytes {
            // Only a chunked body gets here (a declared length over the cap is refused up front).
            return dropRest(context, serverAnswer(context, tooLarge(), cause: "chunked body over the cap"), size)
        }
        if case .chunked = context.framing {
            guard budget.reserve(size) else {
                return dropRest(context, serverAnswer(context, busy(), cause: "in-flight body budget exhausted"), size)
            }
            context.reserved += size
        }
        if let uploadData {
            uploadData.withMemoryRebound(to: UInt8.self, capacity: size) { bytes in
                context.body.append(contentsOf: UnsafeBufferPointer(start: bytes, count: size))
            }
        }
        return .YES
    }

    /// An answer decided in the middle of a body: the body so far is dropped, the rest is read and
    /// dropped (libmicrohttpd 0.9.75 refuses a response while a body is arriving), and `response`
    /// goes out when it ends.
    private func dropRest(_ context: RequestContext, _ response: HTTPResponse, _ size: Int) -> MHD_Result {
        context.pending = response
        context.body = []
        context.discarded = size
        return context.discarded > drainLimit ? .NO : .YES
    }

    /// Refuses a request from its head, before any of its body is buffered. Without a body the
    /// answer goes out now and the connection stays usable. A body of up to `drainLimit` bytes
    /// (or a chunked one) is read and dropped first, so a client that sends all before reading
    /// still gets the answer; a longer one is not read: the answer goes out now and the
    /// connection is closed.
    private func refuse(_ context: RequestContext, _ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
        switch context.framing {
        case .empty:
            context.responded = true
            if let entry = entry(of: connection) { watchdog.sending(entry) }
            return queue(response, context: context, on: connection)
        case .chunked:
            context.pending = response
            return .YES
        case .length(let declared) where declared <= drainLimit:
            context.pending = response
            return .YES
        case .length:
            context.responded = true
            if let entry = entry(of: connection) { watchdog.sending(entry) }
            return queue(response, context: context, on: connection, closing: true)
        }
    }

    /// Tells the handler of an answer the server decided, and returns it.
    private func serverAnswer(_ context: RequestContext, _ response: HTTPResponse, cause: String) -> HTTPResponse {
        guard let head = context.head else { return response }
        handler.serverAnswered(head, with: response, cause: cause)
        return handler.amend(response, answering: head)
    }

    private func tooLarge() -> HTTPResponse {
        .error(.payloadTooLarge, message: "request body exceeds \(maxBodyBytes) bytes")
    }

    private func tooManyFromAddress() -> HTTPResponse {
        .error(.tooManyConnections,
               message: "more than \(perAddress.limit) requests at once from this address; retry after \(busyRetryAfter) s",
               headers: ["Retry-After": String(busyRetryAfter)])
    }

    private func busy() -> HTTPResponse {
        .error(.serverBusy,
               message: "too many request bodies in flight; retry after \(busyRetryAfter) s",
               headers: ["Retry-After": String(busyRetryAfter)])
    }

    private func makeRequest(_ connection: OpaquePointer, url: UnsafePointer<CChar>, method: UnsafePointer<CChar>,
                             headers: HTTPHeaders, requestID: String, body: [UInt8]) -> HTTPRequest {
        let arguments = Self.values(of: connection, kind: .GET_ARGUMENT_KIND)
        let query = arguments.fields.map { field in
            (name: PercentDecoding.decode(field.name, plusIsSpace: true) ?? field.name,
             value: PercentDecoding.decode(field.value, plusIsSpace: true) ?? field.value)
        }
        return HTTPRequest(method: String(cString: method), path: String(cString: url), queryParameters: query,
                           headers: headers, body: body, requestID: requestID)
    }

    /// Queues `response`; when it cannot be sent as given (bad status, bad header, MHD refused
    /// it) a 500 goes out instead, and .NO (close the connection) only if even that fails.
    private func queue(_ response: HTTPResponse, context: RequestContext, on connection: OpaquePointer,
                       closing: Bool = false) -> MHD_Result {
        let requestID = context.requestID
        if let result = tryQueue(response, requestID: requestID, on: connection, closing: closing) {
            return result
        }
        let fallback = serverAnswer(context, HTTPResponse.error(.internalError,
                                                                message: "internal server error (request \(requestID))"),
                                    cause: "a \(response.status) response could not be queued (a bad status or header)")
        return tryQueue(fallback, requestID: requestID, on: connection, closing: closing) ?? .NO
    }

    /// nil when the response could not be built; otherwise MHD_queue_response's answer.
    private func tryQueue(_ response: HTTPResponse, requestID: String, on connection: OpaquePointer,
                          closing: Bool) -> MHD_Result? {
        guard (100...999).contains(response.status) else { return nil }
        let created = response.body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress),
                                            .RESPMEM_MUST_COPY)
        }
        guard let mhdResponse = created else { return nil }
        defer { MHD_destroy_response(mhdResponse) }
        var sawRequestID = false
        for field in response.headers {
            if HTTPHeaders.namesMatch(field.name, "Content-Length") || HTTPHeaders.namesMatch(field.name, "Transfer-Encoding") {
                continue
            }
            guard Self.isToken(field.name), Self.isFieldValue(field.value),
                  MHD_add_response_header(mhdResponse, field.name, field.value) == .YES
            else { return nil }
            if HTTPHeaders.namesMatch(field.name, RequestID.headerName) { sawRequestID = true }
        }
        if !sawRequestID {
            guard MHD_add_response_header(mhdResponse, RequestID.headerName, requestID) == .YES else { return nil }
        }
        if closing || stopping.load(ordering: .relaxed), !response.headers.contains("Connection") {
            guard MHD_add_response_header(mhdResponse, "Connection", "close") == .YES else { return nil }
        }
        let result = MHD_queue_response(connection, UInt32(response.status), mhdResponse)
        return result
    }

    /// Collects the values of one kind (headers, query arguments) in order.
    static func values(of connection: OpaquePointer, kind: MHD_ValueKind) -> HTTPHeaders {
        var collected = HTTPHeaders()
        withUnsafeMutablePointer(to: &collected) { pointer in
            _ = MHD_get_connection_values_n(connection, kind, { cls, _, key, keySize, value, valueSize in
                guard let cls, let key else { return .YES }
                let name = String(decoding: UnsafeRawBufferPointer(start: key, count: keySize), as: UTF8.self)
                let text = value.map {
                    String(decoding: UnsafeRawBufferPointer(start: $0, count: valueSize), as: UTF8.self)
                } ?? ""
                cls.assumingMemoryBound(to: HTTPHeaders.self).pointee.add(name, text)
                return .YES
            }, pointer)
        }
        return collected
    }

    /// What the head as libmicrohttpd left it in the read buffer shows that its header values do
    /// not (``HeadLayout``): a NUL that cut a value short, or a folded field. Nil when the head is
    /// clean or the library does not give its size.
    static func headProblem(of connection: OpaquePointer, method: UnsafePointer<CChar>) -> RequestFraming.Problem? {
        let size = menurank_mhd_request_head_size(connection)
        guard size > 0 else { return nil }
        var collected = (start: Int(bitPattern: method), fields: [HeadLayout.Field]())
        withUnsafeMutablePointer(to: &collected) { pointer in
            _ = MHD_get_connection_values_n(connection, .HEADER_KIND, { cls, _, key, keySize, value, valueSize in
                guard let cls, let key else { return .YES }
                let collected = cls.assumingMemoryBound(to: (start: Int, fields: [HeadLayout.Field]).self)
                let start = collected.pointee.start
                // (The library gives an empty value as an empty string at the end of its line; were it
                // ever none, the value would start right after the name's colon.)
                let valueOffset = value.map { Int(bitPattern: $0) - start } ?? (Int(bitPattern: key) - start + keySize + 1)
                collected.pointee.fields.append(HeadLayout.Field(name: Int(bitPattern: key) - start,
                                                                 value: valueOffset, valueLength: valueSize))
                return .YES
            }, pointer)
        }
        let head = UnsafeRawBufferPointer(start: UnsafeRawPointer(method), count: size)
        switch HeadLayout.problem(head: head, fields: collected.fields) {
        case nil:
            return nil
        case .hiddenBytes(let index):
            return RequestFraming.Problem(.invalidHeader,
                                          message: "a header value holds a NUL (field \(index + 1) of the head)")
        case .folded(let index):
            return RequestFraming.Problem(.invalidHeader,
                                          message: "a header field is folded over several lines (field \(index + 1) of the head)")
        }
    }

    /// An RFC 9110 token (header field name).
    private static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { byte in
            switch byte {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
            case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
                 UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
                 UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"): true
            default: false
            }
        }
    }

    /// A header value without control characters other than tab.
    private static func isFieldValue(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }
    }
}
