/// A loaded manifest together with what the loader left out of it.
///
/// A manifest file holds only what the format defines (anything else is a load error), so `ignored`
/// is empty for every file `ManifestParser.load` accepts. A manifest stored by an earlier import
/// (`ManifestParser.loadStored`) may hold members that version accepted without reading; they are
/// left out and listed here, each with its path and what is wrong, so that `menus export`, which
/// writes the manifest back without them, can say so. The JSON path of every menu item follows from
/// the layout itself (`Layout.locatedItems(under:)`), so it is not stored twice.
public struct ManifestDocument: Hashable, Sendable {
    public var manifest: Manifest
    /// What a tolerant load left out, in document order.
    public var ignored: [ManifestIssue]

    public init(manifest: Manifest, ignored: [ManifestIssue] = []) {
        self.manifest = manifest
        self.ignored = ignored
    }
}
