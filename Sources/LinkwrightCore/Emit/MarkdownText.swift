/// Text from input placed in the Markdown tables of pull-request comments and release notes, so
/// that a value can neither end its cell or row nor bring in HTML or control characters.
public enum MarkdownText {
    /// Prose in a table cell or heading: escaped (`PrintableText`), `|` written as `\|` and `<`
    /// as `&lt;`.
    public static func cell(_ text: String) -> String {
        PrintableText.escaped(text).replacing("|", with: "\\|").replacing("<", with: "&lt;")
    }

    /// A code span in a table cell, fenced with more backticks than any run inside `text` so it
    /// cannot be closed early (CommonMark), and with `|` escaped, which tables split on even
    /// inside code spans.
    public static func code(_ text: String) -> String {
        let content = PrintableText.escaped(text).replacing("|", with: "\\|")
        var longestRun = 0
        var run = 0
        for character in content {
            run = character == "`" ? run + 1 : 0
            longestRun = max(longestRun, run)
        }
        let fence = String(repeating: "`", count: longestRun + 1)
        // CommonMark drops one space at each end when both are there, and needs one next to a
        // fence whose content starts or ends with a backtick.
        let padded =
            content.first == "`" || content.last == "`"
            || (content.count > 1 && content.first == " " && content.last == " ")
        return padded ? fence + " " + content + " " + fence : fence + content + fence
    }
}
