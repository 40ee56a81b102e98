import Testing

@testable import LinkwrightCore

/// The URLs that stand for a rule read like the rule: literal segments kept, `*` a word, `?` a
/// letter, variables one of their values.
@Suite struct ReadableURLsTests {
    func first(_ path: String?, query: QueryPattern? = nil, fragment: String? = nil, variables: [AASAVariable] = [])
        -> String?
    {
        ReadableURLs.candidates(path: path, query: query, fragment: fragment, variables: variables).first
    }

    @Test func literalSegmentsStayAndWildcardsBecomeWords() {
        #expect(first("/users/auth/apple/callback") == "/users/auth/apple/callback")
        #expect(first("/users/auth/*/callback") == "/users/auth/example/callback")
        #expect(first("/post/*") == "/post/example")
        #expect(first("/item/????") == "/item/abcd")
        #expect(first("/video/20??/*") == "/video/2012/example")
        #expect(first("/code/?*") == "/code/example")
        #expect(first("/v/?????????*") == "/v/examplexx")
        #expect(first("*") == "/example")
        #expect(first(nil, fragment: "no_universal_links") == "/#no_universal_links")
    }

    @Test func variablesTakeTheirValues() {
        let collection = AASAVariable(name: "collection", values: ["coleccion", "collection"])
        #expect(first("/$(lang)/$(collection)/*", variables: [collection]) == "/es/coleccion/example")
        let candidates = ReadableURLs.candidates(
            path: "/$(collection)", query: nil, fragment: nil, variables: [collection])
        #expect(candidates == ["/coleccion", "/collection"])
    }

    @Test func queriesAndFragmentsAreFilledAndEscaped() {
        let items = QueryPattern.items([
            QueryItemPattern(name: "source", pattern: "?*", location: .file("d")),
            QueryItemPattern(name: "ref", pattern: "a b", location: .file("d")),
        ])
        #expect(first("/tickets/*", query: items) == "/tickets/example?source=example&ref=a%20b")
        #expect(first("/search", query: .whole("q=*")) == "/search?q=example")
        #expect(first("/caf\u{E9}/#?") == "/caf%C3%A9/%23a")
    }

    /// Later candidates avoid what an earlier rule may take: a shorter word, none, a deeper path.
    @Test func alternativesDifferAndNeverRepeat() {
        #expect(
            ReadableURLs.candidates(path: "/post/*", query: nil, fragment: nil, variables: [])
                == ["/post/example", "/post/1", "/post/", "/post/example/more"])
        #expect(ReadableURLs.candidates(path: "/about", query: nil, fragment: nil, variables: []) == ["/about"])
    }
}
