/// What a matched route carries besides its target: the template that matched and the decoded
/// path parameters.
public struct RouteParameters: Sendable, Equatable {
    /// The route template as registered (`/v1/menus/:elementType`): tag metrics with this, never
    /// with the raw path.
    public let template: String
    public let values: [String: String]

    public init(template: String, values: [String: String] = [:]) {
        self.template = template
        self.values = values
    }

    /// The decoded value of the parameter `name` (without the colon).
    public subscript(name: String) -> String? {
        values[name]
    }
}
