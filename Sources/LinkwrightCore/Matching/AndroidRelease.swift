/// The Android releases whose devices read `dynamic_app_link_components` differently. A device
/// does not match the JSON patterns itself: StatementService turns each one into an
/// `android.os.PatternMatcher` type and pattern (`DalComponentParser.parseMatchingExpression`,
/// AOSP packages/StatementService/src/com/android/statementservice/parser/DalComponentParser.kt)
/// and `UriRelativeFilter.matchData` runs it on the decoded part (core/java/android/content/
/// UriRelativeFilter.java). That parser changed after it first shipped; each case is one
/// version of it, named for the releases that carry it, oldest first (`allCases`).
public enum AndroidRelease: String, CaseIterable, Hashable, Sendable {
    /// The parser Android 15 first shipped. Its own test (`DalComponentParserTest.parseExpressions`
    /// of that version) asserts what differs from the newest:
    /// - every `.` is escaped as `\.`, also in a wildcard-free (`PATTERN_LITERAL`) or prefix
    ///   (`PATTERN_PREFIX`) pattern, which compare text as it is: `foo.bar` becomes the literal
    ///   `foo\.bar`, so `/index.html` never matches;
    /// - an expression holding `?*` becomes a `PATTERN_ADVANCED_GLOB` with `.+` for `?*`
    ///   (`foo?*bar` → `foo.+bar`), whose `.+` and `.*` take the rest of the value greedily and
    ///   never give it back (`PatternMatcher.matchAdvancedPattern`), so nothing after them
    ///   can match;
    /// - `\` is passed to `PatternMatcher` as written, where it escapes the next character.
    case android15Initial = "15-initial"
    /// The newest parser (AOSP main; its `DalComponentParserTest.parseExpressions` asserts the
    /// type, the pattern and which values match): wildcard-free text is a literal, one trailing
    /// `*` a prefix, anything else a `PATTERN_SIMPLE_GLOB` with `.` and `\` escaped.
    case latest
}

/// A dynamic-rule pattern as one Android release hands it to `android.os.PatternMatcher`: the
/// pattern type and the pattern text `DalComponentParser.parseMatchingExpression` returns.
public struct AndroidFilter: Hashable, Sendable {
    /// `PatternMatcher.PATTERN_LITERAL`, `PATTERN_PREFIX`, `PATTERN_SIMPLE_GLOB`,
    /// `PATTERN_ADVANCED_GLOB`.
    public enum Kind: String, Hashable, Sendable {
        case literal, prefix, simpleGlob, advancedGlob
    }

    public let kind: Kind
    /// The pattern text `PatternMatcher` is given.
    public let filter: [Unicode.Scalar]

    public init(kind: Kind, filter: String) {
        self.kind = kind
        self.filter = Array(filter.unicodeScalars)
    }

    /// `expression`, an assetlinks.json pattern (decoded text, as the file holds it), as
    /// `release` parses it.
    public init(expression: String, release: AndroidRelease) {
        let scalars = Array(expression.unicodeScalars)
        switch release {
        case .latest: self = Self.latestParse(scalars)
        case .android15Initial: self = Self.initialParse(scalars)
        }
    }

    /// The newest `parseMatchingExpression`: no wildcard → literal as written; one wildcard that
    /// is a trailing `*` → prefix as written; else a simple glob where `*` is `.*`, `?` is `.`,
    /// and `.` and `\` are escaped.
    private static func latestParse(_ expression: [Unicode.Scalar]) -> AndroidFilter {
        // Counted, not filtered: a filtered copy was an allocation per pattern.
        let wildcards = expression.reduce(0) { $0 + ($1 == "*" || $1 == "?" ? 1 : 0) }
        if wildcards == 0 { return AndroidFilter(kind: .literal, expression) }
        if wildcards == 1 && expression.last == "*" {
            return AndroidFilter(kind: .prefix, Array(expression.dropLast()))
        }
        var pattern: [Unicode.Scalar] = []
        for scalar in expression {
            switch scalar {
            case "*": pattern += [".", "*"]
            case "?": pattern.append(".")
            case ".", "\\": pattern += ["\\", scalar]
            default: pattern.append(scalar)
            }
        }
        return AndroidFilter(kind: .simpleGlob, pattern)
    }

