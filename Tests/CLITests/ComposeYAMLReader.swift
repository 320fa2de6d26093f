/// A minimal YAML reader for docker-compose.yml: block mappings and sequences by indentation,
/// `- key: value` items, flow sequences and mappings (`["a", "b"]`, `{condition: x}`), single- and
/// double-quoted and plain scalars, literal and folded block scalars (`|`, `>`), comments. Not
/// supported (and rejected rather than misread): anchors, aliases, tags, multi-document streams.
struct ComposeYAMLReader {
    struct ReadError: Swift.Error, CustomStringConvertible {
        var line: Int
        var message: String
        var description: String { "line \(line): \(message)" }
    }

    private struct Line {
        var number: Int
        var indent: Int
        /// The text after the indentation, comment removed, trailing spaces trimmed.
        var text: String
        /// The whole line as written (block scalars keep it).
        var raw: String
    }

    private var lines: [Line] = []
    private var position = 0

    static func read(_ text: String) throws(ReadError) -> ComposeYAMLNode {
        var reader = ComposeYAMLReader()
        for (i, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let rawLine = String(raw)
            let indent = rawLine.prefix { $0 == " " }.count
            if rawLine.dropFirst(indent).hasPrefix("\t") { throw ReadError(line: i + 1, message: "tab indentation") }
            let text = stripComment(String(rawLine.dropFirst(indent)))
            reader.lines.append(Line(number: i + 1, indent: indent, text: text, raw: rawLine))
        }
        reader.skipBlank()
        guard reader.position < reader.lines.count else { return .mapping([]) }
        let node = try reader.block(indent: reader.lines[reader.position].indent)
        reader.skipBlank()
        if reader.position < reader.lines.count {
            throw ReadError(line: reader.lines[reader.position].number, message: "unexpected indentation")
        }
        return node
    }

    /// Removes a `#` comment that is not inside quotes.
    private static func stripComment(_ text: String) -> String {
        var quote: Character?
        var previous: Character = " "
        var result = ""
        for c in text {
            if let q = quote {
                if c == q { quote = nil }
            } else if c == "\"" || c == "'" {
                quote = c
            } else if c == "#", previous == " " {
                break
            }
            result.append(c)
            previous = c
        }
        while result.last == " " { result.removeLast() }
        return result
    }

    private mutating func skipBlank() {
        while position < lines.count, lines[position].text.isEmpty { position += 1 }
    }

    /// The block (mapping or sequence) whose lines start at `indent`.
    private mutating func block(indent: Int) throws(ReadError) -> ComposeYAMLNode {
        skipBlank()
        let first = lines[position]
        if first.text == "-" || first.text.hasPrefix("- ") {
            return try sequence(indent: indent)
        }
        return try mapping(indent: indent, firstLineOffset: nil)
    }

    private mutating func sequence(indent: Int) throws(ReadError) -> ComposeYAMLNode {
        var items: [ComposeYAMLNode] = []
        while true {
            skipBlank()
            guard position < lines.count, lines[position].indent == indent,
                  lines[position].text == "-" || lines[position].text.hasPrefix("- ")
            else { break }
            let line = lines[position]
            let content = String(line.text.dropFirst(1).drop { $0 == " " })
            let contentIndent = indent + (line.text.count - content.count)
            if content.isEmpty {
                position += 1
                skipBlank()
                guard position < lines.count, lines[position].indent > indent else {
                    items.append(.scalar(""))
                    continue
                }
                items.append(try block(indent: lines[position].indent))
            } else if ComposeYAMLReader.splitKey(content) != nil, !content.hasPrefix("\""), !content.hasPrefix("'"),
                      !content.hasPrefix("[") , !content.hasPrefix("{") {
                // `- key: value` starts a mapping whose keys line up with `key`.
                items.append(try mapping(indent: contentIndent, firstLineOffset: contentIndent))
            } else {
                position += 1
                items.append(try value(content, parentIndent: indent, line: line.number))
            }
        }
        return .sequence(items)
    }

