public import JSON

/// Loads a menu manifest (DESIGN.md, "Menu manifest") from JSON.
///
/// What the format cannot mean is a load error: text that is not JSON (reported with line and
/// column), a value of the wrong type, a missing `app`, `commands`, `menus`, `groups`, submenu title
/// or submenu `items`, an element type or command id breaking the character rule, an attribute that
/// is not a boolean where one is expected (`"destructive": "yes"`), a member named twice in one
/// object, a menu item naming a command that `commands` does not declare, an empty `app` or command
/// title, a `role` that is not one of `CommandRole`'s, a `together` set that names an undeclared
/// command, names one twice, holds fewer than 2 or shares a command with another set, and a member
/// the format does not define (with the nearest known member when one is close: a misspelt
/// `destrutive` must not leave Delete silently not destructive). Every such problem is collected,
/// each with its JSON path, into one `ManifestError`.
///
/// What a manifest may hold although a proposal never will (nested submenus, more groups than
/// allowed, a command listed twice, an empty group or submenu, an empty or generic submenu title)
/// loads, and `ManifestLinter` reports it.
public enum ManifestParser {
    /// Parses a manifest from UTF-8 bytes.
    public static func parse(bytes: [UInt8]) throws(ManifestError) -> Manifest {
        try load(bytes: bytes).manifest
    }

    /// Parses a manifest from text.
    public static func parse(_ text: String) throws(ManifestError) -> Manifest {
        try load(bytes: Array(text.utf8)).manifest
    }

    /// Loads a manifest from UTF-8 bytes (its `ManifestDocument.ignored` is empty: nothing is left out).
    public static func load(bytes: [UInt8]) throws(ManifestError) -> ManifestDocument {
        try load(json: json(bytes), tolerant: false)
    }

    /// Loads a manifest from text.
    public static func load(_ text: String) throws(ManifestError) -> ManifestDocument {
        try load(bytes: Array(text.utf8))
    }

    /// Loads a manifest from an already parsed JSON document.
    public static func load(json: JSONValue) throws(ManifestError) -> ManifestDocument {
        try load(json: json, tolerant: false)
    }

    /// Loads a manifest that an earlier import stored. Earlier versions accepted members the format
    /// did not define (with a lint warning), `role` and `together` among them, so what a manifest
    /// file may no longer hold must not keep a stored one from loading: an unknown member, a `role`
    /// or a `together` that does not read is left out and listed in `ManifestDocument.ignored`.
    /// Anything else the format cannot mean is an error as in `load(_:)`.
    public static func loadStored(_ text: String) throws(ManifestError) -> ManifestDocument {
        try load(json: json(Array(text.utf8)), tolerant: true)
    }

    private static func json(_ bytes: [UInt8]) throws(ManifestError) -> JSONValue {
        do {
            return try JSONParser.parse(bytes: bytes)
        } catch {
            throw ManifestError(syntax: error)
        }
    }

    private static func load(json: JSONValue, tolerant: Bool) throws(ManifestError) -> ManifestDocument {
        var decoder = ManifestDecoder(tolerant: tolerant)
        let manifest = decoder.decodeManifest(json)
        guard let manifest, decoder.issues.isEmpty else { throw ManifestError(issues: decoder.issues) }
        return ManifestDocument(manifest: manifest, ignored: decoder.ignored)
    }
}
