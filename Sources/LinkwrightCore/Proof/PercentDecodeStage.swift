/// Percent-decoding before the inner machine, exactly as `PercentDecoding.decode` does it: `%XX`
/// becomes a byte, a `%` not followed by two hex digits stays as written, every other scalar
/// contributes its UTF-8 bytes, and bytes that are not UTF-8 read as U+FFFD, one for each
/// maximal ill-formed part (the part is dropped and the byte that broke it read afresh).
///
/// Bytes beyond ASCII are followed through Unicode's table of well-formed sequences and a trie of
/// the encodings of the scalars the inner machine tells apart one by one; every other complete
/// sequence decodes to one stand-in scalar, which the inner machine reads like any other such
/// scalar (beyond ASCII, sets either are all of them but the ones told apart, or hold none), so
/// a state never holds a partial scalar value.
struct PercentDecodeStage<Inner: PartMachine>: PartMachine {
    let inner: Inner
    var constructionWork: Int { inner.constructionWork }
    private let tables: LazyTables

    /// The tables, made on first use: a stage made only for its distinctions (each new test's,
    /// `ProofViews.distinctions`) never steps.
    private final class LazyTables {
        private let inner: Inner
        init(_ inner: Inner) { self.inner = inner }

        private(set) lazy var value: DecodingTables = {
            var distinctions = ScalarDistinctions()
            inner.distinctions(into: &distinctions)
            return DecodingTables.of(distinctions)
        }()
    }

    init(_ inner: Inner) {
        self.inner = inner
        tables = LazyTables(inner)
    }

    /// Byte trie of the UTF-8 encodings of the non-ASCII scalars `inner` tells apart: node 0 is
    /// the root; each node's children by byte, and the scalar a complete encoding stands for.
    private var trie: [(children: [UInt8: Int32], scalar: Unicode.Scalar?)] { tables.value.trie }
    /// What a valid multi-byte sequence outside the trie decodes to, as far as `inner` can tell.
    private var otherScalar: Unicode.Scalar { tables.value.otherScalar }

    var escapedByteKeys: [Int32]? { tables.value.escapedByteKeys }

    struct State: Hashable {
        var decoded: Inner.State
        /// 0: nothing pending; 1: a `%`; otherwise 2 + the raw hex digit after the `%`.
        var pending: UInt32 = 0
        /// Continuation bytes the current UTF-8 sequence still needs, and the range of the next.
        var needed: UInt8 = 0
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        /// The trie node of the sequence so far; -1 when it left the trie.
        var node: Int32 = 0
    }

    var start: State { State(decoded: inner.start) }
    func start(innermost subset: Int) -> State { State(decoded: inner.start(innermost: subset)) }

    func step(_ state: State, _ scalar: Unicode.Scalar) -> State {
        var state = state
        switch state.pending {
        case 0:
            literal(scalar, &state)
        case 1:
            if Self.hexValue(scalar) != nil {
                state.pending = 2 + scalar.value
            } else {
                state.pending = 0
                byte(0x25, &state)
                literal(scalar, &state)
            }
        default:
            let first = Unicode.Scalar(state.pending - 2)!
            state.pending = 0
            if let low = Self.hexValue(scalar) {
                byte(Self.hexValue(first)! << 4 | low, &state)
            } else {
                byte(0x25, &state)
                byte(UInt8(first.value), &state)
                literal(scalar, &state)
            }
        }
        return state
    }

    /// The verdict once the text ends: pending escapes stay as written, and a sequence cut short
    /// reads as U+FFFD.
    func accepts(_ state: State) -> Bool { inner.accepts(settled(state).decoded) }

    func settled(_ state: State) -> State {
        var state = state
        if state.pending >= 1 { byte(0x25, &state) }
        if state.pending >= 2 { byte(UInt8(state.pending - 2), &state) }
        state.pending = 0
        if state.needed > 0 { replace(&state) }
        return state
    }

    /// What is still pending only adds scalars, so a dead inner state stays dead. Within an
    /// escape or a UTF-8 sequence the next decoded scalar is one of few (the `%` written alone,
    /// the bytes the escape can still make, a scalar of the trie, the stand-in, U+FFFD): when
    /// the inner machine dies on each, so does this state. This keeps a search from walking
    /// every spelling of every escape where the decoded text can no longer be accepted.
    func isDead(_ state: State) -> Bool {
        if inner.isDead(state.decoded) { return true }
        guard state.pending != 0 || state.needed > 0, !accepts(state) else { return false }
        var next: [Unicode.Scalar] = [otherScalar, "\u{FFFD}"] + trie.compactMap(\.scalar)
        switch state.pending {
        case 0: break
        case 1: next += ["%"] + (0..<0x80).map { Unicode.Scalar(UInt8($0)) }
        default:
            let row = Self.hexValue(Unicode.Scalar(state.pending - 2)!)! << 4
            next += ["%"] + (row < 0x80 ? (0..<16).map { Unicode.Scalar(row | UInt8($0)) } : [])
        }
        return next.allSatisfy { inner.isDead(inner.step(state.decoded, $0)) }
    }
    func isUniversal(_ state: State) -> Bool { inner.isUniversal(state.decoded) }

