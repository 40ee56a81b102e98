/// Deterministic machines that read the raw text of one URL part (path, query or fragment) one
/// Unicode scalar at a time and say whether a rule's test of that part accepts it, with the
/// same preparation the evaluator applies (`ComparedValues`): percent-decoding, case folding,
/// Apple's path slash rules, query-item splitting, Android's path attributes.
///
/// The behaviour proof (`BehaviourProof`) runs many of them side by side breadth-first, so a
/// machine must be deterministic and its states hashable; `PartView` interns the states.
protocol PartMachine {
    associatedtype State: Hashable
    var start: State { get }
    /// The start state with the innermost pattern automaton in `subset` (a state of its DFA)
    /// rather than its own start: how a union of the first rules of a list starts.
    func start(innermost subset: Int) -> State
    func step(_ state: State, _ scalar: Unicode.Scalar) -> State
    func accepts(_ state: State) -> Bool
    /// No text read from here on is accepted (a sound under-approximation: `false` is safe).
    func isDead(_ state: State) -> Bool
    /// Every text read from here on is accepted (a sound under-approximation: `false` is safe).
    func isUniversal(_ state: State) -> Bool
    /// The scalars this machine tells apart, for choosing the search's alphabet.
    func distinctions(into distinctions: inout ScalarDistinctions)
    /// The automaton nodes its DFAs have visited building states (`SubsetDFA.constructionWork`).
    var constructionWork: Int { get }
    /// For a machine percent-decoding its whole text first: per byte, a number that is the same
    /// for bytes an escape of which it reads alike; `nil` for other machines.
    var escapedByteKeys: [Int32]? { get }
    /// `state` with what it holds of an unfinished escape or UTF-8 sequence read as the text
    /// ending there reads it: the state a search goes on from once the next scalar is known not
    /// to finish it (`DimensionSearch`). Other machines hold nothing pending.
    func settled(_ state: State) -> State
    /// `state` as one number, different for different states, when it packs into one
    /// (`PartView` numbers such states through a flat table rather than by hashing them);
    /// `nil` for states that do not.
    func packed(_ state: State) -> UInt64?
}

extension PartMachine {
    var escapedByteKeys: [Int32]? { nil }
    func settled(_ state: State) -> State { state }
    func packed(_ state: State) -> UInt64? { nil }
}

/// What some machine treats differently from other scalars: scalars tested one by one and sets
/// tested as a whole. Two scalars in no individual test and in the same sets are read alike.
/// Equal distinctions make equal tables (`ProofAlphabet.of`, `PercentDecodeStage`).
struct ScalarDistinctions: Hashable {
    var scalars = DistinctScalars()
    var sets: Set<ScalarSet> = []

    mutating func add(_ test: ScalarTest) {
        switch test {
        case .scalar(let scalar), .anyExcept(let scalar): scalars.insert(scalar.value)
        case .set(let set): sets.insert(set)
        case .any: break
        }
    }

    mutating func add(_ text: some Sequence<Unicode.Scalar>) {
        for scalar in text { scalars.insert(scalar.value) }
    }

    /// Every test `automaton` performs (`PatternMachine`).
    mutating func add(testsOf automaton: Automaton) {
        for case .consume(let test, _) in automaton.nodes { add(test) }
    }

    /// What a machine reading folded text tells apart, read before folding (`FoldStage`): every
    /// scalar folding onto one told apart is told apart too, and each set holds the scalars
    /// folding into it.
    var unfolded: ScalarDistinctions {
        var unfolded = ScalarDistinctions()
        unfolded.scalars = scalars
        for (scalar, folded) in CaseFolding.unfoldings where scalars.contains(folded) {
            unfolded.scalars.insert(scalar)
        }
        for set in sets {
            let into = CaseFolding.unfoldings.filter { set.contains(Unicode.Scalar($0.folded)!) }
            unfolded.sets.insert(ScalarSet(set.ranges + into.map { $0.scalar...$0.scalar }))
        }
        return unfolded
    }

    /// What percent-decoding reads besides the decoded text: `%` and every hex digit (their
    /// values and their raw spelling both matter) (`PercentDecodeStage`).
    mutating func addEscapes() { add("%0123456789abcdefABCDEF".unicodeScalars) }

    mutating func formUnion(_ other: ScalarDistinctions) {
        scalars.formUnion(other.scalars)
        if !other.sets.isEmpty { sets.formUnion(other.sets) }
    }

    /// The individual scalars beyond ASCII. Beyond ASCII a set holds either none of the other
    /// scalars (Apple's predefined classes are ASCII) or all of them (an Android glob's "any
    /// other character"), so these are all the non-ASCII scalars a machine reads differently.
    var nonASCII: [Unicode.Scalar] { scalars.filter { $0 >= 0x80 }.sorted().compactMap(Unicode.Scalar.init) }
}

