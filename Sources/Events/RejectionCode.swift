/// The stable, machine-readable reason one event was refused (snake_case, part of the API).
/// A struct rather than an enum so that new codes do not break callers that switch over them.
public struct RejectionCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// The element of `events` (or the JSON Lines line) is not a JSON object.
    public static let invalidEvent = RejectionCode(rawValue: "invalid_event")
    /// A JSON Lines line is not valid JSON (the message says where).
    public static let invalidJSON = RejectionCode(rawValue: "invalid_json")
    /// `id`, `time` or `element_type` is absent (or null), or `command` is absent on a select.
    public static let missingField = RejectionCode(rawValue: "missing_field")
    /// An optional field has the wrong JSON type, is out of range, or appears twice in the event.
    public static let invalidField = RejectionCode(rawValue: "invalid_field")
    /// A free-text field (`menu_version`, `trigger`, `app_version`, `platform`, `locale`, `user`,
    /// `session`) holds a control character (C0, DEL, C1) or a bidi formatting character (U+061C,
    /// U+200E, U+200F, U+202A-U+202E, U+2066-U+2069); the rest of the batch is stored.
    public static let invalidText = RejectionCode(rawValue: "invalid_text")
    /// A string field is longer than its bound (64 characters, 256 for `user` and `session`).
    public static let fieldTooLong = RejectionCode(rawValue: "field_too_long")
    public static let invalidID = RejectionCode(rawValue: "invalid_id")
    public static let invalidTime = RejectionCode(rawValue: "invalid_time")
    public static let invalidElementType = RejectionCode(rawValue: "invalid_element_type")
    /// Bad command characters or length, or a command on a `dismiss` event.
    public static let invalidCommand = RejectionCode(rawValue: "invalid_command")
    public static let invalidKind = RejectionCode(rawValue: "invalid_kind")
    /// After clock-skew correction the event lies too far after the receive time.
    public static let timeInFuture = RejectionCode(rawValue: "time_in_future")
    /// After clock-skew correction the event is older than the retention.
    public static let timeTooOld = RejectionCode(rawValue: "time_too_old")
}
