import LinkwrightCore
import Testing

/// `YAMLLines` numbers lines as libyaml does: the parser's own marks are the oracle.
@Suite struct YAMLLinesTests {
    static let breaks = ["\n", "\r\n", "\r", "\u{85}", "\u{2028}", "\u{2029}"]

    /// Every key the parser locates starts at its line and column in `YAMLLines`, whatever
    /// breaks end the lines, whatever comments hold and with or without a byte order mark; the
    /// lines join back into the text.
    @Test func everyKeyIsWhereTheParserPutsIt() throws {
        var random = SplitMix64(seed: 19)
        for _ in 0..<200 {
            var text = ""
            var keys: [String] = []
            for index in 0..<Int.random(in: 1...12, using: &random) {
                let key = "k\(index)" + (Bool.random(using: &random) ? "é" : "")
                keys.append(key)
                let comment =
                    Bool.random(using: &random)
                    ? " # note\(Self.breaks.randomElement(using: &random)!)# more" : ""
                text += "\(key): v\(index)\(comment)\(Self.breaks.randomElement(using: &random)!)"
            }
            if Bool.random(using: &random) { text.unicodeScalars.removeLast() }
            // A byte order mark is the encoding's, not the first line's: columns start after it.
            if Int.random(in: 0..<4, using: &random) == 0 { text = "\u{FEFF}" + text }
            let (root, diagnostics) = YAMLParser().parse(Array(text.utf8), file: "f.yaml")
            #expect(diagnostics.isEmpty, "\(diagnostics)")
            guard case .mapping(let pairs) = root?.content else {
                Issue.record("not a mapping: \(text.debugDescription)")
                continue
            }
            #expect(pairs.map(\.key.value) == keys)
            let lines = YAMLLines(text)
            #expect(lines.text == text)
            for pair in pairs {
                let line = lines.lines[pair.key.location.line - 1].content
                let start = pair.key.location.column - 1
                let found = line[start..<min(line.count, start + pair.key.value.unicodeScalars.count)]
                #expect(Array(found) == Array(pair.key.value.unicodeScalars), "\(text.debugDescription)")
            }
        }
    }

    @Test func aTextEndingWithABreakHasNoEmptyLastLine() {
        #expect(YAMLLines("a\r\nb\r\n").lines.map(\.text) == ["a", "b"])
        #expect(YAMLLines("a\r\nb\r\n").lineBreak == "\r\n")
        #expect(YAMLLines("a\n\nb").lines.map(\.lineBreak) == ["\n", "\n", ""])
        #expect(YAMLLines("").lines.map(\.text) == [""])
        #expect(YAMLLines("a").lineBreak == "\n")
    }
}
