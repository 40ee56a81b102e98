/// Prose wrapped to a terminal's width at spaces; with no width, text stays as written (the
/// help's source keeps lines under 100 columns, for pipes and files).
struct TextWrapping {
    /// Columns available, or `nil` to keep the text's own lines.
    let width: Int?

    /// `prefix` then `body`'s words, as many as fit on each line, the lines after the first
    /// indented by `indent` spaces. A word longer than a line stands alone on its line.
    func paragraph(_ body: String, after prefix: String = "", indent: Int = 0) -> String {
        guard let width else { return prefix + body }
        var lines: [String] = []
        var line = prefix
        var lineHasWord = false
        for word in body.split(separator: " ") {
            if lineHasWord && line.count + 1 + word.count > width {
                lines.append(line)
                line = String(repeating: " ", count: indent) + word
            } else {
                line += (lineHasWord ? " " : "") + word
            }
            lineHasWord = true
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }

    /// Paragraphs separated by blank lines, each wrapped; lines that start with a space (a
    /// command, a layout) are kept as written.
    func prose(_ text: String) -> String {
        guard width != nil else { return text }
        var output: [String] = []
        var sentences: [Substring] = []
        func finish() {
            if !sentences.isEmpty { output.append(paragraph(sentences.joined(separator: " "))) }
            sentences = []
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.isEmpty || line.hasPrefix(" ") {
                finish()
                output.append(String(line))
            } else {
                sentences.append(line)
            }
        }
        finish()
        return output.joined(separator: "\n")
    }
}