    /// The first `parseMatchingExpression`: `.` is escaped everywhere, `?` is `.`, `*` is `.*`
    /// except right after an unescaped `.` (a `?`), where it makes `.+`; an expression holding
    /// `?*` is an advanced glob, in which `[`, `]`, `{` and `}` are escaped too. The type
    /// follows from the count of `?` and of `*` that became `.*`.
    private static func initialParse(_ expression: [Unicode.Scalar]) -> AndroidFilter {
        let advanced = zip(expression, expression.dropFirst()).contains { $0 == "?" && $1 == "*" }
        var wildcards = 0
        var pattern: [Unicode.Scalar] = []
        for scalar in expression {
            switch scalar {
            case "*":
                let afterAnyOne = pattern.last == "." && !(pattern.count >= 2 && pattern[pattern.count - 2] == "\\")
                if afterAnyOne {
                    pattern.append("+")
                } else {
                    wildcards += 1
                    pattern += [".", "*"]
                }
            case "?":
                wildcards += 1
                pattern.append(".")
            case ".": pattern += ["\\", "."]
            case "[", "]", "{", "}":
                if advanced { pattern.append("\\") }
                pattern.append(scalar)
            default: pattern.append(scalar)
            }
        }
        if wildcards == 0 { return AndroidFilter(kind: .literal, pattern) }
        if wildcards == 1 && pattern.suffix(2).elementsEqual([".", "*"]) {
            return AndroidFilter(kind: .prefix, Array(pattern.dropLast(2)))
        }
        return AndroidFilter(kind: advanced ? .advancedGlob : .simpleGlob, pattern)
    }

