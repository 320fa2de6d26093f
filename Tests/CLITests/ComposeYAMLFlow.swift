/// Reads a YAML flow collection (`["a", b]`, `{condition: service_healthy}`) from one line.
struct ComposeYAMLFlow {
    var text: [Character]
    var line: Int
    var index = 0

    var isAtEnd: Bool { index >= text.count }

    mutating func skipSpaces() {
        while index < text.count, text[index] == " " { index += 1 }
    }

    mutating func value() throws(ComposeYAMLReader.ReadError) -> ComposeYAMLNode {
        skipSpaces()
        guard index < text.count else { throw failure("missing value") }
        switch text[index] {
        case "[":
            index += 1
            var items: [ComposeYAMLNode] = []
            skipSpaces()
            if index < text.count, text[index] == "]" { index += 1; return .sequence(items) }
            while true {
                items.append(try value())
                skipSpaces()
                guard index < text.count else { throw failure("unterminated [") }
                if text[index] == "]" { index += 1; return .sequence(items) }
                guard text[index] == "," else { throw failure("expected , or ]") }
                index += 1
            }
        case "{":
            index += 1
            var members: [ComposeYAMLMember] = []
            skipSpaces()
            if index < text.count, text[index] == "}" { index += 1; return .mapping(members) }
            while true {
                skipSpaces()
                let key = try scalar(stopAt: ":")
                guard index < text.count, text[index] == ":" else { throw failure("expected : after a key") }
                index += 1
                members.append(ComposeYAMLMember(key: key, value: try value()))
                skipSpaces()
                guard index < text.count else { throw failure("unterminated {") }
                if text[index] == "}" { index += 1; return .mapping(members) }
                guard text[index] == "," else { throw failure("expected , or }") }
                index += 1
            }
        default:
            return .scalar(try scalar(stopAt: nil))
        }
    }

    /// A quoted or plain scalar, ending before `,`, `]`, `}` (or `stopAt`).
    private mutating func scalar(stopAt: Character?) throws(ComposeYAMLReader.ReadError) -> String {
        skipSpaces()
        guard index < text.count else { throw failure("missing value") }
        let quote = text[index]
        if quote == "\"" || quote == "'" {
            let start = index
            index += 1
            while index < text.count {
                if quote == "\"", text[index] == "\\" { index += 2; continue }
                if text[index] == quote {
                    if quote == "'", index + 1 < text.count, text[index + 1] == "'" { index += 2; continue }
                    index += 1
                    return try ComposeYAMLReader.scalar(String(text[start..<index]), line: line)
                }
                index += 1
            }
            throw failure("unterminated string")
        }
        let start = index
        while index < text.count, !",]}".contains(text[index]), text[index] != stopAt {
            index += 1
        }
        var plain = String(text[start..<index])
        while plain.last == " " { plain.removeLast() }
        return plain
    }

    private func failure(_ message: String) -> ComposeYAMLReader.ReadError {
        ComposeYAMLReader.ReadError(line: line, message: message)
    }
}
