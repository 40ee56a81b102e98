import Testing

@testable import LinkwrightCore

/// `Host.parse` skips the checks for schemes, paths, ports, spaces, other dots and uppercase in a
/// plain text (`Host.isPlain`): seeded texts of every character those checks look for, and of
/// characters that look alike, show that no plain one would have failed them.
@Suite struct PlainHostTests {
    @Test func noSkippedCheckFindsAnythingInAPlainText() {
        let alphabet = Array("abz09-.*:/ A\t\u{7F}\u{3002}\u{FF0E}\u{FF61}é\u{301}\u{2028}\u{A0}ſK")
        var generator = SplitMix64(seed: 51)
        var plain = 0
        for _ in 0..<20_000 {
            let text = String(
                (0..<Int.random(in: 1...10, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
            guard Host.isPlain(text) else { continue }
            plain += 1
            #expect(Host.unusualTextProblem(text) == nil, "\(text)")
            #expect(text == text.lowercased(), "\(text)")
        }
        #expect(plain > 100)
    }

    @Test func aTextWithAnyOtherCharacterIsNotPlain() {
        for text in ["a:b", "a/b", "a b", "A.b", "a\u{3002}b", "é.b", "a_b", "a\u{0}b", "a\u{301}.b"] {
            #expect(!Host.isPlain(text), "\(text)")
        }
    }

    @Test func aPlainTextSplitAmongItsBytesGivesItsCharactersLabels() {
        let alphabet = Array("abz09-.*")
        var generator = SplitMix64(seed: 52)
        for _ in 0..<5_000 {
            let text = String(
                (0..<Int.random(in: 0...12, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
            let characters = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            #expect(Host.labels(of: text, plain: true) == characters, "\(text)")
        }
    }
}
