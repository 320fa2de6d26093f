/// Usage of every element type seen in telemetry over a window (optional input of lint rules HIG-1
/// and HIG-5). An element type absent from `elements` had no opens in the window.
public struct MenuUsage: Hashable, Sendable {
    public var elements: [String: ElementUsage]

    public init(elements: [String: ElementUsage] = [:]) { self.elements = elements }

    public subscript(elementType: String) -> ElementUsage? {
        get { elements[elementType] }
        set { elements[elementType] = newValue }
    }
}
