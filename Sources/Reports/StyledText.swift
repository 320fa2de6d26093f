/// A cell of terminal text with its style; widths are measured on `text`, never on escape codes.
struct StyledText: Sendable {
    var text: String
    var style: TextStyle

    init(_ text: String, _ style: TextStyle = .plain) {
        self.text = text
        self.style = style
    }

    var width: Int { DisplayWidth.of(text) }
}
