/// Text from input placed in the Markdown tables of pull-request comments and release notes, so
/// that a value can neither end its cell or row nor bring in HTML or control characters. What
/// Markdown reserves is found byte by byte (`ASCIIEscaping`): a `|` or backtick followed by a
/// combining mark is still one to a Markdown parser.
public enum MarkdownText {
    /// Prose in a table cell or heading: escaped (`PrintableText`), `|` written as `\|` and `<`
    /// as `&lt;`.
    public static func cell(_ text: String) -> String {
        ASCIIEscaping.replacing(in: PrintableText.escaped(text)) { byte in
            switch byte {
            case UInt8(ascii: "|"): "\\|"
            case UInt8(ascii: "<"): "&lt;"
            default: nil
            }
        }
    }

    /// Prose from pull-request text (messages quoting YAML, reasons) for a pull-request comment or
    /// a job summary, where GitHub would render it: `cell`, with `[` and `]` escaped so no link
    /// or image forms, and a word joiner (U+2060) after each `@` and inside `://` and `www.`, so
    /// no one is mentioned and no address is linked. It reads the same.
    public static func inert(_ text: String) -> String {
        ASCIIEscaping.replacing(in: cell(text)) { byte in
            switch byte {
            case UInt8(ascii: "["): "\\["
            case UInt8(ascii: "]"): "\\]"
            case UInt8(ascii: "@"): "@\u{2060}"
            default: nil
            }
        }
        .replacing("://", with: ":\u{2060}//").replacing("www.", with: "www\u{2060}.")
        .replacing("WWW.", with: "WWW\u{2060}.")
    }

    /// A code span in a table cell, fenced with more backticks than any run inside `text` so it
    /// cannot be closed early (CommonMark), and with `|` escaped, which tables split on even
    /// inside code spans.
    public static func code(_ text: String) -> String {
        let content = ASCIIEscaping.replacing(in: PrintableText.escaped(text)) { $0 == UInt8(ascii: "|") ? "\\|" : nil }
        let (backtick, space) = (UInt8(ascii: "`"), UInt8(ascii: " "))
        var longestRun = 0
        var run = 0
        for byte in content.utf8 {
            run = byte == backtick ? run + 1 : 0
            longestRun = max(longestRun, run)
        }
        let fence = String(repeating: "`", count: longestRun + 1)
        // CommonMark drops one space at each end when both are there, and needs one next to a
        // fence whose content starts or ends with a backtick.
        let bytes = content.utf8
        let padded =
            bytes.first == backtick || bytes.last == backtick
            || (bytes.count > 1 && bytes.first == space && bytes.last == space)
        return padded ? fence + " " + content + " " + fence : fence + content + fence
    }
}
