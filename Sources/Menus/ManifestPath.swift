/// Where something sits in a manifest document, written the way people read it:
/// `menus.mail.message.groups[2][0].items`, `commands.reply.title`.
///
/// Member names are joined with dots as they are (an element type such as `mail.message` keeps its
/// own dots), indices are written in brackets. The empty path is the whole document, written `$`; a path
/// starting with an index is anchored the same way (`$[0][1]`, an item of a stored layout).
/// Paths order component by component (indices numerically), so findings sort in document order.
public struct ManifestPath: Hashable, Sendable, Comparable, CustomStringConvertible {
    public enum Component: Hashable, Sendable {
        case key(String)
        case index(Int)
    }

    public var components: [Component]

    public init(_ components: [Component] = []) { self.components = components }

    /// The whole document.
    public static let root = ManifestPath()

    /// `menus.ELEMENT_TYPE`: the declared menu of an element type.
    public static func menu(_ elementType: String) -> ManifestPath {
        ManifestPath([.key("menus"), .key(elementType)])
    }

    /// `menus.ELEMENT_TYPE.groups`: the groups of an element type's menu.
    public static func groups(_ elementType: String) -> ManifestPath {
        menu(elementType).appending("groups")
    }

    /// `commands.COMMAND`: the declaration of a command.
    public static func command(_ id: String) -> ManifestPath {
        ManifestPath([.key("commands"), .key(id)])
    }

    public func appending(_ key: String) -> ManifestPath {
        ManifestPath(components + [.key(key)])
    }

    public func appending(_ index: Int) -> ManifestPath {
        ManifestPath(components + [.index(index)])
    }

    public var description: String {
        guard let first = components.first else { return "$" }
        // A path that starts at an index (a stored layout's groups) is anchored with `$`.
        var out = ""
        if case .index = first { out = "$" }
        for (n, component) in components.enumerated() {
            switch component {
            case let .key(name):
                if n > 0 { out.append(".") }
                out.append(name)
            case let .index(i):
                out.append("[\(i)]")
            }
        }
        return out
    }

    public static func < (lhs: ManifestPath, rhs: ManifestPath) -> Bool {
        for (a, b) in zip(lhs.components, rhs.components) where a != b {
            switch (a, b) {
            case let (.key(x), .key(y)): return x < y
            case let (.index(x), .index(y)): return x < y
            case (.key, .index): return true
            case (.index, .key): return false
            }
        }
        return lhs.components.count < rhs.components.count
    }
}
