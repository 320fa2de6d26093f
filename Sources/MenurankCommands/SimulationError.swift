/// Why a simulation could not run: a bad manifest, an unusable URL or file, or a server that never
/// accepted a batch.
struct SimulationError: Swift.Error, CustomStringConvertible, Sendable {
    struct Kind: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        static let invalidManifest = Kind(name: "invalid manifest")
        static let invalidURL = Kind(name: "invalid URL")
        static let io = Kind(name: "I/O error")
        static let server = Kind(name: "server error")
        var description: String { name }
    }

    var kind: Kind
    var message: String

    init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    var description: String { "\(kind): \(message)" }
}
