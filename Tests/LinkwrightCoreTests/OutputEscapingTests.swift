import Testing

@testable import LinkwrightCore

/// Every report format keeps values from input in their place: no new line, command, table row,
/// HTML or control character comes out of a value.
@Suite struct OutputEscapingTests {
    static let forged = "x\n::add-mask::secret\n::error file=x::forged\u{1B}]8;;http://evil\u{7}\u{202E}"

    /// A report whose every value from input carries the forged text.
    static var report: CheckReport {
        let finding = Finding(
            rule: "UNREACHABLE_RULE", severity: .error, message: "rule \(forged) <b>is</b> never reached",
            location: SourceLocation(file: "domains/a\n::error::b.yaml", line: 3, column: 5),
            hint: "hint \(forged)", witnesses: ["https://shop.example/\(forged)"], environment: "production",
            host: "shop.example", identity: ["x"])
        var approved = finding
        approved.approval = "reason \(forged)"
        let change = LinkChange(
            kind: .opensApp, environment: "production", host: "shop.example|\(forged)", platform: .ios,
            app: "app \(forged)", witnesses: ["https://shop.example/`a``b`|<img src=x>"])
        return CheckReport(
            base: nil, head: CheckReport.Revision(name: "working tree", commit: nil), findings: [finding, approved],
            changes: [change], notes: ["note \(forged)"])
    }

    static func hasRawControl(_ text: String, allowingNewlines: Bool) -> Bool {
        text.unicodeScalars.contains { PrintableText.isEscaped($0) && !(allowingNewlines && $0 == "\n") }
    }

    @Test func githubAnnotationsCannotBeForged() {
        let lines = GitHubAnnotations.render(Self.report).out.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 5, "\(lines)")
        #expect(
            lines[0].hasPrefix("::error file=domains/a\\n%3A%3Aerror%3A%3Ab.yaml,line=3,col=5,title=UNREACHABLE_RULE::")
        )
        #expect(lines[1].hasPrefix("::notice file="))
        #expect(lines[2].hasPrefix("::notice title=behaviour changes::"))
        #expect(lines[3] == "working tree: 1 blocking finding, 1 approved, 0 other findings, 1 behaviour change")
        #expect(lines[4].isEmpty)
        #expect(
            lines[0].contains(
                "rule x\\n::add-mask::secret\\n::error file=x::forged\\u{1B}]8;;http://evil\\u{7}\\u{202E}"))
        // Our own separators are the only encoded line breaks.
        #expect(lines[0].contains("%0Awitness: https://shop.example/x\\n::add-mask::"))
        #expect(!Self.hasRawControl(lines.joined(), allowingNewlines: false))
    }

    @Test func textReportLinesStayLines() {
        let text = Self.report.text(.plain).out
        #expect(!Self.hasRawControl(text, allowingNewlines: true))
        #expect(!text.split(separator: "\n").contains { $0.hasPrefix("::") })
        #expect(text.contains("domains/a\\n::error::b.yaml:3:5: error: rule x\\n::add-mask::secret"))
        #expect(text.contains("note: note x\\n::add-mask::secret"))
    }

    @Test func markdownRowsHoldTheirValues() {
        let markdown = MarkdownComment.render(Self.report)
        #expect(!Self.hasRawControl(markdown, allowingNewlines: true))
        let rows = markdown.split(separator: "\n").filter { $0.hasPrefix("|") }
        // Two findings and one change, each with its header and rule line.
        #expect(rows.count == 7, "\(rows)")
        #expect(markdown.contains("\\u{202E} &lt;b>is&lt;/b> never reached"))
        #expect(markdown.contains("| shop.example\\|x\\n::add-mask::secret"))
        #expect(markdown.contains("```https://shop.example/`a``b`\\|<img src=x>```"))
    }

    @Test func junitHoldsNoCharacterXMLForbids() {
        let junit = JUnitReport.render(Self.report).rendered()
        #expect(!Self.hasRawControl(junit, allowingNewlines: true))
        #expect(junit.contains("message=\"rule x\\n::add-mask::secret\\n::error file=x::forged\\u{1B}"))
    }

    @Test func jsonKeepsExactValuesInEscapes() throws {
        let value = "a\u{1B}b\u{7F}c\u{9B}d\u{202E}e\u{2028}f\n"
        let rendered = JSON.string(value).renderedCompact()
        #expect(rendered == #""a\u001bb\u007fc\u009bd\u202ee\u2028f\n""#)
        let (root, diagnostics) = JSONParser().parse(Array(rendered.utf8), file: "f.json")
        #expect(diagnostics.isEmpty)
        #expect(root?.value == .string(value))
        var bytes: [UInt8] = []
        var copy = value
        copy.withUTF8 { JSON.writeString(utf8: $0, to: &bytes) }
        #expect(String(decoding: bytes, as: UTF8.self) == rendered)
    }

    @Test func xmlAndMarkdownHelpers() {
        #expect(XMLText.printable("a\u{0}<b>\u{1B}&") == "a\\u{0}&lt;b&gt;\\u{1B}&amp;")
        #expect(MarkdownText.cell("a|b<i>\nc") == "a\\|b&lt;i>\\nc")
        #expect(MarkdownText.code("/a/*") == "`/a/*`")
        // Pull-request text in a comment: no image, link, mention or bare address comes alive.
        #expect(
            MarkdownText.inert("![x](https://e.example/p.png) [go](http://e.example) @octocat www.e.example")
                == "!\\[x\\](https:\u{2060}//e.example/p.png) \\[go\\](http:\u{2060}//e.example) @\u{2060}octocat www\u{2060}.e.example"
        )
        #expect(MarkdownText.code("a`b") == "``a`b``")
        #expect(MarkdownText.code("`a") == "`` `a ``")
        #expect(MarkdownText.code(" a ") == "`  a  `")
    }

    /// A combining mark joins the character before it into one `Character` (`<` + U+0338 is even
    /// canonically equal to `≮`), but parsers read the reserved byte: it is escaped all the same.
    @Test func reservedCharactersFollowedByCombiningMarksAreEscaped() {
        let (acute, longSolidus) = ("\u{301}", "\u{338}")
        #expect(
            XMLText.escaped("a<\(longSolidus)b&\(acute)c>\(longSolidus)\"\(acute)")
                == "a&lt;\(longSolidus)b&amp;\(acute)c&gt;\(longSolidus)&quot;\(acute)")
        #expect(XMLText.comment("a--\(acute)b---") == "a- -\(acute)b- - -")
        #expect(MarkdownText.cell("a|\(acute)b<\(longSolidus)") == "a\\|\(acute)b&lt;\(longSolidus)")
        #expect(MarkdownText.code("a|\(acute)") == "`a\\|\(acute)`")
        // The content's first byte is a backtick, however its Character reads.
        #expect(MarkdownText.code("`\(acute)a") == "`` `\(acute)a ``")
        #expect(MarkdownText.code("a``\(acute)b") == "```a``\(acute)b```")
        #expect(GitHubAnnotations.escapeData("a\r\nb%\(acute)") == "a%0D%0Ab%25\(acute)")
        #expect(GitHubAnnotations.escapeProperty("file=a,\(acute)b:\(acute)") == "file=a%2C\(acute)b%3A\(acute)")
    }
}
