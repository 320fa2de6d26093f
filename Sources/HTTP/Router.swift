/// Maps method + path to a target. Pure: no I/O, unit-testable without a server.
///
/// Templates are exact paths (`/healthz`) or literal segments with one trailing parameter
/// (`/v1/menus/:elementType`). The parameter matches one non-empty path segment and is
/// percent-decoded, so it may contain dots and, encoded as `%2F`, slashes. Exact templates win
/// over parameter templates, and a longer literal prefix over a shorter one. `HEAD` falls back to
/// the `GET` route of the same template. Methods compare case-sensitively, as HTTP says.
public struct Router<Target: Sendable>: Sendable {
    private struct Entry: Sendable {
        let template: RouteTemplate
        var targets: [String: Target]
    }

    private var entries: [Entry] = []

    public init() {}

    /// Registers `target` for `method` on `template`. A malformed template or a second
    /// registration of the same method and template is a programming error and traps.
    public mutating func add(_ method: String, _ template: String, _ target: Target) {
        guard let parsed = RouteTemplate(template) else {
            preconditionFailure("malformed route template \(template)")
        }
        precondition(!method.isEmpty, "empty method for route \(template)")
        if let index = entries.firstIndex(where: { $0.template == parsed }) {
            precondition(entries[index].targets[method] == nil, "route \(method) \(template) registered twice")
            entries[index].targets[method] = target
            return
        }
        entries.append(Entry(template: parsed, targets: [method: target]))
        // Exact templates first, then longer literal prefixes before shorter ones.
        entries.sort { left, right in
            let leftExact = left.template.parameterName == nil
            let rightExact = right.template.parameterName == nil
            if leftExact != rightExact { return leftExact }
            return left.template.literal.utf8.count > right.template.literal.utf8.count
        }
    }

    /// Every registered template, in match order.
    public var templates: [String] { entries.map(\.template.text) }

    public func match(method: String, path: String) -> RouteMatch<Target> {
        var firstTemplate: String?
        var allowed: Set<String> = []
        for entry in entries {
            guard let values = entry.template.match(path) else { continue }
            let parameters = RouteParameters(template: entry.template.text, values: values)
            if let target = entry.targets[method] {
                return .found(target, parameters)
            }
            if method == "HEAD", let target = entry.targets["GET"] {
                return .found(target, parameters)
            }
            if firstTemplate == nil { firstTemplate = entry.template.text }
            allowed.formUnion(entry.targets.keys)
            if entry.targets["GET"] != nil { allowed.insert("HEAD") }
        }
        guard let firstTemplate else { return .notFound }
        return .methodNotAllowed(template: firstTemplate, allowed: allowed.sorted())
    }
}
