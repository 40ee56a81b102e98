import LinkwrightCore
import Testing

/// What `LinkURL` accepts and how it splits a URL: the parts stay as written (still encoded),
/// the scheme and host are lowercased.
@Suite struct LinkURLTests {
    @Test func splitsAnAbsoluteURL() throws {
        let url = try #require(LinkURL("HTTPS://Shop.Example:8443/a/b%20c?x=1&y=2#top?no"))
        #expect(url.scheme == "https")
        #expect(url.host == "shop.example")
        #expect(url.port == 8443)
        #expect(url.path == "/a/b%20c")
        #expect(url.query == "x=1&y=2")
        #expect(url.fragment == "top?no")
        #expect(url.description == "https://shop.example:8443/a/b%20c?x=1&y=2#top?no")
    }

    @Test func lowercasesNonASCIIHostsToo() throws {
        #expect(LinkURL("https://MÜSEO.example/x")?.host == "müseo.example")
        #expect(LinkURL("Http://müseo.example")?.scheme == "http")
    }

    @Test func keepsEmptyAndAbsentPartsApart() throws {
        let bare = try #require(LinkURL("https://e.com"))
        #expect(bare.path == "" && bare.query == nil && bare.fragment == nil)
        let empty = try #require(LinkURL("https://e.com/?#"))
        #expect(empty.path == "/" && empty.query == "" && empty.fragment == "")
        let questionInFragment = try #require(LinkURL("/p#a?b"))
        #expect(questionInFragment.query == nil && questionInFragment.fragment == "a?b")
    }

    @Test func readsPathOnlyURLsAndNonASCIIText() throws {
        let url = try #require(LinkURL("/café/日本?q=é#ü"))
        #expect(url.host == nil && url.scheme == nil)
        #expect(url.path == "/café/日本" && url.query == "q=é" && url.fragment == "ü")
        #expect(LinkURL("https://ÉXAMPLE.com/x")?.host == "éxample.com")
    }

    @Test(arguments: [
        "", "example.com/x", "ftp://e.com/x", "https:/e.com", "https://", "https:///x", "https://user@e.com/",
        "https://e.com:99999/", "https://e.com:/", "https://e.com:x/", "https://:443/", "/a b", "/a\tb", "/a\u{7F}",
        "mailto:x@e.com",
    ])
    func refuses(_ text: String) {
        #expect(LinkURL(text) == nil, "\(text)")
    }

    /// `parses` answers as the parser does, on seeded texts of the pieces that decide it.
    @Test func parsesAnswersAsTheParser() {
        let pieces = [
            "https", "HTTP", "ftp", "ſ", "K", ":", "//", "/", "@", ":443", ":99999", ":", "?", "#", " ", "\t", "\u{7F}",
            "e.com", "É", "a", "%20", "",
        ]
        for seed in 0..<2000 {
            var generator = SplitMix64(seed: UInt64(seed))
            let text = (0..<Int.random(in: 0...7, using: &generator)).map { _ in
                pieces.randomElement(using: &generator)!
            }.joined()
            #expect(LinkURL.parses(text) == (LinkURL(text) != nil), "\(text)")
        }
        for text in ["https://e.com", "/p", "HTTPS://E.COM:8/x?y#z", "https://e.com:/", "https://user@e.com/"] {
            #expect(LinkURL.parses(text) == (LinkURL(text) != nil), "\(text)")
        }
    }
}
