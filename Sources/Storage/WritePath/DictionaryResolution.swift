/// Ids of the names of one batch. A name missing here could not be added: its dictionary is full.
public struct DictionaryResolution: Sendable {
    public var elementTypes: [String: Int32]
    public var commands: [String: Int32]
    public var contexts: [ContextKey: Int32]

    public init(elementTypes: [String: Int32] = [:], commands: [String: Int32] = [:],
                contexts: [ContextKey: Int32] = [:])
    {
        self.elementTypes = elementTypes
        self.commands = commands
        self.contexts = contexts
    }
}
