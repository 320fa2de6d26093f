import Escaping
import JSON

/// Reads one event object under a `JSONReader` cursor straight into an `IncomingEvent`, or into a
/// rejection naming the first field that broke a rule. Shared by the batch and JSON Lines decoders.
///
/// Syntax errors (and nesting beyond the depth limit) are thrown; everything about the content of a
/// well-formed event is a rejection of that event alone. `null` counts as an absent field.
struct EventObjectReader {
    let limits: EventLimits

    enum Outcome {
        /// `explicitIsTest` is the event's own `is_test`, so the caller can fall back to the context.
        case event(IncomingEvent, explicitIsTest: Bool?)
        case rejected(EventRejection)
    }

    struct Failure {
        let code: RejectionCode
        let message: String
    }

    struct Fields {
        var seen: UInt32 = 0
        var id: EventID?
        var rawID: String?
        var time: Int64?
        var elementType: String?
        var command: String?
        var kind: EventKind = .select
        var position: Int?
        var latencyMs: Int?
        var menuVersion: String?
        var user: String?
        var session: String?
        var trigger: String?
        var appVersion: String?
        var platform: String?
        var locale: String?
        var isTest: Bool?
    }

    /// Reads the object at the cursor (the caller checked that an object comes next). `depth` is the
    /// nesting depth of the object itself, counted as `JSONReader.readValue(depth:)` does.
    func read(_ reader: inout JSONReader, index: Int, depth: Int) throws(JSONParseError) -> Outcome {
        guard depth < reader.depthLimit else { throw reader.error("nesting deeper than \(reader.depthLimit) levels") }
        try reader.expect(UInt8(ascii: "{"))
        var f = Fields()
        var failure: Failure?
        if !reader.consume(UInt8(ascii: "}")) {
            while true {
                try reader.expectMemberName()
                let key = try reader.scanString()
                try reader.expect(UInt8(ascii: ":"))
                let field = key.hasEscapes
                    ? reader.decodeStringBytes(key).withUnsafeBufferPointer { EventField(name: $0) }
                    : EventField(name: reader.rawBytes(key))
                // After a failure only the id is still read, so that the rejection can name the event.
                if let field, failure == nil || (field == .id && f.seen & field.bit == 0) {
                    try readField(field, &reader, &f, &failure, depth: depth + 1)
                } else {
                    try reader.skipValue(depth: depth + 1)
                }
                if try reader.endOfContainer(UInt8(ascii: "}"), inside: "an object") { break }
            }
        }
        if failure == nil { failure = EventObjectReader.checkRequired(f) }
        if let failure {
            return .rejected(EventRejection(index: index, id: f.id?.description ?? f.rawID, code: failure.code,
                                            message: failure.message))
        }
        let event = IncomingEvent(
            index: index, id: f.id!, time: f.time!, elementType: f.elementType!, command: f.command, kind: f.kind,
            position: f.position, latencyMs: f.latencyMs, menuVersion: f.menuVersion, user: f.user,
            session: f.session, trigger: f.trigger, appVersion: f.appVersion, platform: f.platform,
            locale: f.locale, isTest: f.isTest ?? false)
        return .event(event, explicitIsTest: f.isTest)
    }

    /// A rejection for a value that is not a JSON object where an event was expected.
    static func notAnObject(index: Int, kind: JSONValueKind?) -> EventRejection {
        EventRejection(index: index, id: nil, code: .invalidEvent,
                       message: "an event must be a JSON object, found \(kind?.name ?? "an invalid value")")
    }

    private func nameRule(_ field: EventField) -> String {
        "\(field.name) must be 1-\(limits.maxNameLength) printable ASCII characters without spaces"
    }

    static func checkRequired(_ f: Fields) -> Failure? {
        if f.id == nil { return Failure(code: .missingField, message: "id is required") }
        if f.time == nil { return Failure(code: .missingField, message: "time is required") }
        if f.elementType == nil { return Failure(code: .missingField, message: "element_type is required") }
        switch f.kind {
        case .select where f.command == nil:
            return Failure(code: .missingField, message: "command is required unless kind is \"dismiss\"")
        case .dismiss where f.command != nil:
            return Failure(code: .invalidCommand, message: "a dismiss event must not have a command")
        default:
            return nil
        }
    }

