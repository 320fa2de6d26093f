import TestSupport

/// Random text that tries what an attacker would: markup characters next to scalars that join
/// them into one grapheme cluster (Prepend marks such as U+0600, combining marks, ZWJ, variation
/// selectors, Hangul jamo, regional indicators), links and mentions, controls and bidi formatting
/// characters, and any scalar of the BMP or the astral planes.
enum RandomText {
    static let markup: [String] = ["<", ">", "&", "\"", "'", "=", "/", "`", "``", "```", "*", "_", "[", "]", "(", ")",
                                   "!", "#", "|", "~", "@", ":", ".", "\\", "-", "+", " ", "\n", "\t", "{", "}", "$", "^"]
    static let words: [String] = ["<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "\" onmouseover=\"x",
                                  "' autofocus '", "&lt;", "&#60;", "&#x3C;", "<!--", "-->", "<![CDATA[", "</p>",
                                  "https://evil.example/login", "http://x.y", "www.evil.example", "a@b.example",
                                  "@everyone", "@here", "[click](https://evil.example)", "![i](x)", "<https://x.y>",
                                  "<b>", "**bold**", "~~s~~", "| cell |", "# heading", "> quote", "1. item",
                                  "    code", "[^1]", "javascript:alert(1)", "\u{202E}txt.exe", "\u{1B}[31m"]
    /// Scalars of Unicode's Grapheme_Cluster_Break=Prepend class, and others that glue.
    static let gluing: [UInt32] = [0x0600, 0x0601, 0x0602, 0x0603, 0x0604, 0x0605, 0x06DD, 0x070F, 0x0890, 0x0891,
                                   0x08E2, 0x0D4E, 0x110BD, 0x110CD, 0x111C2, 0x111C3, 0x1193F, 0x11941, 0x11A3A,
                                   0x11A84, 0x11A89, 0x11D46, 0x200D, 0xFE0F, 0xFE00, 0x1100, 0x1161, 0x11A8,
                                   0x1F1E6, 0x1F1FA, 0x1F469, 0x034F]
    static let formatting: [UInt32] = [0x01, 0x07, 0x08, 0x0B, 0x0C, 0x1B, 0x7F, 0x80, 0x85, 0x9B, 0x9F, 0x061C,
                                       0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067,
                                       0x2068, 0x2069, 0x2028, 0x2029, 0xFEFF, 0xFFFD]

    /// One random text of 0-`maxPieces` pieces. No NUL and no CR: an HTML parser's input stream
    /// drops or rewrites those before tokenizing, which says nothing about structure.
    static func next(_ random: inout SplitMix64, maxPieces: Int = 24) -> String {
        var out = String.UnicodeScalarView()
        for _ in 0..<random.int(0...maxPieces) {
            switch random.int(0...9) {
            case 0, 1: out.append(contentsOf: markup[random.int(0...(markup.count - 1))].unicodeScalars)
            case 2: out.append(contentsOf: words[random.int(0...(words.count - 1))].unicodeScalars)
            case 3, 4: out.append(Unicode.Scalar(gluing[random.int(0...(gluing.count - 1))])!)
            case 5: out.append(Unicode.Scalar(formatting[random.int(0...(formatting.count - 1))])!)
            case 6: out.append(Unicode.Scalar(UInt32(random.int(0x0300...0x036F)))!)  // combining marks
            case 7: out.append(Unicode.Scalar(UInt32(random.int(0x61...0x7A)))!)
            case 8: out.append(scalar(random.int(0x20...0xFFFD)))
            default: out.append(scalar(random.int(0x10000...0x10FFFF)))
            }
        }
        return String(out)
    }

    private static func scalar(_ value: Int) -> Unicode.Scalar {
        Unicode.Scalar(UInt32(value)) ?? "\u{FFFD}"  // surrogates are not scalars
    }
}
