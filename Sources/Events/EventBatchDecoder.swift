import Escaping
import JSON

/// Decodes a `POST /v1/events` body straight from its UTF-8 bytes: a single pass with the JSON
/// module's `JSONReader` cursor, no `JSONValue` tree, no `Foundation` decoder or date formatter.
///
/// - A body that is not JSON, is nested deeper than `limits.maxDepth`, is not a batch object, or
///   holds more than `limits.maxEvents` events throws a `BatchError` (the whole request is refused).
/// - A well-formed event that breaks a rule is refused alone (`EventBatch.rejections`, with a stable
///   `RejectionCode` and a message naming the field); the other events are still decoded.
/// - Unknown members are skipped (after validation) at every level; `null` counts as absent.
/// - `context` (`app_version`, `platform`, `locale`, `is_test`) applies to every event that does not
///   set the field itself. Problems in `sent_at` or `context` concern the whole batch: `invalid_batch`.
/// - A `dismiss` event that carries a command is refused (`invalid_command`): a dismissal is by
///   definition a menu closed without a pick, so such an event is a client bug worth reporting
///   rather than data to guess about.
public struct EventBatchDecoder: Sendable {
    public var limits: EventLimits

    public init(limits: EventLimits = EventLimits()) {
        self.limits = limits
    }

    public func decode(_ body: [UInt8]) throws(BatchError) -> EventBatch {
        try body.withUnsafeBufferPointer { (bytes) throws(BatchError) -> EventBatch in try decode(bytes) }
    }

    public func decode(_ body: UnsafeRawBufferPointer) throws(BatchError) -> EventBatch {
        try decode(body.assumingMemoryBound(to: UInt8.self))
    }

    public func decode(_ body: UnsafeBufferPointer<UInt8>) throws(BatchError) -> EventBatch {
        var reader = JSONReader(bytes: body, maxDepth: limits.maxDepth)
        do {
            return try decodeDocument(&reader)
        } catch let error as JSONParseError {
            throw BatchError(error)
        } catch let error as BatchError {
            throw error
        } catch {
            throw BatchError(kind: .invalidBatch, message: "\(error)")
        }
    }

    private func decodeDocument(_ reader: inout JSONReader) throws -> EventBatch {
        guard let kind = reader.peekKind() else {
            if reader.isAtEnd { throw BatchError(kind: .invalidJSON, message: "the body is empty", offset: 0, line: 1, column: 1) }
            try reader.skipValue(depth: 0)  // throws the precise syntax error
            throw BatchError(kind: .invalidBatch, message: "the body must be a JSON object")
        }
        guard kind == .object else {
            try reader.skipValue(depth: 0)
            try expectEnd(&reader)
            throw BatchError(kind: .invalidBatch, message: "the body must be a JSON object with an events array, found \(kind.name)")
        }
        try reader.expect(UInt8(ascii: "{"))
        var batch = EventBatch()
        var explicitIsTest: [Bool?] = []
        var seen: (sentAt: Bool, context: Bool, events: Bool) = (false, false, false)
        let objects = EventObjectReader(limits: limits)
        if !reader.consume(UInt8(ascii: "}")) {
            while true {
                try reader.expectMemberName()
                let key = try reader.scanString()
                try reader.expect(UInt8(ascii: ":"))
                let member = key.hasEscapes
                    ? reader.decodeStringBytes(key).withUnsafeBufferPointer { BatchMember(name: $0) }
                    : BatchMember(name: reader.rawBytes(key))
                switch member {
                case .sentAt?:
                    if seen.sentAt { throw duplicate("sent_at") }
                    seen.sentAt = true
                    batch.sentAt = try readSentAt(&reader)
                case .context?:
                    if seen.context { throw duplicate("context") }
                    seen.context = true
                    batch.context = try readContext(&reader)
                case .events?:
                    if seen.events { throw duplicate("events") }
                    seen.events = true
                    try readEvents(&reader, objects: objects, into: &batch, explicitIsTest: &explicitIsTest)
                case nil:
                    try reader.skipValue(depth: 1)
                }
                if try reader.endOfContainer(UInt8(ascii: "}"), inside: "an object") { break }
            }
        }
        try expectEnd(&reader)
        guard seen.events else {
            throw BatchError(kind: .invalidBatch, message: "the batch has no events member (an array of events)")
        }
        let context = batch.context
        if context.appVersion != nil || context.platform != nil || context.locale != nil || context.isTest != nil {
            for i in batch.events.indices {
                if batch.events[i].appVersion == nil { batch.events[i].appVersion = context.appVersion }
                if batch.events[i].platform == nil { batch.events[i].platform = context.platform }
                if batch.events[i].locale == nil { batch.events[i].locale = context.locale }
                if explicitIsTest[i] == nil { batch.events[i].isTest = context.isTest ?? false }
            }
        }
        return batch
    }

    private func expectEnd(_ reader: inout JSONReader) throws(JSONParseError) {
        reader.skipWhitespace()
        if !reader.isAtEnd { throw reader.error("unexpected data after the end of the document") }
    }

    private func duplicate(_ name: String) -> BatchError {
        BatchError(kind: .invalidBatch, message: "\(name) appears more than once in the batch")
    }

