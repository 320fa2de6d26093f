import Escaping
import TestSupport
import Testing

/// The one JSON string rule: each escape by hand, and the String and byte writers agreeing on random
/// text (they are the same rule written for two kinds of buffer).
@Suite struct JSONTextTests {
    @Test(arguments: [
        ("plain é €", #""plain é €""#),
        ("q\"b\\s/", #""q\"b\\s/""#),
        ("\n\r\t\u{08}\u{0C}", #""\n\r\t\b\f""#),
        ("nul\u{0}x\u{1F}\u{7F}", "\"nul\\u0000x\\u001f\u{7F}\""),
        ("", #""""#),
    ])
    func quotes(_ text: String, _ expected: String) {
        #expect(JSONText.quoted(text) == expected)
        var bytes: [UInt8] = []
        JSONText.appendQuoted(text, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == expected)
    }

    @Test func deleteIsEscapedOnlyWhenAsked() {
        var out = ""
        JSONText.appendQuoted("a\u{7F}\u{7}", to: &out, escapingDelete: true)
        #expect(out == #""a\u007f\u0007""#)
    }

    @Test func stringAndBytesAgreeOnRandomText() {
        var random = SplitMix64(seed: 31)
        for _ in 0..<2000 {
            let text = RandomText.next(&random)
            var bytes: [UInt8] = []
            JSONText.appendQuoted(text, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == JSONText.quoted(text), "\(String(reflecting: text))")
        }
    }
}
