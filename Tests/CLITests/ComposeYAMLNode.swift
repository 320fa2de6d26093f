/// A YAML value as far as docker-compose.yml needs: scalars (as text), sequences and mappings
/// (members in document order).
enum ComposeYAMLNode: Equatable, CustomStringConvertible {
    case scalar(String)
    case sequence([ComposeYAMLNode])
    case mapping([ComposeYAMLMember])

    subscript(key: String) -> ComposeYAMLNode? {
        guard case let .mapping(members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    var scalar: String? { if case let .scalar(text) = self { return text } else { return nil } }
    var sequence: [ComposeYAMLNode]? { if case let .sequence(items) = self { return items } else { return nil } }
    var members: [ComposeYAMLMember]? { if case let .mapping(members) = self { return members } else { return nil } }

    /// A sequence of scalars, or a single scalar as a one-element list (`command: migrate`).
    var strings: [String]? {
        switch self {
        case let .scalar(text): return [text]
        case let .sequence(items):
            let texts = items.compactMap(\.scalar)
            return texts.count == items.count ? texts : nil
        case .mapping: return nil
        }
    }

    var description: String {
        switch self {
        case let .scalar(text): return "\"\(text)\""
        case let .sequence(items): return "[" + items.map(\.description).joined(separator: ", ") + "]"
        case let .mapping(members): return "{" + members.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}"
        }
    }
}

struct ComposeYAMLMember: Equatable {
    var key: String
    var value: ComposeYAMLNode
}