    /// `%`, every hex digit (their values and their raw spelling both matter), U+FFFD and what
    /// the inner machine tells apart.
    func distinctions(into distinctions: inout ScalarDistinctions) {
        inner.distinctions(into: &distinctions)
        distinctions.addEscapes()
    }

    /// A scalar written as itself: `%` starts an escape, others are their own UTF-8 bytes.
    private func literal(_ scalar: Unicode.Scalar, _ state: inout State) {
        if scalar == "%" {
            state.pending = 1
        } else if scalar.isASCII {
            byte(UInt8(scalar.value), &state)
        } else {
            // Its bytes start afresh: they end a sequence under way, then decode to the scalar.
            if state.needed > 0 { replace(&state) }
            state.decoded = inner.step(state.decoded, scalar)
        }
    }

    /// The sequence under way is ill-formed: one U+FFFD for it.
    private func replace(_ state: inout State) {
        state.decoded = inner.step(state.decoded, "\u{FFFD}")
        state.needed = 0
        state.node = 0
    }

    /// One decoded byte into the UTF-8 reading (Unicode's table of well-formed sequences).
    private func byte(_ byte: UInt8, _ state: inout State) {
        if state.needed > 0 {
            guard (state.low...state.high).contains(byte) else {
                // The maximal ill-formed part ends here; this byte starts afresh.
                replace(&state)
                self.byte(byte, &state)
                return
            }
            state.needed -= 1
            state.low = 0x80
            state.high = 0xBF
            state.node = state.node < 0 ? -1 : trie[Int(state.node)].children[byte] ?? -1
            if state.needed == 0 {
                let scalar = state.node < 0 ? otherScalar : trie[Int(state.node)].scalar ?? otherScalar
                state.decoded = inner.step(state.decoded, scalar)
                state.node = 0
            }
            return
        }
        switch byte {
        case 0x00...0x7F:
            state.decoded = inner.step(state.decoded, Unicode.Scalar(byte))
            return
        case 0xC2...0xDF: (state.needed, state.low, state.high) = (1, 0x80, 0xBF)
        case 0xE0: (state.needed, state.low, state.high) = (2, 0xA0, 0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (state.needed, state.low, state.high) = (2, 0x80, 0xBF)
        case 0xED: (state.needed, state.low, state.high) = (2, 0x80, 0x9F)
        case 0xF0: (state.needed, state.low, state.high) = (3, 0x90, 0xBF)
        case 0xF1...0xF3: (state.needed, state.low, state.high) = (3, 0x80, 0xBF)
        case 0xF4: (state.needed, state.low, state.high) = (3, 0x80, 0x8F)
        default:
            // Not a lead byte: ill-formed alone.
            state.decoded = inner.step(state.decoded, "\u{FFFD}")
            return
        }
        state.node = trie[0].children[byte] ?? -1
    }

    private static func hexValue(_ scalar: Unicode.Scalar) -> UInt8? {
        switch scalar {
        case "0"..."9": UInt8(scalar.value - 0x30)
        case "a"..."f": UInt8(scalar.value - 0x61 + 10)
        case "A"..."F": UInt8(scalar.value - 0x41 + 10)
        default: nil
        }
    }
}

/// Decoded query text as the proof searches it: the query's own `&` and `=` separate items, while
/// a `&` or `=` written escaped (`%26`, `%3D`) is text. At the decoded level the escaped ones are
/// stand-in scalars (noncharacters no pattern names), read back as `&` and `=` by every machine
/// reading item names, values or the whole query.
enum QuerySeparators {
    static let escapedAmpersand = Unicode.Scalar(UInt32(0xFDD0))!
    static let escapedEquals = Unicode.Scalar(UInt32(0xFDD1))!

    /// `scalar` as decoded text reads it.
    static func text(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        switch scalar {
        case escapedAmpersand: "&"
        case escapedEquals: "="
        default: scalar
        }
    }
}

/// Reads the query's stand-ins for escaped separators as the characters they are.
struct EscapedSeparatorStage<Inner: PartMachine>: PartMachine {
    let inner: Inner
    var constructionWork: Int { inner.constructionWork }

