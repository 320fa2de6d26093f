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
}
