import Foundation

/// A 2xx answer to `POST /v1/events`, parsed once: the counts for the request report, and the
/// per-event rejections to report and remove.
struct Acknowledgement {
    var accepted = 0
    var duplicates = 0
    /// Every entry's code, as the server listed them.
    var rejectionCodes: [String] = []
    /// The entries that name an event of the batch: its index, code and message.
    var rejections: [(Int, String, String)] = []

    init(parsing body: [UInt8], events: Int) {
        if let (accepted, duplicates) = Self.withoutRejections(body) {
            self.accepted = accepted
            self.duplicates = duplicates
            return
        }
        guard !body.isEmpty, let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else {
            return
        }
        accepted = object["accepted"] as? Int ?? 0
        duplicates = object["duplicates"] as? Int ?? 0
        for entry in object["rejected"] as? [[String: Any]] ?? [] {
            rejectionCodes.append(entry["code"] as? String ?? "unknown")
            guard let index = entry["index"] as? Int, index >= 0, index < events else { continue }
            rejections.append((index, entry["code"] as? String ?? "rejected", entry["message"] as? String ?? ""))
        }
    }

    /// The counts of the answer as the daemon writes it when it rejected nothing, which is almost
    /// every answer: `{"accepted":N,"duplicates":D,"rejected":[],` then anything. Read without
    /// `JSONSerialization` (a tenth of a delivery thread's CPU); nil for any other shape, which
    /// the full parse handles.
    static func withoutRejections(_ body: [UInt8]) -> (accepted: Int, duplicates: Int)? {
        body.withUnsafeBufferPointer { bytes -> (Int, Int)? in
            var at = 0
            func literal(_ text: StaticString) -> Bool {
                let count = text.utf8CodeUnitCount
                guard at + count <= bytes.count, memcmp(bytes.baseAddress! + at, text.utf8Start, count) == 0 else {
                    return false
                }
                at += count
                return true
            }
            func number() -> Int? {
                var value = 0
                let start = at
                while at < bytes.count, at - start < 18, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[at]) {
                    value = value * 10 + Int(bytes[at] - UInt8(ascii: "0"))
                    at += 1
                }
                return at > start ? value : nil
            }
            guard literal(#"{"accepted":"#), let accepted = number(), literal(#","duplicates":"#),
                  let duplicates = number(), literal(#","rejected":[],"#)
            else { return nil }
            return (accepted, duplicates)
        }
    }
}
