#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A `POST /v1/events` body made of journal payloads, with the context its events share sent once.
///
/// Every payload ends with its context members (`app_version`, `platform`, `locale`, `is_test`,
/// in that order, as `EventPayload` writes them) right before its closing brace. When every event
/// of a batch ends with the same context members, they go into the batch's `context` once and are
/// cut from each event: the server applies a batch's `context` to each event that does not set the
/// field itself, so it stores exactly the rows it would have stored from the events as recorded.
/// That makes the library's bodies about a seventh smaller in `simulate` (326 -> 279 bytes per
/// event), and the daemon parses and checks the context once per batch instead of once per event.
///
/// Why cutting bytes is exact: in a flat JSON object of strings, numbers and booleans, `,"` occurs
/// only where a member starts (a quote inside a string is always escaped), so a payload that ends
/// with `,"platform":"iOS","locale":"de"}` ends with exactly those members, whatever came before.
/// The first payload's suffix is parsed member by member (context keys only, each once); the
/// others are compared with it byte for byte.
///
/// One difference remains: the server checks a batch `context` as a whole (a field too long there
/// is a 400 `invalid_batch`), where it rejects an event's own bad field alone. The client sends a
/// batch that got a 400 with its context shared again as recorded (`MenurankClient.deliver`), so
/// such an event is still rejected alone, with its own code.
enum BatchBody {
    /// The body for `payloads`, stamped `sentAtMillis`; `shareContext` false sends every payload
    /// as recorded. `sharedContext` says whether a shared context was sent once.
    static func make<Payloads: Collection>(_ payloads: Payloads, sentAtMillis: Int64, shareContext: Bool)
        -> (body: [UInt8], sharedContext: Bool) where Payloads.Element: RandomAccessCollection<UInt8>,
        Payloads.Element.Index == Int {
        var body: [UInt8] = []
        let shared = make(payloads, sentAtMillis: sentAtMillis, shareContext: shareContext, into: &body)
        return (body, shared)
    }

    /// The same, written over `body` (its storage reused).
    ///
    /// One pass over the payloads: each is copied into the body, and its copy (now in the cache)
    /// compared with the first payload's context members, which are then cut. Reading a payload
    /// twice (a comparison pass, then a copy pass) cost a cache miss per payload each time, since
    /// the journal's mapping was written on another thread's core. A payload whose context
    /// differs (rare: an app update mid-batch) makes the body start again with every payload as
    /// recorded.
    static func make<Payloads: Collection>(_ payloads: Payloads, sentAtMillis: Int64, shareContext: Bool,
                                           into body: inout [UInt8]) -> Bool
        where Payloads.Element: RandomAccessCollection<UInt8>, Payloads.Element.Index == Int {
        if shareContext, payloads.count > 1, let first = payloads.first, let found = contextSuffix(first) {
            let suffix = Array(found)
            if write(payloads, sentAtMillis: sentAtMillis, suffix: suffix, into: &body) { return true }
        }
        _ = write(payloads, sentAtMillis: sentAtMillis, suffix: nil, into: &body)
        return false
    }

