import JSON

/// The body of a `200` answer to `POST /v1/events`:
/// `{"accepted":N,"duplicates":D,"rejected":[{"index":i,"id":"…","code":"…","message":"…"}],"server_time":"…"}`.
/// Built straight into bytes; `id` is omitted for a rejected event whose id could not be read.
public struct IngestResponse: Sendable, Hashable {
    /// Events newly stored.
    public var accepted: Int
    /// Events already stored by an earlier delivery of the same batch (same app and id).
    public var duplicates: Int
    public var rejected: [EventRejection]
    /// Microseconds since the epoch.
    public var serverTime: Int64

    public init(accepted: Int, duplicates: Int, rejected: [EventRejection], serverTime: Int64) {
        self.accepted = accepted
        self.duplicates = duplicates
        self.rejected = rejected
        self.serverTime = serverTime
    }

    public func jsonBytes() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(96 + rejected.count * 160)
        out.append(contentsOf: #"{"accepted":"#.utf8)
        JSONWriter.appendInteger(Int64(accepted), to: &out)
        out.append(contentsOf: #","duplicates":"#.utf8)
        JSONWriter.appendInteger(Int64(duplicates), to: &out)
        out.append(contentsOf: #","rejected":["#.utf8)
        for (i, r) in rejected.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: #"{"index":"#.utf8)
            JSONWriter.appendInteger(Int64(r.index), to: &out)
            if let id = r.id {
                out.append(contentsOf: #","id":"#.utf8)
                JSONWriter.appendQuoted(id, to: &out)
            }
            out.append(contentsOf: #","code":"#.utf8)
            JSONWriter.appendQuoted(r.code.rawValue, to: &out)
            out.append(contentsOf: #","message":"#.utf8)
            JSONWriter.appendQuoted(r.message, to: &out)
            out.append(UInt8(ascii: "}"))
        }
        out.append(contentsOf: #"],"server_time":""#.utf8)
        RFC3339.append(serverTime, fractionDigits: 3, to: &out)
        out.append(contentsOf: "\"}".utf8)
        return out
    }

    public var jsonText: String { String(decoding: jsonBytes(), as: UTF8.self) }
}