    /// Whether every release parses `expression` into the same filter: it holds none of the
    /// characters the parsers read apart (`.`, `?` and `\`; the brackets differ only in an
    /// expression holding `?*`). What is left are literal scalars and `*`, which each parser
    /// makes `.*`, or drops for a prefix when it is the only one and last. Most patterns of a
    /// site (`/videos10039`, `/shop2/*`) are such, and are read once for every release.
    static func isReadAlikeByEveryRelease(_ expression: String) -> Bool {
        // In UTF-8 these bytes occur only as the scalars themselves.
        !expression.utf8.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "\\") }
    }

    private init(kind: Kind, _ filter: [Unicode.Scalar]) {
        self.kind = kind
        self.filter = filter
    }

    /// The pattern text, for messages.
    public var filterText: String { String(String.UnicodeScalarView(filter)) }

    /// Whether `PatternMatcher(filter, kind).match(value)` holds, `value` being the decoded part.
    /// An advanced glob `PatternMatcher` refuses to parse matches nothing (see `AdvancedGlob`).
    public func matches(_ value: [Unicode.Scalar]) -> Bool {
        switch kind {
        case .literal: value == filter
        case .prefix: value.starts(with: filter)
        case .simpleGlob: AndroidPathAttribute.matchesSimpleGlob(filter, value)
        case .advancedGlob: AdvancedGlob(filter)?.matches(value) ?? false
        }
    }

    /// The filter in the pattern tokens the matching engine compiles under
    /// `PatternSemantics.androidDynamic` (a `*` there stops at the literal after it), when it
    /// has that form: literals and prefixes always; a simple glob without a greedy `x*` run;
    /// never an advanced glob. `nil` otherwise.
    var tokens: [PatternToken]? {
        switch kind {
        case .literal: return filter.map(PatternToken.literal)
        case .prefix: return filter.map(PatternToken.literal) + [.any]
        case .simpleGlob: return Self.simpleGlobTokens(filter)
        case .advancedGlob: return nil
        }
    }

    /// Reads a simple glob as `PatternMatcher.matchGlobPattern` walks it: `\x` is the literal
    /// `x`, but a `.` is one character even when escaped (the escape only matters before `*`
    /// and as the stop character of `.*`: the pass compares the unescaped character with `.`),
    /// `.*` at the end is the rest, and `.*` before a character
    /// "any characters up to the first occurrence of that character", which is compared as
    /// written even when it is an unescaped `.` (`DalComponentParserTest`: "foo.*.bar" matches
    /// "foofoo.bar" and not "foobarbar", "likely a bug in PatternMatcher"). A `*` after anything
    /// but an unescaped `.` repeats it greedily, which these tokens cannot say: `nil`.
    static func simpleGlobTokens(_ pattern: [Unicode.Scalar]) -> [PatternToken]? {
        func at(_ index: Int) -> Unicode.Scalar { index < pattern.count ? pattern[index] : "\0" }
        var tokens: [PatternToken] = []
        var index = 0
        while index < pattern.count {
            var character = pattern[index]
            var next = index + 1
            let escaped = character == "\\"
            if escaped {
                character = at(next)
                next += 1
            }
            guard at(next) == "*" else {
                tokens.append(character == "." ? .one : .literal(character))
                index = next
                continue
            }
            guard !escaped && character == "." else { return nil }
            if next >= pattern.count - 1 { return tokens + [.any] }
            var stop = next + 1
            if pattern[stop] == "\\" { stop += 1 }
            tokens += [.any, .literal(at(stop))]
            index = stop + 1
        }
        return tokens
    }

    /// Whether both filters accept the same values: no text, of any characters, one accepts and
    /// the other rejects. `false` also when the search takes more than `workLimit` steps.
    ///
    /// Both filters run as their `Pass`, which compares each scalar only for equality with
    /// scalars of its filter: the scalars of both filters and one other, standing for all the
    /// rest, tell every text apart, and the pairs of pass states they reach are all there are.
    /// Searching those pairs takes a few hundred steps for a path pattern, where searching
    /// the filters' automata (`automaton`) took some 700 K instructions.
    func acceptsAlike(_ other: AndroidFilter, workLimit: Int) -> Bool {
        struct Pair: Hashable {
            let mine: Pass.State?
            let theirs: Pass.State?
        }
        let (mine, theirs) = (Pass(self), Pass(other))
        var letters = Set(filter).union(other.filter)
        letters.insert(Unicode.Scalar.outside(letters))
        let start = Pair(mine: mine.start, theirs: theirs.start)
        var seen: Set<Pair> = [start]
        var pending = [start]
        var work = 0
        while let pair = pending.popLast() {
            guard mine.accepts(pair.mine) == theirs.accepts(pair.theirs) else { return false }
            guard pair.mine != nil || pair.theirs != nil else { continue }
            work += letters.count
            if work > workLimit { return false }
            for scalar in letters {
                let next = Pair(mine: mine.step(pair.mine, scalar), theirs: theirs.step(pair.theirs, scalar))
                if seen.insert(next).inserted { pending.append(next) }
            }
        }
        return true
    }

    /// `matches` read one scalar at a time: each kind's pass, whose states are `nil` once it
    /// fails.
    struct Pass {
        enum State: Hashable {
            /// A literal's or prefix's scalars matched so far.
            case matched(Int)
            case simpleGlob(SimpleGlob.State)
            case advancedGlob(AdvancedGlob.State)
        }

        private let filter: AndroidFilter
        /// The advanced glob parsed; `nil` for other kinds and for one `PatternMatcher` refuses.
        private let advancedGlob: AdvancedGlob?

        init(_ filter: AndroidFilter) {
            self.filter = filter
            advancedGlob = filter.kind == .advancedGlob ? AdvancedGlob(filter.filter) : nil
        }

        var start: State? {
            switch filter.kind {
            case .literal, .prefix: .matched(0)
            case .simpleGlob: .simpleGlob(SimpleGlob(filter.filter).start)
            case .advancedGlob: advancedGlob.map { .advancedGlob($0.start) }
            }
        }

        func step(_ state: State?, _ scalar: Unicode.Scalar) -> State? {
            switch state {
            case nil: return nil
            case .matched(let count):
                if count < filter.filter.count { return filter.filter[count] == scalar ? .matched(count + 1) : nil }
                return filter.kind == .prefix ? state : nil
            case .simpleGlob(let glob):
                let next = SimpleGlob(filter.filter).step(glob, scalar)
                return next == .failed ? nil : .simpleGlob(next)
            case .advancedGlob(let glob): return advancedGlob!.step(glob, scalar).map(State.advancedGlob)
            }
        }

        func accepts(_ state: State?) -> Bool {
            switch state {
            case nil: false
            case .matched(let count): count == filter.filter.count
            case .simpleGlob(let glob): SimpleGlob(filter.filter).accepts(glob)
            case .advancedGlob(let glob): advancedGlob!.accepts(glob)
            }
        }
    }

    /// An automaton accepting exactly what `matches` accepts.
    var automaton: Automaton {
        if let tokens {
            var compiler = PatternCompiler(options: PatternOptions(semantics: .androidDynamic), variables: [:])
            // Tokens without variables compile without error.
            if let automaton = try? compiler.automaton(for: tokens) { return automaton }
        }
        guard kind == .advancedGlob else { return SimpleGlob(filter).automaton }
        // A pattern `PatternMatcher` refuses matches nothing: a start that leads nowhere.
        guard let glob = AdvancedGlob(filter) else {
            return Automaton(nodes: [.accept, .split([])], start: 1, accept: 0)
        }
        return Automaton(deterministic: glob.start, alphabet: Set(filter), step: glob.step, accepts: glob.accepts)
    }
}

/// `PatternMatcher`'s PATTERN_ADVANCED_GLOB for the patterns the first dynamic-rule parser
/// writes: literals (`\x` escaped), `.` for any character, and the modifiers `*` (zero or more)
/// and `+` (one or more). `matchAdvancedPattern` takes each token as many times as it can and
/// never gives any back, so `.+bar` matches nothing. Sets `[…]` and ranges `{…}` never reach it
/// from that parser (it escapes their brackets); a pattern using them, or one that
/// `parseAndVerifyAdvancedPattern` refuses (a modifier with nothing to modify, an escape at
/// the end), is `nil`: the `PatternMatcher` constructor throws there, and the rule is read as
/// never matching.
struct AdvancedGlob: Sendable {
    struct Token: Sendable {
        /// `nil`: any character.
        let literal: Unicode.Scalar?
        let minimum: Int
        /// `nil`: no limit.
        let maximum: Int?

