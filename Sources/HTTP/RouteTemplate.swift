/// A parsed route template: an exact path (`/healthz`) or literal segments followed by one
/// trailing parameter segment (`/v1/menus/:elementType`).
struct RouteTemplate: Sendable, Hashable {
    /// The template as registered; what metrics are tagged with.
    let text: String
    /// For an exact template the whole path; for a parameter template everything up to and
    /// including the last `/`.
    let literal: String
    /// The parameter's name, nil for an exact template.
    let parameterName: String?

    /// Parses `text`; nil when it does not start with `/`, has an empty or non-trailing parameter,
    /// or contains a query or fragment.
    init?(_ text: String) {
        guard text.hasPrefix("/"), !text.contains("?"), !text.contains("#") else { return nil }
        let segments = text.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        for segment in segments.dropLast() where segment.hasPrefix(":") {
            return nil
        }
        self.text = text
        if let last = segments.last, last.hasPrefix(":") {
            let name = last.dropFirst()
            guard !name.isEmpty else { return nil }
            parameterName = String(name)
            literal = String(text.dropLast(last.count))
        } else {
            parameterName = nil
            literal = text
        }
    }

    /// The decoded parameter value when `path` matches (an empty dictionary for an exact match),
    /// nil when it does not. A parameter is one non-empty segment, percent-decoded afterwards (so
    /// `%2F` yields a `/` inside the value); a malformed escape does not match.
    func match(_ path: String) -> [String: String]? {
        guard let parameterName else { return path == literal ? [:] : nil }
        guard path.hasPrefix(literal) else { return nil }
        let raw = Substring(path.utf8.dropFirst(literal.utf8.count))
        guard !raw.isEmpty, !raw.contains("/"), let value = PercentDecoding.decode(raw), !value.isEmpty
        else { return nil }
        return [parameterName: value]
    }
}
