/// Why a pattern cannot be compiled. Such a pattern never matches.
public struct PatternError: Error, Hashable, Sendable {
    /// `patternSyntax` or `undefinedVariable`.
    public var id: DiagnosticID
    /// What is wrong, naming the pattern.
    public var message: String
    /// How to fix it.
    public var hint: String
}

/// A compiled pattern. Matching takes time linear in the compared value's length times the
/// automaton's size, with fast paths for literal, prefix (`/x/*`), suffix (`*.pdf`) and
/// prefix-and-suffix patterns that give the same answers as the automaton.
public struct PatternMatcher: Sendable {
    /// What was compiled, in one object: a rule test copies its matcher at every URL it tries,
    /// and copying six fields retained each.
    private let compiled: Compiled

    private final class Compiled: Sendable {
        let pattern: String
        let options: PatternOptions
        /// Built when first asked for: a pattern with a `shortcut` never needs it to match, and
        /// rule lists deciding many URLs match through their index (`RuleIndex`), which runs
        /// every pattern's `tokens` as one automaton; building each pattern's own was most of
        /// compiling an association file.
        let automaton = Once<Automaton>()
        let shortcut: Shortcut?
        let tokens: [PatternToken]
        let variables: [String: [String]]
        let newestAndroidFilter: AndroidFilter?

        init(
            pattern: String, options: PatternOptions, shortcut: Shortcut?, tokens: [PatternToken],
            variables: [String: [String]], newestAndroidFilter: AndroidFilter?
        ) {
            (self.pattern, self.options) = (pattern, options)
            (self.shortcut, self.tokens, self.variables) = (shortcut, tokens, variables)
            self.newestAndroidFilter = newestAndroidFilter
        }
    }

    /// The pattern as written.
    public var pattern: String { compiled.pattern }
    /// The options it was compiled with; inputs must be prepared with the same.
    public var options: PatternOptions { compiled.options }
    var automaton: Automaton {
        compiled.automaton.value {
            var compiler = PatternCompiler(options: options, variables: variables)
            do {
                return try compiler.automaton(for: tokens)
            } catch {
                preconditionFailure("every variable was found defined when the pattern was compiled: \(error)")
            }
        }
    }
    var shortcut: Shortcut? { compiled.shortcut }
    /// The tokens the automaton was compiled from (folded, with Apple's slash rules applied) and
    /// the custom variables they name: `PatternTrie` compiles many patterns from them as one.
    var tokens: [PatternToken] { compiled.tokens }
    var variables: [String: [String]] { compiled.variables }
    /// For an `androidDynamic` pattern, the filter the newest Android release reads it into,
    /// which the tokens come from; `nil` for Apple's. Kept so a dynamic rule's pattern is parsed
    /// once (`CompiledDynamicRules.Pattern` matches with it): parsing it again for each rule
    /// was a fifth of compiling a file's rules.
    var newestAndroidFilter: AndroidFilter? { compiled.newestAndroidFilter }

    enum Shortcut: Sendable, Equatable {
        case literal([Unicode.Scalar])
        /// `prefix*suffix`.
        case affix(prefix: [Unicode.Scalar], suffix: [Unicode.Scalar])

        func matches(_ input: [Unicode.Scalar]) -> Bool {
            switch self {
            case .literal(let literal): input == literal
            case .affix(let prefix, let suffix):
                input.count >= prefix.count + suffix.count && input.starts(with: prefix)
                    && input.suffix(suffix.count).elementsEqual(suffix)
            }
        }
    }

    /// Compiles `pattern`. `variables` are the file's custom substitution variables; Apple's
    /// predefined ones are always known, and a custom one of the same name replaces it. Android
    /// semantics has no variables: `$(x)` is literal text there.
    public init(_ pattern: String, options: PatternOptions = PatternOptions(), variables: [String: [String]] = [:])
        throws(PatternError)
    {
        let newestAndroidFilter: AndroidFilter?
        var tokens: [PatternToken]
        switch options.semantics {
        case .androidDynamic:
            let filter = AndroidFilter(expression: pattern, release: .latest)
            (newestAndroidFilter, tokens) = (filter, PatternCompiler.tokens(of: filter))
        case .apple:
            newestAndroidFilter = nil
            let written = try PatternCompiler.tokens(of: pattern)
            // `**` means `*` under greedy semantics; one star keeps the fast paths simple.
            tokens = written.enumerated().filter {
                $0.offset == 0 || !($0.element == .any && written[$0.offset - 1] == .any)
            }
            .map(\.element)
            if options.appleSlashRules { tokens = PatternCompiler.withAppleSlashRules(tokens) }
        }
        if !options.caseSensitive { tokens = tokens.map(CaseFolding.fold) }
        if let undefined = PatternCompiler(options: options, variables: variables).undefinedVariable(in: tokens) {
            throw undefined
        }
        compiled = Compiled(
            pattern: pattern, options: options,
            shortcut: PatternCompiler.shortcut(for: tokens, semantics: options.semantics), tokens: tokens,
            variables: variables, newestAndroidFilter: newestAndroidFilter)
    }

