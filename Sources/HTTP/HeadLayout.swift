/// What libmicrohttpd hides of a request's header fields, found in the head as it parsed it.
///
/// libmicrohttpd (0.9.75, Debian 12's) parses the head in place and hands each header value over
/// as a C string, so a NUL inside a value silently ends it: `X-Note: a<NUL>b` arrives as `a`, and
/// `b` is never seen. RFC 9110 §5.5 forbids NUL in a field value, and a value that two readers
/// cut at different places is a way to smuggle (an `Authorization` that a proxy in front reads
/// whole and the daemon reads cut short). The head's bytes stay in the connection's read buffer,
/// each line end overwritten with NULs, so the bytes between the end of one value and the name
/// of the next field show it: only a line end (CR LF or LF, one or two bytes) belongs there, and
/// after the last field only its line end and the empty line (at most four bytes).
///
/// A field continued on the next line (obsolete line folding) is joined by the library into a
/// copy outside the head; that is refused too, as RFC 9112 §5.2 allows.
///
/// Pure: it sees the head's bytes and where each field lies in them, nothing else.
public enum HeadLayout {
    /// Where one header field lies, as byte offsets from the start of the head (the method).
    /// An offset may be negative or past the head when the library keeps the field elsewhere.
    public struct Field: Sendable, Equatable {
        public let name: Int
        public let value: Int
        public let valueLength: Int

        public init(name: Int, value: Int, valueLength: Int) {
            self.name = name
            self.value = value
            self.valueLength = valueLength
        }
    }

    /// Why a head is refused.
    public enum Problem: Sendable, Equatable {
        /// Bytes after the end of field `index`'s value that the library did not count as part of
        /// it: the value held a NUL.
        case hiddenBytes(field: Int)
        /// Field `index` is not where the head holds it: it was folded over several lines.
        case folded(field: Int)
    }

    /// The problem with a head of `head.count` bytes holding `fields` in order, or nil.
    public static func problem(head: UnsafeRawBufferPointer, fields: [Field]) -> Problem? {
        for (index, field) in fields.enumerated() {
            let end = field.value + field.valueLength
            guard field.name >= 0, field.name < field.value, field.valueLength >= 0, end <= head.count else {
                return .folded(field: index)
            }
            let isLast = index == fields.count - 1
            let gapEnd = isLast ? head.count : fields[index + 1].name
            guard gapEnd >= end, gapEnd <= head.count else { return .folded(field: index + (isLast ? 0 : 1)) }
            guard gapEnd - end <= (isLast ? 4 : 2),
                  head[end..<gapEnd].allSatisfy({ $0 == 0 || $0 == 0x0D || $0 == 0x0A })
            else { return .hiddenBytes(field: index) }
        }
        return nil
    }
}
