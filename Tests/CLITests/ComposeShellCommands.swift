/// Finds the `menurank ...` invocations in a small shell script (a compose `sh -c` command):
/// splits it into simple commands at newlines, `;`, `&&`, `||` and `|` outside quotes, reads each
/// into words (quotes removed), and keeps those whose command word is `menurank`, up to the first
/// redirection. Control words (`do`, `then`, ...) before the command word are skipped.
enum ComposeShellCommands {
    static func menurankInvocations(in script: String) -> [[String]] {
        var invocations: [[String]] = []
        for words in simpleCommands(script) {
            var rest = words[...]
            while let first = rest.first, ["do", "then", "else", "elif", "!", "{", "exec"].contains(first) {
                rest = rest.dropFirst()
            }
            guard rest.first == "menurank" else { continue }
            let arguments = rest.dropFirst().prefix { word in
                !(word.hasPrefix(">") || word.hasPrefix("<") || word.hasPrefix("2>") || word.hasPrefix("1>"))
            }
            invocations.append(Array(arguments))
        }
        return invocations
    }

    /// The words of each simple command of the script.
    static func simpleCommands(_ script: String) -> [[String]] {
        var commands: [[String]] = []
        var words: [String] = []
        var word = ""
        var inWord = false
        var quote: Character?
        var chars = Array(script)
        chars.append("\n")
        var i = 0
        func endWord() {
            if inWord { words.append(word) }
            word = ""
            inWord = false
        }
        func endCommand() {
            endWord()
            if !words.isEmpty { commands.append(words) }
            words = []
        }
        while i < chars.count {
            let c = chars[i]
            if let q = quote {
                if c == q {
                    quote = nil
                } else if q == "\"", c == "\\", i + 1 < chars.count {
                    i += 1
                    word.append(chars[i])
                } else {
                    word.append(c)
                }
            } else if c == "\"" || c == "'" {
                quote = c
                inWord = true
            } else if c == " " || c == "\t" {
                endWord()
            } else if c == "\n" || c == ";" {
                endCommand()
            } else if (c == "&" || c == "|"), i + 1 < chars.count, chars[i + 1] == c {
                endCommand()
                i += 1
            } else if c == "|" {
                endCommand()
            } else if c == "#", !inWord {
                while i + 1 < chars.count, chars[i + 1] != "\n" { i += 1 }
            } else {
                word.append(c)
                inWord = true
            }
            i += 1
        }
        return commands
    }
}
