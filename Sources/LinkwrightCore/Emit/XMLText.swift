/// Escaping for XML text and attribute values.
public enum XMLText {
    public static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(character)
            }
        }
        return out
    }

    /// Text from input for a report (JUnit, HTML): `escaped` after `PrintableText.escaped`. XML
    /// 1.0 cannot hold most control characters at all, not even as character references, and a
    /// report is read on terminals too; artifacts keep `escaped`, which changes no value.
    public static func printable(_ text: String) -> String { escaped(PrintableText.escaped(text)) }

    /// Text for inside an XML comment, where `--` is not allowed.
    static func comment(_ text: String) -> String {
        var text = text
        while text.contains("--") { text = text.replacing("--", with: "- -") }
        return text
    }
}
