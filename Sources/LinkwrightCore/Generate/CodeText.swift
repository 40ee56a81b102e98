/// Source text built line by line, with the header every generated file starts with.
struct CodeText {
    /// A string literal holding `text` exactly: `escapes` spells the characters that need an
    /// escape, and `escaped` every scalar outside printable ASCII.
    static func literal(
        _ text: String, escapes: [Unicode.Scalar: String], escaped: (Unicode.Scalar) -> String
    ) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            if let escape = escapes[scalar] {
                out += escape
            } else if scalar.value < 0x20 || scalar.value >= 0x7F {
                out += escaped(scalar)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    private(set) var text = ""

    mutating func line(_ line: String) { text += line + "\n" }
    mutating func blank() { text += "\n" }
    mutating func text(_ block: String) { text += block }

    /// Names the configuration files and the command that regenerates the file.
    mutating func header(sourceFiles files: [String], command: String, comment: String) {
        var words = ["Generated", "by", "linkwright", "from"]
        for (index, file) in files.enumerated() {
            let separator = index == files.count - 1 ? "." : index == files.count - 2 ? " and" : ","
            words.append(file + separator)
        }
        words += ["Do", "not", "edit:", "change", "the", "configuration", "and", "run"]
        var current = comment
        for word in words {
            if current.count + 1 + word.count > SwiftRouterWriter.lineLength - 20 {
                line(current)
                current = comment
            }
            current += " " + word
        }
        line(current)
        line("\(comment)   \(command)")
        line("\(comment) again.")
        blank()
    }

    /// An array literal as swift-format writes it: on one line when it fits, else one line per
    /// run of items that fits, indented, with a comma after the last.
    mutating func array(_ items: [String], opening: String, closing: String) {
        let single = opening + "[" + items.joined(separator: ", ") + "]" + closing
        if single.count <= SwiftRouterWriter.lineLength {
            line(single)
            return
        }
        let indent = String(opening.prefix { $0 == " " })
        line(opening + "[")
        var current = ""
        for item in items.map({ $0 + "," }) {
            if !current.isEmpty && indent.count + 4 + current.count + 1 + item.count > SwiftRouterWriter.lineLength {
                line(indent + "    " + current)
                current = ""
            }
            current += (current.isEmpty ? "" : " ") + item
        }
        line(indent + "    " + current)
        line(indent + "]" + closing)
    }

    /// `items` separated by commas, as many to a line as fit: `first` opens, `last` closes.
    mutating func wrapped(_ items: [String], first: String, continuation: String, last: String) {
        let single = first + items.joined(separator: ", ") + last
        if single.count <= SwiftRouterWriter.lineLength {
            line(single)
            return
        }
        var current = first
        for (index, item) in items.enumerated() {
            let piece = item + (index == items.count - 1 ? "" : ",")
            if current != first && current.count + 1 + piece.count > SwiftRouterWriter.lineLength {
                line(current)
                current = continuation + piece
            } else {
                current += (current == first ? "" : " ") + piece
            }
        }
        line(current + last)
    }
}