/// Scalars some machines test one by one: ASCII ones, nearly all in URLs, as bits, the others
/// in a set. An analysis joins those of every rule of its lists: with a set alone, joining a
/// thousand rules' took most of the time of making a changelog's alphabets.
struct DistinctScalars: Sequence, Hashable {
    /// Bit `n` of `ascii[n / 64]` is scalar `n`.
    private var ascii: (UInt64, UInt64) = (0, 0)
    private var others: Set<UInt32> = []

    static func == (one: DistinctScalars, other: DistinctScalars) -> Bool {
        one.ascii == other.ascii && one.others == other.others
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(ascii.0)
        hasher.combine(ascii.1)
        hasher.combine(others)
    }

    mutating func insert(_ value: UInt32) {
        switch value {
        case 0..<64: ascii.0 |= 1 << UInt64(value)
        case 64..<128: ascii.1 |= 1 << UInt64(value - 64)
        default: others.insert(value)
        }
    }

    func contains(_ value: UInt32) -> Bool {
        switch value {
        case 0..<64: ascii.0 & (1 << UInt64(value)) != 0
        case 64..<128: ascii.1 & (1 << UInt64(value - 64)) != 0
        default: others.contains(value)
        }
    }

    mutating func formUnion(_ other: DistinctScalars) {
        ascii.0 |= other.ascii.0
        ascii.1 |= other.ascii.1
        if !other.others.isEmpty { others.formUnion(other.others) }
    }

    /// ASCII in ascending order, then the others in no particular order.
    func makeIterator() -> Iterator { Iterator(ascii: [ascii.0, ascii.1], others: others.makeIterator()) }

    struct Iterator: IteratorProtocol {
        fileprivate var ascii: [UInt64]
        fileprivate var others: Set<UInt32>.Iterator
        private var word = 0

        fileprivate init(ascii: [UInt64], others: Set<UInt32>.Iterator) {
            self.ascii = ascii
            self.others = others
        }

        mutating func next() -> UInt32? {
            while word < ascii.count {
                if ascii[word] != 0 {
                    let bit = ascii[word].trailingZeroBitCount
                    ascii[word] &= ascii[word] - 1
                    return UInt32(word * 64 + bit)
                }
                word += 1
            }
            return others.next()
        }
    }
}

/// A pattern automaton as a machine over already-prepared text.
struct PatternMachine: PartMachine {
    let dfa: SubsetDFA

    init(_ automaton: Automaton) { dfa = SubsetDFA(automaton) }
    init(dfa: SubsetDFA) { self.dfa = dfa }

    var start: Int { dfa.start }
    func start(innermost subset: Int) -> Int { subset }
    func step(_ state: Int, _ scalar: Unicode.Scalar) -> Int { dfa.step(state, scalar) }
    func accepts(_ state: Int) -> Bool { dfa.accepts(state) }
    func isDead(_ state: Int) -> Bool { dfa.isEmpty(state) }
    func isUniversal(_ state: Int) -> Bool { dfa.isUniversal(state) }
    func distinctions(into distinctions: inout ScalarDistinctions) { distinctions.add(testsOf: dfa.automaton) }
    var constructionWork: Int { dfa.constructionWork }
}

/// Exactly one literal text: item names, Android `path` attributes.
struct LiteralMachine: PartMachine {
    let text: [Unicode.Scalar]
    /// Accepts the literal followed by anything (Android `pathPrefix`).
    var isPrefix = false

    /// The number of scalars matched so far; -1 once the text can no longer match.
    var start: Int { 0 }
    func start(innermost subset: Int) -> Int { start }
    func step(_ state: Int, _ scalar: Unicode.Scalar) -> Int {
        guard state >= 0 else { return -1 }
        if state == text.count { return isPrefix ? state : -1 }
        return text[state] == scalar ? state + 1 : -1
    }
    func accepts(_ state: Int) -> Bool { state == text.count }
    func isDead(_ state: Int) -> Bool { state < 0 }
    func isUniversal(_ state: Int) -> Bool { isPrefix && state == text.count }
    func distinctions(into distinctions: inout ScalarDistinctions) { distinctions.add(text) }
    var constructionWork: Int { 0 }
}

/// Case folding before the inner machine, as `PatternOptions.prepare` folds values of
/// case-insensitive rules scalar by scalar (`CaseFolding.fold`).
struct FoldStage<Inner: PartMachine>: PartMachine {
    let inner: Inner
    var constructionWork: Int { inner.constructionWork }

    var start: Inner.State { inner.start }
    func start(innermost subset: Int) -> Inner.State { inner.start(innermost: subset) }
    func step(_ state: Inner.State, _ scalar: Unicode.Scalar) -> Inner.State {
        inner.step(state, CaseFolding.fold(scalar))
    }
    func accepts(_ state: Inner.State) -> Bool { inner.accepts(state) }
    func isDead(_ state: Inner.State) -> Bool { inner.isDead(state) }
    func isUniversal(_ state: Inner.State) -> Bool { inner.isUniversal(state) }
    func packed(_ state: Inner.State) -> UInt64? { inner.packed(state) }

