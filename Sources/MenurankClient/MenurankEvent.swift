public import Foundation

/// One event as the app describes it. `record(elementType:command:...)` fills one in; an importer
/// that already has ids and times (a replay, the load generator) sets `id` and `time` itself.
public struct MenurankEvent: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case select
        case dismiss
    }

    /// Made at record time (a UUIDv7) when nil.
    public var id: MenurankEventID?
    /// The clock's time at record time when nil.
    public var time: Date?
    public var elementType: String
    /// The picked command; nil for a dismissal.
    public var command: String?
    public var kind: Kind
    public var position: Int?
    public var latencyMs: Int?
    public var menuVersion: String?
    public var trigger: String?
    /// Override the client's `user`, `session` and context for this event.
    public var user: String?
    public var session: String?
    public var appVersion: String?
    public var platform: String?
    public var locale: String?

    public init(elementType: String, command: String?, kind: Kind = .select, position: Int? = nil,
                latencyMs: Int? = nil, menuVersion: String? = nil, trigger: String? = nil) {
        self.elementType = elementType
        self.command = command
        self.kind = kind
        self.position = position
        self.latencyMs = latencyMs
        self.menuVersion = menuVersion
        self.trigger = trigger
    }
}