    private func readField(
        _ field: EventField, _ reader: inout JSONReader, _ f: inout Fields, _ failure: inout Failure?, depth: Int
    ) throws(JSONParseError) {
        func fail(_ code: RejectionCode, _ message: String) {
            if failure == nil { failure = Failure(code: code, message: message) }
        }
        if f.seen & field.bit != 0 {
            fail(.invalidField, "\(field.name) appears more than once in the event")
            try reader.skipValue(depth: depth)
            return
        }
        f.seen |= field.bit
        guard let kind = reader.peekKind() else {
            try reader.skipValue(depth: depth)  // throws: end of input or a byte that starts no value
            return
        }
        if kind == .null {
            try reader.readNull()
            return
        }
        switch field {
        case .id:
            guard kind == .string else {
                fail(.invalidID, "id must be a string holding a UUID, found \(kind.name)")
                try reader.skipValue(depth: depth)
                return
            }
            let span = try reader.scanString()
            if let id = withContent(reader, span, { EventID(utf8: $0) }) {
                f.id = id
            } else {
                if span.rawCount <= 64 { f.rawID = reader.decodeString(span) }
                fail(.invalidID, "id must be a UUID written as xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx (hexadecimal digits)")
            }
        case .time:
            guard kind == .string else {
                fail(.invalidTime, "time must be a string holding an RFC 3339 timestamp, found \(kind.name)")
                try reader.skipValue(depth: depth)
                return
            }
            let span = try reader.scanString()
            if let time = withContent(reader, span, { RFC3339.parse(utf8: $0) }) {
                f.time = time
            } else {
                fail(.invalidTime, "time must be an RFC 3339 timestamp with a time zone, such as 2026-11-29T09:59:58.120Z")
            }
        case .elementType, .command:
            let code: RejectionCode = field == .elementType ? .invalidElementType : .invalidCommand
            guard kind == .string else {
                fail(code, "\(nameRule(field)), found \(kind.name)")
                try reader.skipValue(depth: depth)
                return
            }
            let span = try reader.scanString()
            let maximum = limits.maxNameLength
            guard let name = withContent(reader, span, { isName($0, maximum: maximum) ? String(decoding: $0, as: UTF8.self) : nil })
            else {
                fail(code, nameRule(field))
                return
            }
            if field == .elementType { f.elementType = name } else { f.command = name }
        case .kind:
            let rule = #"kind must be "select" or "dismiss""#
            guard kind == .string else {
                fail(.invalidKind, "\(rule), found \(kind.name)")
                try reader.skipValue(depth: depth)
                return
            }
            let span = try reader.scanString()
            let parsed: EventKind? = withContent(reader, span) { bytes in
                matches(bytes, "select") ? .select : matches(bytes, "dismiss") ? .dismiss : nil
            }
            if let parsed { f.kind = parsed } else { fail(.invalidKind, rule) }
        case .position, .latencyMs:
            let maximum = field == .position ? limits.maxPosition : limits.maxLatencyMs
            guard kind == .number else {
                fail(.invalidField, "\(field.name) must be an integer from 0 to \(maximum), found \(kind.name)")
                try reader.skipValue(depth: depth)
                return
            }
            guard let value = try reader.readInteger(), value >= 0, value <= Int64(maximum) else {
                fail(.invalidField, "\(field.name) must be an integer from 0 to \(maximum)")
                return
            }
            if field == .position { f.position = Int(value) } else { f.latencyMs = Int(value) }
        case .isTest:
            guard kind == .bool else {
                fail(.invalidField, "is_test must be true or false, found \(kind.name)")
                try reader.skipValue(depth: depth)
                return
            }
            f.isTest = try reader.readBool()
        case .menuVersion, .trigger, .appVersion, .platform, .locale, .user, .session:
            let maximum = field == .user || field == .session ? limits.maxIdentifierLength : limits.maxShortTextLength
            guard kind == .string else {
                fail(.invalidField, "\(field.name) must be a string, found \(kind.name)")
                try reader.skipValue(depth: depth)
                return
            }
            let span = try reader.scanString()
            let text: String
            switch readText(reader, span, maximum: maximum) {
            case .text(let t): text = t
            case .tooLong:
                fail(.fieldTooLong, "\(field.name) must be at most \(maximum) characters")
                return
            case .refusedCharacter:
                fail(.invalidText, "\(field.name) must not contain \(FreeText.ruleDescription)")
                return
            }
            switch field {
            case .menuVersion: f.menuVersion = text
            case .trigger: f.trigger = text
            case .appVersion: f.appVersion = text
            case .platform: f.platform = text
            case .locale: f.locale = text
            // An empty user or session identifies nobody: kept as absent rather than one shared pseudonym.
            case .user: f.user = text.isEmpty ? nil : text
            default: f.session = text.isEmpty ? nil : text
            }
        }
    }
}