    /// Compiles an Android dynamic-rule pattern, case-sensitively. It cannot fail: `*` and `?`
    /// are the only special characters there.
    public init(androidDynamic pattern: String) {
        do {
            self = try Self.shared(
                pattern, options: PatternOptions(semantics: .androidDynamic), variables: Self.noVariables)
        } catch {
            preconditionFailure("an Android pattern has no syntax that can fail: \(error)")
        }
    }

    /// No variables, hashed once: hashing an empty dictionary for each of a changelog's Android
    /// patterns cost about a fifth of finding its matcher.
    private static let noVariables = HashedKey<[String: [String]]>([:])

    /// `init(_:options:variables:)`, made once per process for the same pattern, options and
    /// variables: a changelog compiles hundreds of revisions whose rules are nearly all the
    /// same.
    static func shared(_ pattern: String, options: PatternOptions, variables: [String: [String]] = [:])
        throws(PatternError) -> PatternMatcher
    {
        try shared(pattern, options: options, variables: HashedKey(variables))
    }

    /// `shared(_:options:variables:)` with the variables hashed by the caller, once for every
    /// pattern of a file: hashing them again for each pattern was most of finding it here.
    static func shared(_ pattern: String, options: PatternOptions, variables: HashedKey<[String: [String]]>)
        throws(PatternError) -> PatternMatcher
    {
        try compilations.value(CompilationKey(pattern: pattern, options: options, variables: variables)) {
            Result { () throws(PatternError) in
                try PatternMatcher(pattern, options: options, variables: variables.value)
            }
        }.get()
    }

    private struct CompilationKey: Hashable {
        let pattern: String
        let options: PatternOptions
        let variables: HashedKey<[String: [String]]>

        /// Texts compare exactly (`ExactText`): a pattern spelt NFC is not one spelt NFD. Exactly
        /// equal variables are equal as a dictionary too, so their hashes agree.
        static func == (left: CompilationKey, right: CompilationKey) -> Bool {
            let (leftVariables, rightVariables) = (left.variables.value, right.variables.value)
            return left.options == right.options && ExactText.equal(left.pattern, right.pattern)
                && leftVariables.count == rightVariables.count
                && leftVariables.allSatisfy { name, values in
                    rightVariables.contains { ExactText.equal($0.key, name) && ExactText.equal($0.value, values) }
                }
        }
    }

    private static let compilations = ProcessMemo<CompilationKey, Result<PatternMatcher, PatternError>>(
        limit: 100_000)

    /// Whether the pattern matches `input`, which must come from `options.prepare`.
    public func matches(_ input: [Unicode.Scalar]) -> Bool {
        if let shortcut { return shortcut.matches(input) }
        return automaton.matches(input)
    }

    /// Whether the pattern matches `text` (prepared here).
    public func matches(_ text: String) -> Bool { matches(options.prepare(text)) }

    /// The answer of the automaton alone, for checking that the fast paths agree with it.
    func matchesByAutomaton(_ input: [Unicode.Scalar]) -> Bool { automaton.matches(input) }
}

/// Lowercase folding scalar by scalar: a scalar whose lowercase is a single scalar becomes it,
/// others stay as they are, so folding never changes a string's length in scalars.
enum CaseFolding {
    static func fold(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        if scalar.isASCII {
            return ("A"..."Z").contains(scalar) ? Unicode.Scalar(scalar.value + 32)! : scalar
        }
        let lower = scalar.properties.lowercaseMapping.unicodeScalars
        return lower.count == 1 ? lower.first! : scalar
    }

    static func fold(_ token: PatternToken) -> PatternToken {
        if case .literal(let scalar) = token { return .literal(fold(scalar)) }
        return token
    }
}

/// Turns pattern tokens into an automaton, right to left so every piece knows what follows it.
struct PatternCompiler {
    let options: PatternOptions
    let variables: [String: [String]]
    var nodes: [Automaton.Node] = [.accept]
    static let acceptState = 0

