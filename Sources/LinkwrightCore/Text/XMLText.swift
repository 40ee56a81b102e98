/// Escaping for XML text and attribute values, byte by byte (`ASCIIEscaping`: a `<` or `&`
/// followed by a combining mark is still a `<` or `&` to an XML parser).
public enum XMLText {
    public static func escaped(_ text: String) -> String {
        ASCIIEscaping.replacing(in: text) { byte in
            switch byte {
            case UInt8(ascii: "&"): "&amp;"
            case UInt8(ascii: "<"): "&lt;"
            case UInt8(ascii: ">"): "&gt;"
            case UInt8(ascii: "\""): "&quot;"
            default: nil
            }
        }
    }

    /// Text from input for a report (JUnit, HTML): `escaped` after `PrintableText.escaped`. XML
    /// 1.0 cannot hold most control characters at all, not even as character references, and a
    /// report is read on terminals too; artifacts keep `escaped`, which changes no value.
    public static func printable(_ text: String) -> String { escaped(PrintableText.escaped(text)) }

    /// Text for inside an XML comment, where `--` is not allowed.
    static func comment(_ text: String) -> String {
        // A space between every two adjacent `-` bytes: matching the String "--" would miss one
        // followed by a combining mark, a different Character.
        let hyphen = UInt8(ascii: "-")
        var bytes: [UInt8] = []
        for byte in text.utf8 {
            if byte == hyphen && bytes.last == hyphen { bytes.append(UInt8(ascii: " ")) }
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
