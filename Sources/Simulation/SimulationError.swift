/// Why a simulation could not run: a bad manifest, an unusable URL or file, or a server that never
/// accepted a batch.
public struct SimulationError: Swift.Error, CustomStringConvertible, Sendable {
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        public static let invalidManifest = Kind(name: "invalid manifest")
        public static let invalidURL = Kind(name: "invalid URL")
        public static let io = Kind(name: "I/O error")
        public static let server = Kind(name: "server error")
        public var description: String { name }
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { "\(kind): \(message)" }
}