    /// A mapping at `indent`. With `firstLineOffset`, its first key sits on the current line after
    /// a `- ` at that column.
    private mutating func mapping(indent: Int, firstLineOffset: Int?) throws(ReadError) -> ComposeYAMLNode {
        var members: [ComposeYAMLMember] = []
        var firstLine = firstLineOffset != nil
        while true {
            skipBlank()
            guard position < lines.count else { break }
            let line = lines[position]
            let text: String
            if firstLine {
                text = String(line.raw.dropFirst(indent)).isEmpty ? "" : ComposeYAMLReader.stripComment(String(line.raw.dropFirst(indent)))
                firstLine = false
            } else {
                guard line.indent == indent else {
                    if line.indent > indent { throw ReadError(line: line.number, message: "unexpected indentation") }
                    break
                }
                if line.text == "-" || line.text.hasPrefix("- ") { break }
                text = line.text
            }
            guard let (key, rest) = ComposeYAMLReader.splitKey(text) else {
                throw ReadError(line: line.number, message: "expected 'key: value', found '\(text)'")
            }
            if key == "<<" || rest.hasPrefix("&") || rest.hasPrefix("*") || rest.hasPrefix("!") {
                throw ReadError(line: line.number, message: "anchors, aliases, merge keys and tags are not supported")
            }
            if members.contains(where: { $0.key == key }) {
                throw ReadError(line: line.number, message: "duplicate key '\(key)'")
            }
            position += 1
            if rest.isEmpty {
                skipBlank()
                if position < lines.count, lines[position].indent > indent
                    || (lines[position].indent == indent && (lines[position].text.hasPrefix("- ") || lines[position].text == "-")) {
                    members.append(ComposeYAMLMember(key: key, value: try block(indent: lines[position].indent)))
                } else {
                    members.append(ComposeYAMLMember(key: key, value: .scalar("")))
                }
            } else {
                members.append(ComposeYAMLMember(key: key, value: try value(rest, parentIndent: indent, line: line.number)))
            }
        }
        return .mapping(members)
    }

    /// Splits `key: rest` (the key possibly quoted); nil when the text is not a mapping entry.
    private static func splitKey(_ text: String) -> (String, String)? {
        var key = ""
        var index = text.startIndex
        if let q = text.first, q == "\"" || q == "'" {
            guard let close = text[text.index(after: index)...].firstIndex(of: q) else { return nil }
            key = String(text[text.index(after: index)..<close])
            index = text.index(after: close)
            guard index < text.endIndex, text[index] == ":" else { return nil }
        } else {
            var i = text.startIndex
            while i < text.endIndex {
                if text[i] == ":" {
                    let next = text.index(after: i)
                    if next == text.endIndex || text[next] == " " { break }
                }
                i = text.index(after: i)
            }
            guard i < text.endIndex else { return nil }
            key = String(text[..<i])
            index = i
            if key.isEmpty || key.contains(where: { "[]{},".contains($0) }) { return nil }
        }
        let rest = text[text.index(after: index)...].drop { $0 == " " }
        return (key, String(rest))
    }

    /// An inline value: block scalar indicator, flow collection, or scalar.
    private mutating func value(_ text: String, parentIndent: Int, line: Int) throws(ReadError) -> ComposeYAMLNode {
        if text.hasPrefix("|") || text.hasPrefix(">") {
            return .scalar(blockScalar(folded: text.hasPrefix(">"), chomp: text.dropFirst().first, parentIndent: parentIndent))
        }
        if text.hasPrefix("[") || text.hasPrefix("{") {
            var flow = ComposeYAMLFlow(text: Array(text), line: line)
            let node = try flow.value()
            flow.skipSpaces()
            guard flow.isAtEnd else { throw ReadError(line: line, message: "text after a flow collection") }
            return node
        }
        if text.hasPrefix("&") || text.hasPrefix("*") || text.hasPrefix("!") {
            throw ReadError(line: line, message: "anchors, aliases and tags are not supported")
        }
        return .scalar(try ComposeYAMLReader.scalar(text, line: line))
    }

    private mutating func blockScalar(folded: Bool, chomp: Character?, parentIndent: Int) -> String {
        var body: [String] = []
        var blockIndent: Int?
        while position < lines.count {
            let line = lines[position]
            let blank = line.raw.allSatisfy { $0 == " " }
            if !blank {
                if line.indent <= parentIndent { break }
                if blockIndent == nil { blockIndent = line.indent }
                if line.indent < blockIndent! { break }
            }
            body.append(blank ? "" : String(line.raw.dropFirst(blockIndent!)))
            position += 1
        }
        while body.last == "" { body.removeLast() }
        var text = folded ? body.joined(separator: " ") : body.joined(separator: "\n")
        if chomp != "-" { text += "\n" }
        return text
    }

    static func scalar(_ text: String, line: Int) throws(ReadError) -> String {
        if text.hasPrefix("\"") {
            guard text.count >= 2, text.hasSuffix("\"") else { throw ReadError(line: line, message: "unterminated string") }
            var out = ""
            var escaped = false
            for c in text.dropFirst().dropLast() {
                if escaped {
                    switch c {
                    case "n": out.append("\n")
                    case "t": out.append("\t")
                    default: out.append(c)
                    }
                    escaped = false
                } else if c == "\\" {
                    escaped = true
                } else {
                    out.append(c)
                }
            }
            return out
        }
        if text.hasPrefix("'") {
            guard text.count >= 2, text.hasSuffix("'") else { throw ReadError(line: line, message: "unterminated string") }
            return String(text.dropFirst().dropLast()).replacingOccurrences(of: "''", with: "'")
        }
        return text
    }
}