        func accepts(_ scalar: Unicode.Scalar) -> Bool { literal.map { $0 == scalar } ?? true }
    }

    let tokens: [Token]

    init?(_ pattern: [Unicode.Scalar]) {
        var tokens: [Token] = []
        var modified = false
        var index = 0
        while index < pattern.count {
            let scalar = pattern[index]
            switch scalar {
            case "*", "+":
                guard let last = tokens.last, !modified else { return nil }
                tokens[tokens.count - 1] = Token(
                    literal: last.literal, minimum: scalar == "*" ? 0 : 1, maximum: nil)
                modified = true
            case "[", "{", "}":
                return nil
            case "\\":
                index += 1
                guard index < pattern.count else { return nil }
                tokens.append(Token(literal: pattern[index], minimum: 1, maximum: 1))
                modified = false
            case ".":
                tokens.append(Token(literal: nil, minimum: 1, maximum: 1))
                modified = false
            default:
                tokens.append(Token(literal: scalar, minimum: 1, maximum: 1))
                modified = false
            }
            index += 1
        }
        self.tokens = tokens
    }

    func matches(_ input: [Unicode.Scalar]) -> Bool {
        var position = 0
        for token in tokens {
            var taken = 0
            while token.maximum.map({ taken < $0 }) ?? true, position + taken < input.count,
                token.accepts(input[position + taken])
            {
                taken += 1
            }
            if taken < token.minimum { return false }
            position += taken
        }
        return position == input.count
    }

    /// Where the greedy pass stands: at token `token`, having taken `taken` of it (counted up
    /// to its minimum, which is all that matters once the token has no limit).
    struct State: Hashable, Sendable {
        var token: Int
        var taken: Int
    }

    var start: State { State(token: 0, taken: 0) }

    /// The pass after one more scalar; `nil` when it fails.
    func step(_ state: State, _ scalar: Unicode.Scalar) -> State? {
        var state = state
        while state.token < tokens.count {
            let token = tokens[state.token]
            if token.maximum.map({ state.taken < $0 }) ?? true, token.accepts(scalar) {
                state.taken += 1
                if let maximum = token.maximum, state.taken == maximum {
                    return State(token: state.token + 1, taken: 0)
                }
                state.taken = min(state.taken, token.minimum)
                return state
            }
            guard state.taken >= token.minimum else { return nil }
            state = State(token: state.token + 1, taken: 0)
        }
        return nil
    }

    func accepts(_ state: State) -> Bool {
        guard state.token < tokens.count else { return true }
        return state.taken >= tokens[state.token].minimum
            && tokens[(state.token + 1)...].allSatisfy { $0.minimum == 0 }
    }
}

extension Automaton {
    /// The automaton of a deterministic pass over the input (`SimpleGlob`, `AdvancedGlob`) that
    /// compares scalars only for equality with those of `alphabet`: every other scalar is read
    /// alike, so the states reachable through `alphabet` and one scalar outside it are all
    /// there are. `step` returns `nil` where the pass fails.
    convenience init<State: Hashable>(
        deterministic start: State, alphabet: Set<Unicode.Scalar>, step: (State, Unicode.Scalar) -> State?,
        accepts: (State) -> Bool
    ) {
        let letters = alphabet.sorted { $0.value < $1.value }
        // The first scalar outside the alphabet stands for all of them.
        let outsider = Unicode.Scalar.outside(alphabet)
        let otherTest = ScalarTest.set(ScalarSet(letters).complement)
        var nodes: [Node] = [.accept]
        var numbers: [State: Int] = [:]
        var pending: [State] = []
        func number(_ state: State) -> Int {
            if let known = numbers[state] { return known }
            nodes.append(.split([]))
            numbers[state] = nodes.count - 1
            pending.append(state)
            return nodes.count - 1
        }
        let first = number(start)
        while let state = pending.popLast() {
            let node = numbers[state]!
            var branches: [Int] = accepts(state) ? [0] : []
            for (test, scalar) in letters.map({ (ScalarTest.scalar($0), $0) }) + [(otherTest, outsider)] {
                guard let next = step(state, scalar) else { continue }
                let target = number(next)
                nodes.append(.consume(test, next: target))
                branches.append(nodes.count - 1)
            }
            nodes[node] = .split(branches)
        }
        self.init(nodes: nodes, start: first, accept: 0)
    }
}

extension Unicode.Scalar {
    /// A scalar not in `alphabet`, to stand for every such scalar where only equality with those
    /// of `alphabet` is tested.
    static func outside(_ alphabet: Set<Unicode.Scalar>) -> Unicode.Scalar {
        (UInt32(0x41)...).lazy.compactMap(Unicode.Scalar.init).first { !alphabet.contains($0) }!
    }
}