    init(options: PatternOptions, variables: [String: [String]]) {
        self.options = options
        self.variables = variables
    }

    /// The tokens of an Android pattern as the newest AOSP parser hands it to `PatternMatcher`
    /// (`newestFilter`, the newest release's `AndroidFilter`), which always has the token form.
    static func tokens(of newestFilter: AndroidFilter) -> [PatternToken] {
        guard let tokens = newestFilter.tokens else {
            preconditionFailure("the newest dynamic-rule parser writes no greedy run: \(newestFilter.filterText)")
        }
        return tokens
    }

    /// The tokens of an Apple pattern.
    static func tokens(of pattern: String) throws(PatternError) -> [PatternToken] {
        switch PatternSyntax.tokens(pattern) {
        case .success(let tokens): return tokens
        case .failure(.unterminatedVariable(let offset)):
            throw PatternError(
                id: .patternSyntax,
                message:
                    "pattern \(PrintableText.quoted(pattern)) has `$(` without a closing `)` at character \(offset + 1)",
                hint: "close the variable, e.g. $(lang)")
        case .failure(.emptyVariableName):
            throw PatternError(
                id: .patternSyntax,
                message: "pattern \(PrintableText.quoted(pattern)) has an empty $()",
                hint: "name a variable, e.g. $(lang)")
        }
    }

    /// `*` and `?` as wildcards, everything else literal: Android patterns, and the values of
    /// Apple substitution variables, which "can contain the ? and * wildcard characters, but not
    /// other substitution variables" (Apple's substitutionVariables page).
    static func simpleTokens(_ text: String) -> [PatternToken] {
        text.unicodeScalars.map { scalar in
            switch scalar {
            case "*": .any
            case "?": .one
            default: .literal(scalar)
            }
        }
    }

    /// The pattern side of `PatternOptions.appleSlashRules`.
    static func withAppleSlashRules(_ tokens: [PatternToken]) -> [PatternToken] {
        let core = Array(tokens.drop { $0 == .literal("/") }.reversed().drop { $0 == .literal("/") }.reversed())
        guard let last = core.last else { return [.literal("/")] }
        return [.literal("/")] + core + (last == .any ? [] : [.literal("/")])
    }

    static func shortcut(for tokens: [PatternToken], semantics: PatternSemantics) -> PatternMatcher.Shortcut? {
        // The star is found first and each side copied once: growing a literal scalar by scalar
        // regrew nested arrays, a third of compiling a changelog's new patterns.
        var star: Int?
        for index in tokens.indices {
            switch tokens[index] {
            case .literal: continue
            // A second star leaves three literals, which no shortcut tests.
            case .any where star == nil: star = index
            case .any, .one, .variable: return nil
            }
        }
        guard let star else { return .literal(literalScalars(tokens[...])) }
        let prefix = literalScalars(tokens[..<star])
        switch semantics {
        case .apple: return .affix(prefix: prefix, suffix: literalScalars(tokens[(star + 1)...]))
        // A lazy `*` followed by text is not a suffix test ("*.pdf" rejects "a.b.pdf").
        case .androidDynamic: return star == tokens.count - 1 ? .affix(prefix: prefix, suffix: []) : nil
        }
    }

    /// The scalars of `tokens`' literals (`shortcut` passes runs of literals only). Reserved
    /// once: the optimiser may compile `compactMap` here to grow the array scalar by scalar.
    private static func literalScalars(_ tokens: ArraySlice<PatternToken>) -> [Unicode.Scalar] {
        var scalars: [Unicode.Scalar] = []
        scalars.reserveCapacity(tokens.count)
        for case .literal(let scalar) in tokens { scalars.append(scalar) }
        return scalars
    }

    mutating func automaton(for tokens: [PatternToken]) throws(PatternError) -> Automaton {
        var next = Self.acceptState
        for index in tokens.indices.reversed() {
            switch tokens[index] {
            case .literal(let scalar): next = add(.consume(.scalar(scalar), next: next))
            case .one: next = add(.consume(.any, next: next))
            case .any where options.semantics == .apple: next = loop(.any, then: next)
            case .any:
                switch tokens[tokens.index(after: index)...].first {
                case nil: next = loop(.any, then: next)
                case .literal(let stop)?: next = loop(.anyExcept(stop), then: next)
                // Not written by `AndroidFilter`, whose `*` is last or before a literal; a star
                // before another wildcard would be satisfied at once.
                case .one?, .any?, .variable?: break
                }
            case .variable(let name): next = try variable(name, then: next)
            }
        }
        return Automaton(nodes: nodes, start: next, accept: Self.acceptState)
    }

