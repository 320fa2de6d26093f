import JSON

extension BatchError {
    /// The response body `{"error":code,"message":…}`; an `invalid_json` error also carries
    /// `offset`, `line` and `column` so the client can find the spot.
    public func jsonBytes() -> [UInt8] {
        var out: [UInt8] = []
        out.append(contentsOf: #"{"error":"#.utf8)
        JSONWriter.appendQuoted(kind.code, to: &out)
        out.append(contentsOf: #","message":"#.utf8)
        JSONWriter.appendQuoted(message, to: &out)
        if let offset, let line, let column {
            out.append(contentsOf: #","offset":"#.utf8)
            JSONWriter.appendInteger(Int64(offset), to: &out)
            out.append(contentsOf: #","line":"#.utf8)
            JSONWriter.appendInteger(Int64(line), to: &out)
            out.append(contentsOf: #","column":"#.utf8)
            JSONWriter.appendInteger(Int64(column), to: &out)
        }
        out.append(UInt8(ascii: "}"))
        return out
    }

    public var jsonText: String { String(decoding: jsonBytes(), as: UTF8.self) }
}
