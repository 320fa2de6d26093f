/// Errors of the HTTP layer (server start-up and the client). The `kind` is open: new kinds may be
/// added without breaking callers that switch over the ones they know.
public struct HTTPError: Swift.Error, Sendable, CustomStringConvertible {
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private enum Value: String, Sendable, Hashable {
            case invalidConfiguration = "invalid configuration"
            case startFailed = "start failed"
            case connectFailed = "connect failed"
            case timedOut = "timed out"
            case connectionClosed = "connection closed"
            case malformedResponse = "malformed response"
            case ioFailed = "I/O failed"
        }

        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// A configuration value is out of range (host not an IP address, zero limits, ...).
        public static let invalidConfiguration = Kind(.invalidConfiguration)
        /// libmicrohttpd refused to start (port in use, no permission, ...).
        public static let startFailed = Kind(.startFailed)
        /// The client could not connect.
        public static let connectFailed = Kind(.connectFailed)
        /// A send or receive took longer than the client's timeout.
        public static let timedOut = Kind(.timedOut)
        /// The peer closed the connection before a full response arrived.
        public static let connectionClosed = Kind(.connectionClosed)
        /// The response could not be parsed as HTTP/1.1.
        public static let malformedResponse = Kind(.malformedResponse)
        /// A socket call failed for another reason (errno in the message).
        public static let ioFailed = Kind(.ioFailed)

        public var description: String { value.rawValue }
    }

    public let kind: Kind
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { "\(kind): \(message)" }
}