    /// Writes the body with `suffix` (the context members with their leading comma) sent once as
    /// the batch's `context` and cut from every payload; false, leaving `body` to be written over,
    /// when some payload does not end with it.
    private static func write<Payloads: Collection>(_ payloads: Payloads, sentAtMillis: Int64, suffix: [UInt8]?,
                                                    into body: inout [UInt8]) -> Bool
        where Payloads.Element: RandomAccessCollection<UInt8>, Payloads.Element.Index == Int {
        let cut = suffix?.count ?? 0
        body.removeAll(keepingCapacity: true)
        var bound = 64 + cut
        for payload in payloads { bound += payload.count + 1 }
        body.reserveCapacity(bound)
        body.append(contentsOf: #"{"sent_at":""#.utf8)
        WireTime.append(sentAtMillis, to: &body)
        body.append(UInt8(ascii: "\""))
        if let suffix {
            body.append(contentsOf: #","context":{"#.utf8)
            body.append(contentsOf: suffix.dropFirst())
            body.append(UInt8(ascii: "}"))
        }
        body.append(contentsOf: #","events":["#.utf8)
        var first = true
        for payload in payloads {
            if !first { body.append(UInt8(ascii: ",")) }
            first = false
            let start = body.count
            append(payload, to: &body)
            guard let suffix else { continue }
            // At least `{"id":...` stays in front of the members, and the object closes last.
            guard body.count - start > cut + 2, body[body.count - 1] == UInt8(ascii: "}"),
                  endsWith(body, suffix, before: 1)
            else { return false }
            body.removeLast(cut + 1)
            body.append(UInt8(ascii: "}"))
        }
        body.append(contentsOf: "]}".utf8)
        return true
    }

    /// `payload`, copied whole where it lies in contiguous memory (a journal mapping, an array).
    @inline(__always)
    private static func append<Payload: RandomAccessCollection<UInt8>>(_ payload: Payload, to body: inout [UInt8]) {
        let copied: Void? = payload.withContiguousStorageIfAvailable { body.append(contentsOf: $0) }
        if copied == nil { body.append(contentsOf: payload) }
    }

    /// Whether `body`, without its last `before` bytes, ends with `suffix` (which it is longer
    /// than): one `memcmp`.
    @inline(__always)
    private static func endsWith(_ body: [UInt8], _ suffix: [UInt8], before: Int) -> Bool {
        body.withUnsafeBytes { bytes in
            suffix.withUnsafeBytes { expected in
                memcmp(bytes.baseAddress! + (bytes.count - before - suffix.count), expected.baseAddress!, suffix.count) == 0
            }
        }
    }

    private static let keys: [[UInt8]] = ["app_version", "platform", "locale", "is_test"].map { Array($0.utf8) }

    /// The context members at the end of one payload, from the first one's comma to before the
    /// closing brace; nil when there are none, or when anything else follows them.
    static func contextSuffix<Payload: RandomAccessCollection<UInt8>>(_ payload: Payload) -> Payload.SubSequence?
        where Payload.Index == Int {
        let comma = UInt8(ascii: ","), quote = UInt8(ascii: "\"")
        guard payload.count > 2, payload[payload.endIndex - 1] == UInt8(ascii: "}") else { return nil }
        let end = payload.endIndex - 1
        var start: Int?
        var at = payload.startIndex
        while at + 1 < end {
            if payload[at] == comma, payload[at + 1] == quote, key(in: payload, at: at + 2) != nil {
                start = at
                break
            }
            at += 1
        }
        guard let start else { return nil }
        // Member by member, context keys only, each once, up to the closing brace.
        var seen = 0
        at = start
        while at < end {
            guard payload[at] == comma, at + 1 < end, payload[at + 1] == quote,
                  let (index, valueStart) = key(in: payload, at: at + 2), seen & (1 << index) == 0
            else { return nil }
            seen |= 1 << index
            if index == 3 {
                guard let after = literal(in: payload, at: valueStart, end: end) else { return nil }
                at = after
            } else {
                guard let after = string(in: payload, at: valueStart, end: end) else { return nil }
                at = after
            }
        }
        return at == end ? payload[start..<end] : nil
    }

    /// Which context key starts at `at` (after its opening quote), and where its value starts.
    private static func key<Payload: RandomAccessCollection<UInt8>>(in payload: Payload, at: Int) -> (Int, Int)?
        where Payload.Index == Int {
        for (index, key) in keys.enumerated() {
            let keyEnd = at + key.count
            guard keyEnd + 2 <= payload.endIndex, payload[at..<keyEnd].elementsEqual(key),
                  payload[keyEnd] == UInt8(ascii: "\""), payload[keyEnd + 1] == UInt8(ascii: ":")
            else { continue }
            return (index, keyEnd + 2)
        }
        return nil
    }

    /// The index after a JSON string starting at `at`.
    private static func string<Payload: RandomAccessCollection<UInt8>>(in payload: Payload, at: Int, end: Int) -> Int?
        where Payload.Index == Int {
        guard at < end, payload[at] == UInt8(ascii: "\"") else { return nil }
        var i = at + 1
        while i < end {
            switch payload[i] {
            case UInt8(ascii: "\\"): i += 2
            case UInt8(ascii: "\""): return i + 1
            default: i += 1
            }
        }
        return nil
    }

    /// The index after `true` or `false` at `at`.
    private static func literal<Payload: RandomAccessCollection<UInt8>>(in payload: Payload, at: Int, end: Int) -> Int?
        where Payload.Index == Int {
        for word in ["true", "false"] {
            let bytes = word.utf8
            if at + bytes.count <= end, payload[at..<(at + bytes.count)].elementsEqual(bytes) { return at + bytes.count }
        }
        return nil
    }
}
