/// Writes the YAML linkwright's importer produces: block mappings and lists, flow lists for short
/// lists of names, scalars quoted only where YAML 1.2 would read them as something else.
enum YAMLWriter {
    /// A scalar as plain text when that reads back as the same string, else double-quoted.
    static func scalar(_ text: String) -> String {
        guard !text.isEmpty, YAMLScalar.resolvePlain(text) == .string else { return quoted(text) }
        let scalars = Array(text.unicodeScalars)
        let unsafeFirst: Set<Unicode.Scalar> = [
            "*", "?", "&", "!", "|", ">", "'", "\"", "%", "@", "`", "-", "[", "]", "{", "}", "#", ",", ":", " ",
        ]
        if unsafeFirst.contains(scalars[0]) || scalars.last == " " { return quoted(text) }
        let unsafe: Set<Unicode.Scalar> = ["#", ":", "[", "]", "{", "}", ",", "\"", "'", "\\", "\t", "\n", "\r"]
        if scalars.contains(where: { unsafe.contains($0) || PrintableText.isEscaped($0) }) { return quoted(text) }
        return text
    }

    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case _ where PrintableText.isEscaped(scalar):
                // YAML allows neither DEL nor C1 controls raw; bidi controls would reorder the
                // file as an editor or terminal shows it.
                let hex = String(scalar.value, radix: 16)
                out +=
                    scalar.value < 0x100
                    ? "\\x" + (hex.count == 1 ? "0" : "") + hex
                    : "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// `[a, b]`.
    static func flowList(_ items: [String]) -> String { "[" + items.map(scalar).joined(separator: ", ") + "]" }
}
