import CMicroHTTPD
import Synchronization

/// What libmicrohttpd's callbacks reach through their `cls` pointer: the handler, the body cap,
/// the in-flight count. Lives as long as the ``HTTPServer`` that owns it, which stops the daemon
/// before letting it go.
final class ServerCore: Sendable {
    let handler: any HTTPHandler
    let maxBodyBytes: Int
    /// How much of a too-large chunked body is read and dropped while waiting for its end so the
    /// client can get its 413; past this the connection is closed without an answer.
    let discardLimit: Int
    let inFlight = InFlightRequests()
    /// Set when a graceful stop begins: responses then carry `Connection: close`.
    let stopping = Atomic<Bool>(false)

    init(handler: any HTTPHandler, maxBodyBytes: Int) {
        self.handler = handler
        self.maxBodyBytes = maxBodyBytes
        let (fourTimes, overflow) = maxBodyBytes.multipliedReportingOverflow(by: 4)
        discardLimit = overflow ? Int.max : max(fourTimes, 1 << 20)
    }

    /// One access-handler call (see `MHD_AccessHandlerCallback`).
    func access(connection: OpaquePointer, url: UnsafePointer<CChar>, method: UnsafePointer<CChar>,
                uploadData: UnsafePointer<CChar>?, uploadDataSize: UnsafeMutablePointer<Int>,
                slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> MHD_Result {
        guard let existing = slot.pointee else {
            // First call: headers are in, no body yet.
            inFlight.begin()
            let context = RequestContext()
            slot.pointee = Unmanaged.passRetained(context).toOpaque()
            if let declared = contentLength(connection) {
                if declared > maxBodyBytes {
                    context.overLimit = true
                    return respondTooLarge(connection, context)
                }
                context.body.reserveCapacity(declared)
            }
            return .YES
        }
        let context = Unmanaged<RequestContext>.fromOpaque(existing).takeUnretainedValue()
        let size = uploadDataSize.pointee
        if size > 0 {
            uploadDataSize.pointee = 0
            if context.overLimit {
                context.discarded += size
                // Past the discard allowance the client is not going to stop: close without an answer.
                return context.discarded > discardLimit ? .NO : .YES
            }
            if context.body.count + size > maxBodyBytes {
                context.overLimit = true
                context.discarded = context.body.count + size
                context.body = []
                // libmicrohttpd 0.9.75 refuses a response while the body is still arriving
                // (MHD_queue_response only works before the body or after its end), so the rest
                // is read and dropped, never stored, and the 413 goes out once the body ends.
                _ = respondTooLarge(connection, context)
                return .YES
            }
            if let uploadData {
                uploadData.withMemoryRebound(to: UInt8.self, capacity: size) { bytes in
                    context.body.append(contentsOf: UnsafeBufferPointer(start: bytes, count: size))
                }
            }
            return .YES
        }
        if context.responded { return .YES }
        if context.overLimit { return respondTooLarge(connection, context) }

        let headers = Self.values(of: connection, kind: .HEADER_KIND)
        let arguments = Self.values(of: connection, kind: .GET_ARGUMENT_KIND)
        let query = arguments.fields.map { field in
            (name: PercentDecoding.decode(field.name, plusIsSpace: true) ?? field.name,
             value: PercentDecoding.decode(field.value, plusIsSpace: true) ?? field.value)
        }
        let request = HTTPRequest(method: String(cString: method), path: String(cString: url),
                                  queryParameters: query, headers: headers, body: context.body,
                                  requestID: headers[RequestID.headerName])
        context.body = []
        let response = handler.handle(request)
        context.responded = true
        return queue(response, requestID: request.requestID, on: connection)
    }

    /// The request-completed notification: frees the request's context.
    func completed(slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>) {
        guard let existing = slot.pointee else { return }
        slot.pointee = nil
        Unmanaged<RequestContext>.fromOpaque(existing).release()
        inFlight.end()
    }

    private func respondTooLarge(_ connection: OpaquePointer, _ context: RequestContext) -> MHD_Result {
        let response = HTTPResponse.error(status: 413, code: "payload_too_large",
                                          message: "request body exceeds \(maxBodyBytes) bytes")
        let requestID = Self.values(of: connection, kind: .HEADER_KIND)[RequestID.headerName]
            .flatMap { RequestID.isValid($0) ? $0 : nil } ?? RequestID.generate()
        let result = queue(response, requestID: requestID, on: connection, closing: true)
        if result == .YES { context.responded = true }
        return result
    }

    private func contentLength(_ connection: OpaquePointer) -> Int? {
        guard let value = MHD_lookup_connection_value(connection, .HEADER_KIND, "Content-Length") else {
            return nil
        }
        let text = String(cString: value).trimmingSpacesAndTabs()
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        // Too many digits for an Int is certainly over any cap.
        return Int(text) ?? Int.max
    }

    /// Queues `response`; when it cannot be sent as given (bad status, bad header, MHD refused
    /// it) a 500 goes out instead, and .NO (close the connection) only if even that fails.
    private func queue(_ response: HTTPResponse, requestID: String, on connection: OpaquePointer,
                       closing: Bool = false) -> MHD_Result {
        if let result = tryQueue(response, requestID: requestID, on: connection, closing: closing) {
            return result
        }
        let fallback = HTTPResponse.error(status: 500, code: "internal_error",
                                          message: "internal server error (request \(requestID))")
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
