/// One problem of a manifest that keeps it from loading: where it is and what is wrong.
public struct ManifestIssue: Hashable, Sendable, CustomStringConvertible {
    public let path: ManifestPath
    public let message: String

    public init(path: ManifestPath, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
}
