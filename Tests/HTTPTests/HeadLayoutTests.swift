import HTTP
import Testing

/// ``HeadLayout`` on heads laid out the way libmicrohttpd leaves them: parsed in place, the colon
/// after each name and every line end overwritten with NUL.
@Suite("HeadLayout")
struct HeadLayoutTests {
    /// A head as the library leaves it, and where each field lies in it. `lines` are the header
    /// lines as sent (without their line end); `end` is the line end used throughout.
    static func parsed(_ lines: [String], end: String = "\r\n") -> (bytes: [UInt8], fields: [HeadLayout.Field]) {
        var bytes = Array("GET / HTTP/1.1".utf8) + Array(repeating: 0, count: end.utf8.count)
        var fields: [HeadLayout.Field] = []
        for line in lines {
            let name = bytes.count
            var raw = Array(line.utf8)
            let colon = raw.firstIndex(of: UInt8(ascii: ":"))!
            raw[colon] = 0
            var value = colon + 1
            while value < raw.count, raw[value] == 0x20 || raw[value] == 0x09 { value += 1 }
            // The library's value is a C string: it ends at the first NUL.
            let length = raw[value...].firstIndex(of: 0).map { $0 - value } ?? raw.count - value
            fields.append(HeadLayout.Field(name: name, value: name + value, valueLength: length))
            bytes += raw + Array(repeating: 0, count: end.utf8.count)
        }
        bytes += Array(repeating: 0, count: end.utf8.count)
        return (bytes, fields)
    }

    static func problem(_ lines: [String], end: String = "\r\n") -> HeadLayout.Problem? {
        let head = parsed(lines, end: end)
        return head.bytes.withUnsafeBytes { HeadLayout.problem(head: $0, fields: head.fields) }
    }

    @Test func cleanHeadsPass() {
        #expect(Self.problem([]) == nil)
        #expect(Self.problem(["Host: x"]) == nil)
        #expect(Self.problem(["Host: x", "Content-Length: 12", "X-Empty:", "X-Spaces:   ", "X-Tabs: \t v \t "]) == nil)
        #expect(Self.problem(["Host: x", "X-Note: a"], end: "\n") == nil)
    }

    @Test func aNULAnywhereInAValueIsFound() {
        #expect(Self.problem(["Host: x", "X-Note: a\u{0}b", "Accept: */*"]) == .hiddenBytes(field: 1))
        #expect(Self.problem(["Host: x", "X-Note: a\u{0}b"]) == .hiddenBytes(field: 1))
        #expect(Self.problem(["Host: x\u{0}"]) == .hiddenBytes(field: 0))
        #expect(Self.problem(["Authorization: Bearer \u{0}mrk_w_other", "Host: x"]) == .hiddenBytes(field: 0))
        #expect(Self.problem(["Host: x", "X-Note: a\u{0}b"], end: "\n") == .hiddenBytes(field: 1))
        // A NUL followed only by spaces still hides bytes the value does not count.
        #expect(Self.problem(["X-Note: a\u{0}  ", "Host: x"]) == .hiddenBytes(field: 0))
    }

    @Test func aFieldKeptOutsideTheHeadIsFolded() {
        let head = Self.parsed(["Host: x", "X-Note: a"])
        var fields = head.fields
        // The library joins a folded field into a copy elsewhere in its memory.
        fields[1] = HeadLayout.Field(name: 16_384, value: fields[1].value, valueLength: 1)
        let problem = head.bytes.withUnsafeBytes { HeadLayout.problem(head: $0, fields: fields) }
        #expect(problem == .folded(field: 1))
        fields[1] = HeadLayout.Field(name: fields[1].name, value: -40, valueLength: 9)
        #expect(head.bytes.withUnsafeBytes { HeadLayout.problem(head: $0, fields: fields) } == .folded(field: 1))
    }
}
