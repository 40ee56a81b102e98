import Foundation
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

    /// The URLs are written as UTF-8 bytes; the plain reading below grows strings a character
    /// at a time and leaves escaping to Foundation. Over seeded rules of literals (non-ASCII,
    /// controls, delimiters), wildcards, digits before `?`, variables with values of their own
    /// and patterns that do not parse, both write the same candidates.
    @Test func bytesWriteWhatThePlainReadingWrites() {
        var random = SplitMix64(seed: 51_068)
        let pieces = [
            "a", "z", "/", "-", "0", "7", "*", "?", "?", "$(v)", "$(lang)", "$(w)", "$(", "\u{E9}", " ", "#", "?", "%",
            "\u{1F600}", "\u{01}", "\u{7F}", "=", "&", "\u{2028}",
        ]
        func pattern(_ length: Int) -> String {
            (0..<Int.random(in: 0...length, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
        }
        var compared = 0
        for _ in 0..<4_000 {
            let variables = [
                AASAVariable(name: "v", values: (0..<Int.random(in: 0...3, using: &random)).map { _ in pattern(4) }),
                AASAVariable(name: "w", values: [pattern(3)]),
            ]
            let path = Bool.random(using: &random) ? nil : pattern(8)
            let query: QueryPattern? =
                switch Int.random(in: 0...2, using: &random) {
                case 0: nil
                case 1: .whole(pattern(5))
                default:
                    .items(
                        (0..<Int.random(in: 0...2, using: &random)).map { _ in
                            QueryItemPattern(name: pattern(3), pattern: pattern(4), location: .file("d"))
                        })
                }
            let fragment = Bool.random(using: &random) ? nil : pattern(4)
            let written = ReadableURLs.candidates(path: path, query: query, fragment: fragment, variables: variables)
            let plain = PlainReading.candidates(path: path, query: query, fragment: fragment, variables: variables)
            #expect(written == plain, "path \(String(reflecting: path)), query \(String(describing: query))")
            compared += written.count
        }
        #expect(compared > 4_000)
    }

    /// The candidates as strings grown a character at a time, escaped by Foundation.
    private enum PlainReading {
        static func candidates(
            path: String?, query: QueryPattern?, fragment: String?, variables: [AASAVariable]
        ) -> [String] {
            var seen: Set<String> = []
            return (0..<ReadableURLs.alternatives).compactMap { index -> String? in
                func instance(_ pattern: String) -> String? { Self.instance(pattern, variables, index) }
                var url = "/"
                if let path {
                    guard let written = instance(path) else { return nil }
                    url = written.hasPrefix("/") ? written : "/" + written
                }
                url = escaped(url, allowing: "")
                switch query {
                case .whole(let pattern):
                    guard let written = instance(pattern) else { return nil }
                    url += "?" + escaped(written, allowing: "?")
                case .items(let items) where !items.isEmpty:
                    var pairs: [String] = []
                    for item in items {
                        guard let value = instance(item.pattern) else { return nil }
                        pairs.append(escaped(item.name, allowing: "?") + "=" + escaped(value, allowing: "?"))
                    }
                    url += "?" + pairs.joined(separator: "&")
                default: break
                }
                if let fragment {
                    guard let written = instance(fragment) else { return nil }
                    url += "#" + escaped(written, allowing: "?#")
                }
                return seen.insert(url).inserted ? url : nil
            }
        }

        static func instance(_ pattern: String, _ variables: [AASAVariable], _ index: Int) -> String? {
            guard case .success(let tokens) = PatternSyntax.tokens(pattern) else { return nil }
            var text = ""
            var (any, ones) = (false, 0)
            func flush() {
                guard any || ones > 0 else { return }
                let afterDigit = text.last?.isASCII == true && text.last?.isNumber == true
                text += ReadableURLs.fill(any: any, ones: ones, afterDigit: afterDigit, alternative: index)
                (any, ones) = (false, 0)
            }
            for token in tokens {
                switch token {
                case .any: any = true
                case .one: ones += 1
                case .literal(let scalar):
                    flush()
                    text.append(Character(scalar))
                case .variable(let name):
                    flush()
                    if let values = variables.first(where: { $0.name == name })?.values, !values.isEmpty {
                        text += instance(values[min(index, values.count - 1)], [], index) ?? ""
                    } else {
                        text += PredefinedSamples.value(for: name)
                    }
                }
            }
            flush()
            return text
        }

        /// Printable ASCII stays, but for `?` and `#` unless `delimiters` allows them.
        static func escaped(_ text: String, allowing delimiters: String) -> String {
            var allowed = CharacterSet(charactersIn: Unicode.Scalar(0x21)...Unicode.Scalar(0x7E))
            allowed.subtract(CharacterSet(charactersIn: "?#"))
            allowed.formUnion(CharacterSet(charactersIn: delimiters))
            return text.addingPercentEncoding(withAllowedCharacters: allowed)!
        }
    }
}
