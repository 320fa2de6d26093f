/// Builders for request bodies used across the Events tests.
enum SampleBodies {
    static let id0 = "0193a4c2-6f1e-7c3a-9d2b-4e5f60718293"

    /// The fields of a valid select event as raw JSON texts, in document order.
    static func eventFields(id: String = id0, time: String = "2026-11-29T09:59:58.120Z") -> [(String, String)] {
        [
            ("id", "\"\(id)\""), ("time", "\"\(time)\""), ("element_type", #""mail.message""#),
            ("command", #""reply""#), ("kind", #""select""#), ("position", "0"), ("latency_ms", "840"),
            ("menu_version", #""2026.11.1""#), ("user", #""5d41402abc4b2a76""#), ("session", #""s-81""#),
            ("trigger", #""long_press""#),
        ]
    }

    /// A valid event with some members replaced (raw JSON text) or removed (nil).
    static func event(_ changes: [String: String?] = [:], id: String = id0) -> String {
        var fields = eventFields(id: id)
        for (key, value) in changes {
            if let i = fields.firstIndex(where: { $0.0 == key }) {
                if let value { fields[i].1 = value } else { fields.remove(at: i) }
            } else if let value {
                fields.append((key, value))
            }
        }
        return "{" + fields.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
    }

    static func batch(_ events: [String], context: String? = nil, sentAt: String? = nil) -> String {
        var members: [String] = []
        if let sentAt { members.append(#""sent_at": "\#(sentAt)""#) }
        if let context { members.append(#""context": \#(context)"#) }
        members.append(#""events": [\#(events.joined(separator: ",\n"))]"#)
        return "{" + members.joined(separator: ",\n") + "}"
    }

    /// A UUID string for event number `n`.
    static func uuid(_ n: Int) -> String {
        let hex = String(n, radix: 16)
        return "0193a4c2-6f1e-7c3a-9d2b-" + String(repeating: "0", count: 12 - hex.count) + hex
    }

    /// A realistic batch of `count` events: varied element types, commands, kinds and optional fields.
    static func realisticBatch(count: Int) -> String {
        let elements = ["mail.message", "mail.thread", "files.folder", "photos.asset", "ProjectViewPopupMenu"]
        let commands = ["reply", "forward", "archive", "$Copy", "workbench.action.files.save", "CopyReference", "delete"]
        let triggers = ["long_press", "right_click", "keyboard"]
        var events: [String] = []
        events.reserveCapacity(count)
        for i in 0..<count {
            let second = 10 + i % 50
            let millis = (i * 37) % 1000
            let ms = String(repeating: "0", count: 3 - String(millis).count) + String(millis)
            var e = #"{"id":"\#(uuid(i))","time":"2026-11-29T09:59:\#(second).\#(ms)Z","element_type":"\#(elements[i % elements.count])","#
            if i % 13 == 0 {
                e += #""kind":"dismiss","#
            } else {
                e += #""command":"\#(commands[i % commands.count])","kind":"select","position":\#(i % 9),"#
            }
            e += #""latency_ms":\#(300 + i % 2000),"menu_version":"2026.11.\#(i % 3)","user":"u-\#(i % 97)-5d41402abc4b2a76","session":"s-\#(i % 11)","trigger":"\#(triggers[i % 3])"}"#
            events.append(e)
        }
        return batch(events, context: #"{"app_version":"5.2.1","platform":"iOS 18.1","locale":"ru_RU","is_test":false}"#,
                     sentAt: "2026-11-29T10:00:05.120Z")
    }
}
