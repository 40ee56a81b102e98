/// The languages of one rule's parts, as deterministic views.
struct RuleLanguages {
    var path: LanguageView
    var query: LanguageView
    var fragment: LanguageView
    /// Query dictionary items; empty for string queries and ignored dictionaries.
    var queryItems: [(name: String, pattern: LanguageView)]
    /// The text of a pattern that does not compile, if any.
    var uncompilable: String?

    /// Everything: the language of `*`.
    static var everything: LanguageView {
        LanguageView(dfa: SubsetDFA(PatternMatcher(androidDynamic: "*").automaton), readsAppleRawPaths: false)
    }

    init(_ rule: CompiledAASA.Rule) {
        var uncompilable: String?
        func view(_ pattern: CompiledAASA.CompiledPattern?, rawPath: Bool = false) -> LanguageView {
            guard let pattern else { return Self.everything }
            guard let matcher = pattern.matcher else {
                uncompilable = uncompilable ?? pattern.text
                return Self.everything
            }
            return LanguageView(dfa: SubsetDFA(matcher.automaton), readsAppleRawPaths: rawPath)
        }
        path = view(rule.path, rawPath: true)
        fragment = view(rule.fragment)
        switch rule.query {
        case .whole(let pattern):
            query = view(pattern)
            queryItems = []
        case .items(let items):
            query = Self.everything
            queryItems = items.map { ($0.name, view($0.pattern)) }
        case .ignoredDictionary, .notCompared:
            query = Self.everything
            queryItems = []
        }
        self.uncompilable = uncompilable
    }

    /// The parts other than the path, named, including each query item.
    var otherParts: [(String, LanguageView)] {
        [("\"?\"", query), ("\"#\"", fragment)]
            + queryItems.map { ("\"?\" item \(PrintableText.quoted($0.name))", $0.pattern) }
    }
}