    /// The inner machine's, `unfolded`.
    func distinctions(into distinctions: inout ScalarDistinctions) {
        var own = ScalarDistinctions()
        inner.distinctions(into: &own)
        distinctions.formUnion(own.unfolded)
    }
}

extension CaseFolding {
    /// Every scalar whose fold is another scalar, with that fold: what case-insensitive rules
    /// read alike. Computed once, on first use, from the scalars of `casedPlanes` that Unicode
    /// says change when lowercased (`fold` is a lowercase mapping, and the property a bit in
    /// the runtime's tables): asking each of the 131,072 scalars for its lowercase mapping, a
    /// `String`, cost ~82 M instructions, the most of any proof step of a small changelog with
    /// case-insensitive rules. `PartMachineTests` checks it against folding every scalar.
    static let unfoldings: [(scalar: UInt32, folded: UInt32)] = unfoldings(
        in: casedPlanes, where: { $0.properties.changesWhenLowercased })

    /// The scalars of `scalars` whose fold is another scalar, among those `candidate` holds for.
    static func unfoldings(
        in scalars: ClosedRange<UInt32>, where candidate: (Unicode.Scalar) -> Bool = { _ in true }
    ) -> [(scalar: UInt32, folded: UInt32)] {
        scalars.compactMap { value in
            guard let scalar = Unicode.Scalar(value), candidate(scalar) else { return nil }
            let folded = fold(scalar)
            return folded == scalar ? nil : (value, folded.value)
        }
    }

    /// The Basic and Supplementary Multilingual Planes, where Unicode places every script,
    /// cased or not; the planes above hold ideographs, tags, variation selectors and private
    /// use, none with case. `fold` reads the runtime's Unicode data, which may be newer than
    /// the one tested here (`PartMachineTests`), so the table reads whole planes rather than
    /// today's cased blocks: a tenth of all scalars, where reading all 1.1 M cost ~690 M
    /// instructions (a `String` per scalar).
    static let casedPlanes: ClosedRange<UInt32> = 0...0x1_FFFF
}

/// Apple's path slash rules (`PatternOptions.appleSlashRules`) before the inner machine: the
/// inner machine reads `/core/` for a raw path whose leading and trailing slashes around `core`
/// are dropped. The state keeps the inner state after everything read and the one after the
/// last scalar that is not a slash, so trailing slashes need no lookahead.
struct AppleSlashStage<Inner: PartMachine>: PartMachine {
    let inner: Inner
    var constructionWork: Int { inner.constructionWork }

    struct State: Hashable {
        /// Only slashes so far: the core has not started, and both inner states are the start.
        var leading: Bool
        var full: Inner.State
        var beforeSlashes: Inner.State
    }

    var start: State { State(leading: true, full: inner.start, beforeSlashes: inner.start) }

    func start(innermost subset: Int) -> State {
        let start = inner.start(innermost: subset)
        return State(leading: true, full: start, beforeSlashes: start)
    }

    func step(_ state: State, _ scalar: Unicode.Scalar) -> State {
        if state.leading {
            if scalar == "/" { return state }
            let next = inner.step(inner.step(state.full, "/"), scalar)
            return State(leading: false, full: next, beforeSlashes: next)
        }
        let full = inner.step(state.full, scalar)
        return State(leading: false, full: full, beforeSlashes: scalar == "/" ? state.beforeSlashes : full)
    }

    /// The core so far, closed with its `/`.
    func accepts(_ state: State) -> Bool { inner.accepts(inner.step(state.beforeSlashes, "/")) }

    /// Slashes alone keep the verdict, so the path is lost only when it is rejected now and
    /// everything read since the last slash leads nowhere.
    func isDead(_ state: State) -> Bool { !state.leading && inner.isDead(state.full) && !accepts(state) }

    func isUniversal(_ state: State) -> Bool {
        inner.isUniversal(state.leading ? inner.step(state.full, "/") : state.beforeSlashes)
    }

    func distinctions(into distinctions: inout ScalarDistinctions) {
        inner.distinctions(into: &distinctions)
        distinctions.scalars.insert(UInt32(("/" as Unicode.Scalar).value))
    }

    /// Both inner states and the flag, when the inner states are DFA states (small
    /// non-negative numbers): hashing the state for a dictionary cost a view more than the
    /// automaton's step did (Apple's paths read through this stage).
    func packed(_ state: State) -> UInt64? {
        guard let full = state.full as? Int, let beforeSlashes = state.beforeSlashes as? Int,
            (0..<(1 << 31)).contains(full), (0..<(1 << 31)).contains(beforeSlashes)
        else { return nil }
        return UInt64(full) << 32 | UInt64(beforeSlashes) << 1 | (state.leading ? 1 : 0)
    }
}
