/// A loaded manifest together with what the loader noticed but did not refuse.
///
/// Unknown members (a misspelt `destrucive`, a key from a newer format) do not stop a manifest from
/// loading; they are kept here so that lint reports them as `MANIFEST` warnings
/// (`ManifestLinter.lint(_:usage:)`). The JSON path of every menu item follows from the layout itself
/// (`Layout.locatedItems(under:)`), so it is not stored twice.
public struct ManifestDocument: Hashable, Sendable {
    public var manifest: Manifest
    /// Paths of members the manifest format does not define, in path order (`ManifestPath.<`).
    public var unknownKeys: [ManifestPath]

    public init(manifest: Manifest, unknownKeys: [ManifestPath] = []) {
        self.manifest = manifest
        self.unknownKeys = unknownKeys
    }
}