    private func readSentAt(_ reader: inout JSONReader) throws -> Int64? {
        let rule = "sent_at must be an RFC 3339 timestamp with a time zone, such as 2026-11-29T10:00:05.120Z"
        switch reader.peekKind() {
        case .null?:
            try reader.readNull()
            return nil
        case .string?:
            let span = try reader.scanString()
            guard let time = withContent(reader, span, { RFC3339.parse(utf8: $0) }) else {
                throw BatchError(kind: .invalidBatch, message: rule)
            }
            return time
        case let other?:
            try reader.skipValue(depth: 1)
            throw BatchError(kind: .invalidBatch, message: "\(rule), found \(other.name)")
        case nil:
            try reader.skipValue(depth: 1)
            return nil
        }
    }

    private func readContext(_ reader: inout JSONReader) throws -> EventContext {
        var context = EventContext()
        switch reader.peekKind() {
        case .null?:
            try reader.readNull()
            return context
        case .object?:
            break
        case let other?:
            try reader.skipValue(depth: 1)
            throw BatchError(kind: .invalidBatch, message: "context must be an object, found \(other.name)")
        case nil:
            try reader.skipValue(depth: 1)
            return context
        }
        guard 1 < reader.depthLimit else { throw reader.error("nesting deeper than \(reader.depthLimit) levels") }
        try reader.expect(UInt8(ascii: "{"))
        if reader.consume(UInt8(ascii: "}")) { return context }
        var seen: UInt32 = 0
        while true {
            try reader.expectMemberName()
            let key = try reader.scanString()
            try reader.expect(UInt8(ascii: ":"))
            let field = key.hasEscapes
                ? reader.decodeStringBytes(key).withUnsafeBufferPointer { EventField(name: $0) }
                : EventField(name: reader.rawBytes(key))
            switch field {
            case .appVersion?, .platform?, .locale?, .isTest?:
                let field = field!
                if seen & field.bit != 0 { throw duplicate("context.\(field.name)") }
                seen |= field.bit
                try readContextField(field, &reader, into: &context)
            default:
                try reader.skipValue(depth: 2)
            }
            if try reader.endOfContainer(UInt8(ascii: "}"), inside: "an object") { break }
        }
        return context
    }

    private func readContextField(_ field: EventField, _ reader: inout JSONReader, into context: inout EventContext) throws {
        let name = "context.\(field.name)"
        guard let kind = reader.peekKind() else {
            try reader.skipValue(depth: 2)
            return
        }
        if kind == .null {
            try reader.readNull()
            return
        }
        if field == .isTest {
            guard kind == .bool else {
                try reader.skipValue(depth: 2)
                throw BatchError(kind: .invalidBatch, message: "\(name) must be true or false, found \(kind.name)")
            }
            context.isTest = try reader.readBool()
            return
        }
        guard kind == .string else {
            try reader.skipValue(depth: 2)
            throw BatchError(kind: .invalidBatch, message: "\(name) must be a string, found \(kind.name)")
        }
        let span = try reader.scanString()
        switch readText(reader, span, maximum: limits.maxShortTextLength) {
        case .text(let text):
            switch field {
            case .appVersion: context.appVersion = text
            case .platform: context.platform = text
            default: context.locale = text
            }
        case .tooLong:
            throw BatchError(kind: .invalidBatch, message: "\(name) must be at most \(limits.maxShortTextLength) characters")
        case .refusedCharacter:
            throw BatchError(kind: .invalidBatch, message: "\(name) must not contain \(FreeText.ruleDescription)")
        }
    }

    private func readEvents(
        _ reader: inout JSONReader, objects: EventObjectReader, into batch: inout EventBatch, explicitIsTest: inout [Bool?]
    ) throws {
        guard let kind = reader.peekKind(), kind == .array else {
            let found = reader.peekKind()
            try reader.skipValue(depth: 1)
            throw BatchError(kind: .invalidBatch, message: "events must be an array, found \(found?.name ?? "nothing")")
        }
        guard 1 < reader.depthLimit else { throw reader.error("nesting deeper than \(reader.depthLimit) levels") }
        try reader.expect(UInt8(ascii: "["))
        if reader.consume(UInt8(ascii: "]")) { return }
        let estimate = min(limits.maxEvents, reader.bytes.count / 96 + 1)
        batch.events.reserveCapacity(estimate)
        explicitIsTest.reserveCapacity(estimate)
        var index = 0
        while true {
            guard index < limits.maxEvents else {
                throw BatchError(kind: .tooManyEvents,
                                 message: "a batch may hold at most \(limits.maxEvents) events; split it into smaller batches")
            }
            let next = reader.peekKind()
            if next == .object {
                switch try objects.read(&reader, index: index, depth: 2) {
                case let .event(event, explicit):
                    batch.events.append(event)
                    explicitIsTest.append(explicit)
                case let .rejected(rejection):
                    batch.rejections.append(rejection)
                }
            } else {
                try reader.skipValue(depth: 2)
                batch.rejections.append(EventObjectReader.notAnObject(index: index, kind: next))
            }
            index += 1
            if try reader.endOfContainer(UInt8(ascii: "]"), inside: "an array") { break }
        }
        batch.totalCount = index
    }
}
