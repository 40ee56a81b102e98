import Testing

@testable import LinkwrightCore

/// Validation reads whether an expectation URL is a path or an https:// URL from its first bytes
/// where they settle it (`ConfigValidator.isPathOrHTTPS`); on seeded texts of slashes, schemes,
/// ASCII and non-ASCII letters, combining and prepend marks and line breaks it answers as
/// `hasPrefix`, which compares characters.
@Suite struct ExpectationURLFormTests {
    @Test func theFirstBytesAnswerAsTheCharacters() {
        let pieces = [
            "/", "https://", "http://", "HTTPS://", "a", "é", "\u{301}", "\u{200D}", "\u{0600}", "\r", "\n", " ",
        ]
        var generator = SplitMix64(seed: 62)
        for _ in 0..<5_000 {
            let url = (0..<Int.random(in: 0...4, using: &generator)).map { _ in
                pieces.randomElement(using: &generator)!
            }.joined()
            #expect(ConfigValidator.isPathOrHTTPS(url) == (url.hasPrefix("/") || url.hasPrefix("https://")), "\(url)")
        }
    }
}
