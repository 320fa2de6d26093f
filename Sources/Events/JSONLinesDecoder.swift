import JSON

/// Decodes events for bulk import: one JSON object per line with the same members and rules as an
/// event of `POST /v1/events` (`app_version`, `platform`, `locale` and `is_test` are per line; there
/// is no `context` and no `sent_at`, so no clock-skew correction). Lines end with `\n` (a `\r`
/// before it is ignored); blank lines are skipped. A line that is not valid JSON is refused with
/// `invalid_json` and the column; it never stops the import.
public struct JSONLinesDecoder: Sendable {
    public var limits: EventLimits

    public init(limits: EventLimits = EventLimits()) {
        self.limits = limits
    }

    /// Decodes every line of `bytes`; the first line is numbered `firstLineNumber`. A final line
    /// without `\n` counts as a line.
    public func decode(_ bytes: [UInt8], firstLineNumber: Int = 1) -> JSONLinesBatch {
        bytes.withUnsafeBufferPointer { decode($0, firstLineNumber: firstLineNumber) }
    }

    public func decode(_ bytes: UnsafeBufferPointer<UInt8>, firstLineNumber: Int = 1) -> JSONLinesBatch {
        var batch = JSONLinesBatch()
        var start = 0
        var lineNumber = firstLineNumber
        while start < bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
            switch decodeLine(UnsafeBufferPointer(rebasing: bytes[start..<end]), lineNumber: lineNumber) {
            case .blank: break
            case .event(let event): batch.events.append(event)
            case .rejected(let rejection): batch.rejections.append(rejection)
            }
            batch.lineCount += 1
            lineNumber += 1
            start = end + 1
        }
        return batch
    }

    /// Decodes one line (without its `\n`; a trailing `\r` is ignored).
    public func decodeLine(_ line: UnsafeBufferPointer<UInt8>, lineNumber: Int) -> JSONLinesOutcome {
        var count = line.count
        if count > 0, line[count - 1] == UInt8(ascii: "\r") { count -= 1 }
        let content = UnsafeBufferPointer(rebasing: line[0..<count])
        var reader = JSONReader(bytes: content, maxDepth: limits.maxDepth)
        guard let kind = reader.peekKind() else {
            if reader.isAtEnd { return .blank }
            return invalidJSON(&reader, lineNumber: lineNumber)
        }
        do {
            guard kind == .object else {
                try reader.skipValue(depth: 0)
                try expectEnd(&reader)
                let rejection = EventObjectReader.notAnObject(index: lineNumber, kind: kind)
                return .rejected(LineRejection(line: lineNumber, id: nil, code: rejection.code, message: rejection.message))
            }
            // The object sits where an event sits in a batch (depth 2), so the same depth limit applies.
            let outcome = try EventObjectReader(limits: limits).read(&reader, index: lineNumber, depth: 2)
            try expectEnd(&reader)
            switch outcome {
            case .event(let event, _):
                return .event(event)
            case .rejected(let r):
                return .rejected(LineRejection(line: lineNumber, id: r.id, code: r.code, message: r.message))
            }
        } catch {
            return .rejected(LineRejection(line: lineNumber, id: nil, code: .invalidJSON,
                                           message: "\(error.message) at column \(error.column)"))
        }
    }

    private func invalidJSON(_ reader: inout JSONReader, lineNumber: Int) -> JSONLinesOutcome {
        do {
            try reader.skipValue(depth: 0)
            return .blank
        } catch {
            return .rejected(LineRejection(line: lineNumber, id: nil, code: .invalidJSON,
                                           message: "\(error.message) at column \(error.column)"))
        }
    }

    private func expectEnd(_ reader: inout JSONReader) throws(JSONParseError) {
        reader.skipWhitespace()
        if !reader.isAtEnd { throw reader.error("unexpected data after the end of the line's JSON value") }
    }
}