    mutating func add(_ node: Automaton.Node) -> Int {
        nodes.append(node)
        return nodes.count - 1
    }

    mutating func loop(_ test: ScalarTest, then next: Int) -> Int {
        let branch = add(.split([]))
        let step = add(.consume(test, next: branch))
        nodes[branch] = .split([step, next])
        return branch
    }

    /// One value of the variable, then `next`. Values become a trie, so `$(lang)`'s hundreds of
    /// codes share their first letters instead of each adding a branch.
    mutating func variable(_ name: String, then next: Int) throws(PatternError) -> Int {
        if let values = variables[name] {
            return alternatives(values.map(Self.simpleTokens), then: next)
        }
        if let characters = PredefinedVariables.characterClasses[name] {
            let set = options.caseSensitive ? characters : ScalarSet(characters.scalars.map(CaseFolding.fold))
            return add(.consume(.set(set), next: next))
        }
        if let codes = PredefinedVariables.codeLists[name] {
            return alternatives(codes.map(Self.simpleTokens), then: next)
        }
        throw Self.undefined(name)
    }

    /// The error `automaton(for: tokens)` throws, found without building the automaton: the
    /// variable it meets first (it compiles right to left) that neither the file nor Apple
    /// defines.
    func undefinedVariable(in tokens: [PatternToken]) -> PatternError? {
        for case .variable(let name) in tokens.reversed()
        where variables[name] == nil && PredefinedVariables.characterClasses[name] == nil
            && PredefinedVariables.codeLists[name] == nil
        {
            return Self.undefined(name)
        }
        return nil
    }

    private static func undefined(_ name: String) -> PatternError {
        PatternError(
            id: .undefinedVariable, message: "$(\(name)) is not defined in this file",
            hint: "add it to applinks.substitutionVariables, or use a predefined variable such as $(lang)")
    }

    /// Any one of `sequences`, then `next`.
    mutating func alternatives(_ sequences: [[PatternToken]], then next: Int) -> Int {
        var trie = [TrieNode()]
        for sequence in sequences {
            var node = 0
            for token in sequence {
                let token = options.caseSensitive ? token : CaseFolding.fold(token)
                if let child = trie[node].children.first(where: { $0.token == token })?.node {
                    node = child
                } else {
                    trie.append(TrieNode())
                    trie[node].children.append((token, trie.count - 1))
                    node = trie.count - 1
                }
            }
            trie[node].isTerminal = true
        }
        // Children are created after their parents, so walking backwards compiles every child
        // before the node that needs its entry: no recursion, whatever the value lengths.
        var entries = Array(repeating: 0, count: trie.count)
        for index in trie.indices.reversed() {
            var branches = trie[index].isTerminal ? [next] : []
            for (token, child) in trie[index].children {
                let target = entries[child]
                switch token {
                case .literal(let scalar): branches.append(add(.consume(.scalar(scalar), next: target)))
                case .one: branches.append(add(.consume(.any, next: target)))
                case .any, .variable: branches.append(loop(.any, then: target))
                }
            }
            entries[index] = branches.count == 1 ? branches[0] : add(.split(branches))
        }
        return entries[0]
    }

    struct TrieNode {
        var children: [(token: PatternToken, node: Int)] = []
        var isTerminal = false
    }
}

/// Apple's predefined substitution variables
/// (https://developer.apple.com/documentation/bundleresources/applinks/substitutionvariables-swift.dictionary).
/// Each stands for exactly one of its values: `$(digit)` is one digit, `$(region)` one code
/// (swcutil captures, blazingly-aasa swcutil-corpus.txt, substitution/*).
enum PredefinedVariables {
    static let characterClasses: [String: ScalarSet] = {
        let upper: ClosedRange<UInt32> = 0x41...0x5A
        let lower: ClosedRange<UInt32> = 0x61...0x7A
        let digit: ClosedRange<UInt32> = 0x30...0x39
        return [
            "alpha": ScalarSet([upper, lower]),
            "upper": ScalarSet([upper]),
            "lower": ScalarSet([lower]),
            "alnum": ScalarSet([upper, lower, digit]),
            "digit": ScalarSet([digit]),
            "xdigit": ScalarSet([digit, 0x41...0x46, 0x61...0x66]),
        ]
    }()

    static let codeLists: [String: [String]] = ["region": ISOCodes.regions, "lang": ISOCodes.languages]
}
