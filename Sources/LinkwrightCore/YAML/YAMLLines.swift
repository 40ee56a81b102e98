/// Text cut into lines where libyaml counts a line break, each line keeping its own break.
///
/// libyaml ends a line at CR LF, LF, CR, NEL (U+0085), LS (U+2028) and PS (U+2029) (`IS_BREAK`
/// and `SKIP_LINE` in its `yaml_private.h`), so these lines are numbered as the parser's marks
/// are, and they join back into the text byte for byte. Splitting a `String` at `"\n"` does
/// neither: CR LF is one `Character`, equal to no `"\n"`, so a file saved on Windows would be
/// one line, and a U+2028 in a comment would shift every later line by one.
public struct YAMLLines: Sendable {
    public struct Line: Sendable, Equatable {
        /// The line without its break, as scalars: libyaml's columns count scalars.
        public var content: [Unicode.Scalar]
        /// What ended the line: `""` for a last line without a break.
        public var lineBreak: String

        public init(content: [Unicode.Scalar], lineBreak: String) {
            self.content = content
            self.lineBreak = lineBreak
        }

        public var text: String { String(String.UnicodeScalarView(content)) }
    }

    /// Every line of the text; a text ending with a break has no empty line after it.
    public var lines: [Line]
    /// U+FEFF when the text starts with it: libyaml reads it as the encoding's mark, not as part
    /// of the first line, whose columns start after it.
    public var byteOrderMark: String

    public init(lines: [Line], byteOrderMark: String = "") {
        self.lines = lines
        self.byteOrderMark = byteOrderMark
    }

    public init(_ text: String) {
        var lines: [Line] = []
        var content: [Unicode.Scalar] = []
        var scalars = text.unicodeScalars.makeIterator()
        var pending = scalars.next()
        byteOrderMark = pending == "\u{FEFF}" ? "\u{FEFF}" : ""
        if !byteOrderMark.isEmpty { pending = scalars.next() }
        while let scalar = pending {
            pending = scalars.next()
            switch scalar {
            case "\r" where pending == "\n":
                pending = scalars.next()
                lines.append(Line(content: content, lineBreak: "\r\n"))
            case "\r", "\n", "\u{85}", "\u{2028}", "\u{2029}":
                lines.append(Line(content: content, lineBreak: String(scalar)))
            default:
                content.append(scalar)
                continue
            }
            content = []
        }
        if !content.isEmpty || lines.isEmpty { lines.append(Line(content: content, lineBreak: "")) }
        self.lines = lines
    }

    /// The break the text's lines end with, for lines added to it: its first, else LF.
    public var lineBreak: String { lines.first { !$0.lineBreak.isEmpty }?.lineBreak ?? "\n" }

    /// The text again.
    public var text: String { byteOrderMark + lines.map { $0.text + $0.lineBreak }.joined() }
}
