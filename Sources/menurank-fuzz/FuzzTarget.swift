import CivilTime
import Escaping
import Events
import HTTP
import Menus

/// The parsers that read what a client or a user hands menurank, each run on arbitrary bytes. A
/// crash, a trap (overflow, out-of-range index) or a broken invariant (checked with `precondition`,
/// so it stops the fuzzer) is a finding; an error thrown for bad input is the expected outcome.
enum FuzzTarget: String, CaseIterable {
    /// `POST /v1/events` bodies: the batch decoder, then the time policy; and the same bytes as
    /// JSON Lines (`menurank import`).
    case batch
    /// RFC 3339 timestamps; a parsed time formats back to text that parses to the same time.
    case rfc3339
    /// Menu manifests (`menurank menus import`, `menurank lint`), then the linter.
    case manifest
    /// gzip request bodies, inflated under a limit that inflation never passes.
    case gzip
    /// `HTMLText.escaped` on any text: the output holds no `<`, `>`, `"` or `'` (so no HTML
    /// tokenizer can start a tag or leave an attribute value), every `&` starts one of the five
    /// references, and undoing them gives the input back byte for byte.
    case html
    /// `MarkdownText.code` and `.escaped` on any text: the code span closes exactly where it ends
    /// and holds the text; the escaped text has no unescaped punctuation, no line break and no
    /// `@` without the word joiner after it.
    case markdown
    /// `TerminalText.visible` and `FreeText`: the visible text holds no refused scalar, and the
    /// byte-level check of the ingest path agrees with the scalar-level rule on every input.
    case terminal

    static let receivedAt = UTCTimestamp(microsecondsSince1970: 1_795_946_405_120_000)

    func run(_ bytes: [UInt8]) {
        switch self {
        case .batch:
            if let batch = try? EventBatchDecoder().decode(bytes) {
                let checked = EventPolicy().apply(to: batch, receivedAt: Self.receivedAt)
                precondition(checked.events.count + checked.rejections.count == batch.events.count + batch.rejections.count,
                             "the policy lost or invented an event")
                for event in checked.events {
                    _ = event.partitionDayNumber
                }
            }
            _ = JSONLinesDecoder().decode(bytes)
        case .rfc3339:
            let text = String(decoding: bytes, as: UTF8.self)
            if let time = RFC3339.parse(text) {
                let formatted = RFC3339.format(time, fractionDigits: 6)
                precondition(RFC3339.parse(formatted) == time, "\(text) -> \(time) -> \(formatted) does not round-trip")
                _ = RFC3339.dayNumber(of: time)
            }
        case .manifest:
            if let document = try? ManifestParser.load(bytes: bytes) {
                _ = ManifestLinter().lint(document)
            }
        case .gzip:
            let limit = 1 << 16
            if let inflated = try? Gzip.inflate(bytes, limit: limit) {
                precondition(inflated.count <= limit, "inflated past the limit")
            }
        case .html:
            EscaperInvariants.html(String(decoding: bytes, as: UTF8.self))
        case .markdown:
            EscaperInvariants.markdown(String(decoding: bytes, as: UTF8.self))
        case .terminal:
            EscaperInvariants.terminal(String(decoding: bytes, as: UTF8.self))
        }
    }
}