    var start: Inner.State { inner.start }
    func start(innermost subset: Int) -> Inner.State { inner.start(innermost: subset) }
    func step(_ state: Inner.State, _ scalar: Unicode.Scalar) -> Inner.State {
        inner.step(state, QuerySeparators.text(scalar))
    }
    func accepts(_ state: Inner.State) -> Bool { inner.accepts(state) }
    func isDead(_ state: Inner.State) -> Bool { inner.isDead(state) }
    func isUniversal(_ state: Inner.State) -> Bool { inner.isUniversal(state) }
    func packed(_ state: Inner.State) -> UInt64? { inner.packed(state) }
    func distinctions(into distinctions: inout ScalarDistinctions) {
        inner.distinctions(into: &distinctions)
        distinctions.add([QuerySeparators.escapedAmpersand, QuerySeparators.escapedEquals, "&", "="])
    }
}

/// Per byte beyond ASCII, its place in Unicode's table of well-formed sequences, as
/// `DecodingTables.byteKeys` numbers it: made once, not per byte of every distinctions.
private let utf8SequencePlaces: [Int32] = (0x80...0xFF).map { byte in
    let starts: [Int] = [0x80, 0x90, 0xA0, 0xC0, 0xC2, 0xE0, 0xE1, 0xED, 0xEE, 0xF0, 0xF1, 0xF4, 0xF5]
    let place = starts.lastIndex { $0 <= byte }!
    // C0–C1 and F5–FF are never lead bytes; E1–EC and EE–EF lead alike.
    let alike = [
        0x80: 0x80, 0x90: 0x90, 0xA0: 0xA0, 0xC0: 0xC0, 0xC2: 0xC2, 0xE0: 0xE0, 0xE1: 0xE1,
        0xED: 0xED, 0xEE: 0xE1, 0xF0: 0xF0, 0xF1: 0xF1, 0xF4: 0xF4, 0xF5: 0xC0,
    ]
    return Int32(0x2000 + alike[starts[place]]!)
}

/// What decoding needs of what its inner machine tells apart (`PercentDecodeStage`), kept per
/// process per distinctions (`of`): the proof of every pair of a changelog's revisions makes
/// the machines of the same patterns again.
struct DecodingTables {
    let trie: [(children: [UInt8: Int32], scalar: Unicode.Scalar?)]
    let otherScalar: Unicode.Scalar
    let escapedByteKeys: [Int32]

    private static let known = ProcessMemo<ScalarDistinctions, DecodingTables>(limit: 10_000)

    static func of(_ distinctions: ScalarDistinctions) -> DecodingTables {
        known.value(distinctions) { DecodingTables(distinctions) }
    }

    init(_ distinctions: ScalarDistinctions) {
        var trie: [(children: [UInt8: Int32], scalar: Unicode.Scalar?)] = [([:], nil)]
        for scalar in distinctions.nonASCII {
            var node = 0
            for byte in String(scalar).utf8 {
                if let child = trie[node].children[byte] {
                    node = Int(child)
                } else {
                    trie.append(([:], nil))
                    trie[node].children[byte] = Int32(trie.count - 1)
                    node = trie.count - 1
                }
            }
            trie[node].scalar = scalar
        }
        self.trie = trie
        let told = Set(distinctions.nonASCII.map(\.value))
        otherScalar = (UInt32(0xA0)...).lazy.compactMap(Unicode.Scalar.init).first { !told.contains($0.value) }!
        escapedByteKeys = Self.byteKeys(distinctions, trie: trie)
    }

    /// An ASCII byte reads as its scalar, so as the inner machine's class of it; a byte beyond
    /// ASCII on a path of the trie is its own; any other is read by its place in Unicode's table
    /// of well-formed sequences alone (which lead bytes need how many continuation bytes in
    /// which range, and which continuation ranges it checks).
    private static func byteKeys(
        _ distinctions: ScalarDistinctions, trie: [(children: [UInt8: Int32], scalar: Unicode.Scalar?)]
    ) -> [Int32] {
        let sets = Array(distinctions.sets)
        var classes: [[Bool]: Int32] = [:]
        let onTrie = Set(trie.flatMap(\.children.keys))
        return (0...255).map { (byte: Int) -> Int32 in
            if byte < 0x80 {
                if distinctions.scalars.contains(UInt32(byte)) { return Int32(byte) }
                let scalar = Unicode.Scalar(UInt8(byte))
                let key = sets.map { $0.contains(scalar) }
                if let known = classes[key] { return known }
                classes[key] = Int32(0x1000 + classes.count)
                return classes[key]!
            }
            if onTrie.contains(UInt8(byte)) { return Int32(byte) }
            return utf8SequencePlaces[byte - 0x80]
        }
    }
}
