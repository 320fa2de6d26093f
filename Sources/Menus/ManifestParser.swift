public import JSON

/// Loads a menu manifest (DESIGN.md, "Menu manifest") from JSON.
///
/// What the format cannot mean is a load error: text that is not JSON (reported with line and
/// column), a value of the wrong type, a missing `app`, `commands`, `menus`, `groups`, submenu title
/// or submenu `items`, an element type or command id breaking the character rule, an attribute that
/// is not a boolean where one is expected (`"destructive": "yes"`), a member named twice in one
/// object, a menu item naming a command that `commands` does not declare, an empty `app` or command
/// title. Every such problem is collected, each with its JSON path, into one `ManifestError`.
///
/// What a manifest may hold although a proposal never will (nested submenus, more groups than
/// allowed, a command listed twice, an empty group or submenu, an empty or generic submenu title)
/// loads, and `ManifestLinter` reports it. Unknown members load too: they are listed in
/// `ManifestDocument.unknownKeys` and lint reports them as `MANIFEST` warnings, so a misspelt
/// attribute is not silently ignored and `--strict` can refuse it.
public enum ManifestParser {
    /// Parses a manifest from UTF-8 bytes.
    public static func parse(bytes: [UInt8]) throws(ManifestError) -> Manifest {
        try load(bytes: bytes).manifest
    }

    /// Parses a manifest from text.
    public static func parse(_ text: String) throws(ManifestError) -> Manifest {
        try load(bytes: Array(text.utf8)).manifest
    }

    /// Loads a manifest from UTF-8 bytes, keeping what lint needs besides the manifest.
    public static func load(bytes: [UInt8]) throws(ManifestError) -> ManifestDocument {
        let root: JSONValue
        do {
            root = try JSONParser.parse(bytes: bytes)
        } catch {
            throw ManifestError(syntax: error)
        }
        return try load(json: root)
    }

    /// Loads a manifest from text.
    public static func load(_ text: String) throws(ManifestError) -> ManifestDocument {
        try load(bytes: Array(text.utf8))
    }

    /// Loads a manifest from an already parsed JSON document.
    public static func load(json: JSONValue) throws(ManifestError) -> ManifestDocument {
        var decoder = ManifestDecoder()
        let manifest = decoder.decodeManifest(json)
        guard let manifest, decoder.issues.isEmpty else { throw ManifestError(issues: decoder.issues) }
        return ManifestDocument(manifest: manifest, unknownKeys: decoder.unknownKeys.sorted())
    }
}
