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

    /// Text for inside an XML comment, where `--` is not allowed.
    static func comment(_ text: String) -> String {
        var text = text
        while text.contains("--") { text = text.replacing("--", with: "- -") }
        return text
    }
}
