import LinkwrightCore
import Testing

@Suite struct PrintableTextTests {
    @Test func leavesOrdinaryTextAsItIs() {
        for text in ["", "museo.example", "/tickets/*?q=$(id)", "ñandú → 🇪🇸", "a\\nb", "C:\\path"] {
            #expect(PrintableText.escaped(text) == text)
        }
    }

    @Test func writesC0ControlsVisibly() {
        #expect(PrintableText.escaped("a\nb\rc\td") == "a\\nb\\rc\\td")
        #expect(PrintableText.escaped("\u{0}\u{7}\u{1B}[2J") == "\\u{0}\\u{7}\\u{1B}[2J")
        #expect(PrintableText.escaped("\u{1B}]8;;http://evil\u{7}") == "\\u{1B}]8;;http://evil\\u{7}")
        for value in 0..<0x20 {
            let escaped = PrintableText.escaped(String(Unicode.Scalar(UInt8(value))))
            #expect(escaped.hasPrefix("\\"), "U+\(value)")
            #expect(escaped.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value < 0x7F })
        }
    }

    @Test func writesDELAndC1ControlsVisibly() {
        #expect(PrintableText.escaped("a\u{7F}b") == "a\\u{7F}b")
        #expect(PrintableText.escaped("\u{80}\u{9B}2J\u{9F}") == "\\u{80}\\u{9B}2J\\u{9F}")
        // The neighbours of the C1 block are ordinary characters.
        #expect(PrintableText.escaped("~\u{A0}é") == "~\u{A0}é")
    }

    @Test func writesBidiControlsAndSeparatorsVisibly() {
        let escaped = (0x2028...0x202E).map { Unicode.Scalar($0)! } + (0x2066...0x2069).map { Unicode.Scalar($0)! }
        for scalar in escaped {
            #expect(
                PrintableText.escaped("x\(scalar)y") == "x\\u{\(String(scalar.value, radix: 16, uppercase: true))}y")
        }
        // Zero-width joiners and left-to-right marks neither reorder nor break lines.
        #expect(PrintableText.escaped("a\u{200D}b\u{200E}c\u{2027}d\u{206A}") == "a\u{200D}b\u{200E}c\u{2027}d\u{206A}")
    }

    @Test func escapingEscapedTextChangesNothing() {
        let once = PrintableText.escaped("x\n::add-mask::secret\u{1B}[2J\u{202E}")
        #expect(PrintableText.escaped(once) == once)
        #expect(!once.contains("\n"))
    }

    @Test func anExcerptOfShortTextIsTheEscapedText() {
        #expect(PrintableText.excerpt("shop.example\n") == "shop.example\\n")
        let exactly = String(repeating: "a", count: PrintableText.excerptLimit)
        #expect(PrintableText.excerpt(exactly) == exactly)
        #expect(PrintableText.quoted("a\u{1B}b") == "\"a\\u{1B}b\"")
    }

    @Test func aLongExcerptEndsWithAnEllipsisWithinTheLimit() {
        let credentials = "https://alice:" + String(repeating: "0123456789", count: 10) + "@github.com"
        let excerpt = PrintableText.excerpt(credentials)
        #expect(excerpt.unicodeScalars.count == PrintableText.excerptLimit)
        #expect(excerpt.hasSuffix("…"))
        #expect(credentials.hasPrefix(excerpt.dropLast()))
    }

    @Test func aMultiLineFileBecomesOneShortLine() {
        let passwd = (0..<40).map { "user\($0):x:\($0):\($0)::/home/user\($0):/bin/sh" }.joined(separator: "\n")
        let excerpt = PrintableText.excerpt(passwd)
        #expect(!excerpt.contains("\n"))
        #expect(excerpt.hasPrefix("user0:x:0:0::/home/user0:/bin/sh\\nuser1:"))
        #expect(excerpt.unicodeScalars.count <= PrintableText.excerptLimit)
    }

    @Test func anExcerptIsCutBetweenCharactersNeverInsideOne() {
        // Each flag is two scalars and "e\u{301}" is one character of two: none is split.
        let flags = String(repeating: "🇪🇸", count: 40)
        let excerpt = PrintableText.excerpt(flags)
        #expect(excerpt.dropLast().allSatisfy { $0 == "🇪🇸" })
        #expect(excerpt.unicodeScalars.count == PrintableText.excerptLimit - 1)
        let accents = String(repeating: "e\u{301}", count: 40)
        #expect(PrintableText.excerpt(accents).dropLast().allSatisfy { $0 == "e\u{301}" })
        // Nor inside an escape: 58 letters leave no room for `\u{1B}` before the ellipsis.
        let escapeAtTheEnd = String(repeating: "a", count: 58) + "\u{1B}[2J"
        #expect(PrintableText.excerpt(escapeAtTheEnd) == String(repeating: "a", count: 58) + "…")
    }

    @Test func oddInputDoesNotTrapAndStaysBounded() {
        // Ill-formed UTF-8 decodes to replacement characters; a lone combining mark and one
        // character of ten thousand scalars are still text.
        let decoded = String(decoding: [0xC2, 0x1B, 0xE2, 0x80, 0xFF, 0x0A], as: UTF8.self)
        #expect(PrintableText.escaped(decoded) == "\u{FFFD}\\u{1B}\u{FFFD}\u{FFFD}\\n")
        #expect(PrintableText.excerpt("\u{301}") == "\u{301}")
        let huge = "a" + String(repeating: "\u{301}", count: 10_000)
        #expect(PrintableText.excerpt(huge) == "…")
        #expect(PrintableText.excerpt("") == "")
    }
}
