import Escaping

/// How a piece of terminal text is shown when colour is on (ANSI SGR codes).
enum TextStyle: Sendable {
    case plain, bold, dim, red, boldRed, green, yellow, blue, cyan

    private var code: String? {
        switch self {
        case .plain: return nil
        case .bold: return "1"
        case .dim: return "2"
        case .red: return "31"
        case .boldRed: return "1;31"
        case .green: return "32"
        case .yellow: return "33"
        case .blue: return "34"
        case .cyan: return "36"
        }
    }

    /// `text` (as `TerminalText.visible` shows it) wrapped in the style's escape codes when
    /// `colour` is on.
    func apply(_ text: String, colour: Bool) -> String {
        let text = TerminalText.visible(text)
        guard colour, let code, !text.isEmpty else { return text }
        return "\u{1B}[" + code + "m" + text + "\u{1B}[0m"
    }
}
