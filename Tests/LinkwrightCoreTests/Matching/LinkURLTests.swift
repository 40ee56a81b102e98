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
}
