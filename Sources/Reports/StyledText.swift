import Escaping

/// A cell of terminal text with its style; widths are measured on `text`, never on escape codes.
/// The text is kept as `TerminalText.visible` shows it: no control or bidi formatting character of
/// the data reaches the terminal.
struct StyledText: Sendable {
    var text: String
    var style: TextStyle

    init(_ text: String, _ style: TextStyle = .plain) {
        self.text = TerminalText.visible(text)
        self.style = style
    }

    var width: Int { DisplayWidth.of(text) }
}
