/// The URL parts the proof searches one at a time: the parts `URLPart.Key` names but a query
/// item, which the proof searches inside the query (`QueryItemSearch`). The raw value indexes
/// the proof's tables per part.
enum URLDimension: Int, CaseIterable, Sendable {
    case path, query, fragment

    /// The part as the rest of the engine names it.
    var key: URLPart.Key {
        switch self {
        case .path: .path
        case .query: .query
        case .fragment: .fragment
        }
    }

    var text: TextKind { .part(key) }
}

/// The texts the proof writes: URL parts, among them a query item's value (`.queryItem`), and
/// an item's name.
enum TextKind: Hashable, Sendable {
    case part(URLPart.Key)
    case itemName

    /// Scalars the text cannot hold as written: what `LinkURL` rejects (space, controls, DEL)
    /// and the delimiters that would end it (`?` and `#` in the path, `#` in the query, and in an
    /// item `&`, and `=` in its name).
    func forbids(_ value: UInt32) -> Bool {
        if value <= 0x20 || value == 0x7F { return true }
        switch self {
        case .part(.path): return value == 0x3F || value == 0x23
        case .part(.query): return value == 0x23
        case .part(.fragment): return false
        case .part(.queryItem): return value == 0x23 || value == 0x26
        case .itemName: return value == 0x23 || value == 0x26 || value == 0x3D
        }
    }
}

/// The scalars one search tries: one per class of scalars every machine of an analysis reads
/// alike, readable ones first, so witnesses are short and legible.
struct ProofAlphabet {
    let scalars: [Unicode.Scalar]

    /// Scalars preferred as a class's stand-in, in order.
    private static let preferred = Array(
        "abcdefghijklmnopqrstuvwxyz0123456789-_~./ABCDEFGHIJKLMNOPQRSTUVWXYZ!$'()*+,;:@=&%?#[]^`{|}\"<>\\éüñøß中"
            .unicodeScalars)

    /// The alphabet `init` makes, made once per process per distinctions: the proofs of a
    /// changelog's pairs of revisions tell apart the same scalars nearly every time.
    static func of(_ distinctions: ScalarDistinctions, text: TextKind, decoded: Bool = false) -> ProofAlphabet {
        known.value(Made(distinctions: distinctions, text: text, decoded: decoded)) {
            ProofAlphabet(distinctions, text: text, decoded: decoded)
        }
    }

    /// What an alphabet is made from.
    private struct Made: Hashable {
        var distinctions: ScalarDistinctions
        var text: TextKind
        var decoded: Bool
    }

    private static let known = ProcessMemo<Made, ProofAlphabet>(limit: 1_000)

    /// `decoded`: the alphabet of decoded text, where any scalar may stand (it is written
    /// escaped when the URL cannot hold it as is).
    init(_ distinctions: ScalarDistinctions, text: TextKind, decoded: Bool = false) {
        let sets = Array(distinctions.sets)
        func key(_ value: UInt32) -> [Bool] {
            let scalar = Unicode.Scalar(value)!
            return sets.map { $0.contains(scalar) }
        }
        var chosen: [UInt32] = []
        var classes: Set<[Bool]> = []
        func consider(_ value: UInt32) {
            guard decoded || !text.forbids(value), Unicode.Scalar(value) != nil else { return }
            if distinctions.scalars.contains(value) {
                if !chosen.contains(value) { chosen.append(value) }
            } else if classes.insert(key(value)).inserted {
                chosen.append(value)
            }
        }
        for scalar in Self.preferred { consider(scalar.value) }
        for value in distinctions.scalars.sorted() { consider(value) }
        // Every other class, from the boundaries of the sets and the scalars told apart.
        var cuts: Set<UInt32> = [0xA1]
        for set in sets { for range in set.ranges { cuts.formUnion([range.lowerBound, range.upperBound &+ 1]) } }
        for value in distinctions.scalars { cuts.insert(value &+ 1) }
        for value in cuts.sorted() where value < 0x11_0000 {
            // The first scalar of the run starting here that may stand for its class.
            var candidate = value
            while candidate < 0x11_0000
                && (Unicode.Scalar(candidate) == nil || (0x7F...0xA0).contains(candidate)
                    || distinctions.scalars.contains(candidate))
            {
                candidate += 1
            }
            if candidate < 0x11_0000 { consider(candidate) }
        }
        // Remaining ASCII, so a class living only there (between two cuts) is not lost.
        for value in UInt32(0x21)..<0x7F { consider(value) }
        scalars = chosen.compactMap(Unicode.Scalar.init)
    }
}

/// A part machine with its states numbered and its transitions cached per class of symbols, so
/// a search steps each state once per class whatever the machine behind it. Not generic itself:
/// the machine's code is reached through closures made where its type is known, so it is
/// compiled for that type rather than through generic metadata on every step. Like `SubsetDFA`,
/// owned by one thread and never reached twice at once, so its tables skip exclusivity checks.
final class PartView {
    let alphabet: ProofAlphabet
    /// Per symbol, a class: symbols with the same class lead to the same states in this view,
    /// so transitions are kept per class (`classCount` per state).
    let symbolClasses: [Int32]
    private let classCount: Int
    /// Whether the view accepts an absent part (only fragments tell absent from empty).
    let acceptsAbsent: Bool
    let start: Int32 = 0
    /// Per state: accepts (1), dead (2), universal (4).
    @exclusivity(unchecked) private var flags: [UInt8] = []
    /// `classCount` entries per state, -1 until computed.
    @exclusivity(unchecked) private var transitions: [Int32] = []
    private let successor: (Int32, Unicode.Scalar) -> Int32
    private let machineWork: () -> Int
    /// Automaton nodes visited building the states this view stepped to (`SubsetDFA`): what a
    /// new transition really cost, counted against a search's budget with its steps.
    @exclusivity(unchecked) private(set) var constructionWork = 0
    private let flagsOf: (Int32) -> UInt8
    private let innermostStart: (Int) -> Int32
    private let makeDecoded: (() -> PartView)?
    private let settle: (Int32) -> Int32
    /// For a view percent-decoding its whole text first, per byte, a number that is the same for
    /// bytes an escape of which it reads alike (`PartMachine.escapedByteKeys`). Made on first use:
    /// only searches stepping escapes whole ask (`DimensionSearch`), and a search where every view
    /// decodes reads decoded views instead, so most views of decoding rules never need the
    /// machine's decoding tables, which cost more to make than the rest of the view.
    private(set) lazy var escapedByteKeys: [Int32]? = machineEscapedByteKeys()
    private let machineEscapedByteKeys: () -> [Int32]?

    /// For a query dictionary's view: its items, for searching item by item (`QueryItemSearch`).
    var items: QueryItemsStructure?

    /// For a view that percent-decodes its whole text first: the same view reading the decoded
    /// text. When every view of a search decodes, the search runs on decoded text instead (see
    /// `DimensionSearch`), which spares it every spelling of every escape.
    private(set) lazy var decoded: PartView? = makeDecoded?()

    /// `absent`: the verdict for an absent part; `nil` reads absence as the empty text.
    /// `decoded` makes the view of the decoded text, when `machine` decodes first.
    init<Machine: PartMachine>(
        _ machine: Machine, alphabet: ProofAlphabet, absent: Bool? = nil, decoded: (() -> PartView)? = nil
    ) {
        makeDecoded = decoded
        self.alphabet = alphabet
        acceptsAbsent = absent ?? machine.accepts(machine.start)
        var distinctions = ScalarDistinctions()
        machine.distinctions(into: &distinctions)
        symbolClasses = Self.keptClasses(of: alphabet, distinctions)
        classCount = Int(symbolClasses.max() ?? -1) + 1
        let states = StateTable(machine)
        successor = { states.intern(machine.step(states.states[Int($0)], $1)) }
        machineWork = { machine.constructionWork }
        flagsOf = { states.flags(Int($0)) }
        innermostStart = { states.intern(machine.start(innermost: $0)) }
        settle = { states.intern(machine.settled(states.states[Int($0)])) }
        machineEscapedByteKeys = { machine.escapedByteKeys }
        _ = states.intern(machine.start)
        record(upTo: 0)
    }

    /// `classes`, kept per process: the proof of every pair of a changelog's revisions makes
    /// views of the same patterns over the same alphabets again.
    static func keptClasses(of alphabet: ProofAlphabet, _ distinctions: ScalarDistinctions) -> [Int32] {
        knownClasses.value(ClassesOf(scalars: alphabet.scalars, distinctions: distinctions)) {
            classes(of: alphabet, distinctions)
        }
    }

    /// What a view's classes are made from.
    private struct ClassesOf: Hashable {
        var scalars: [Unicode.Scalar]
        var distinctions: ScalarDistinctions
    }

    private static let knownClasses = ProcessMemo<ClassesOf, [Int32]>(limit: 10_000)

    /// A scalar the machine tests on its own is a class of its own; the others are told apart by
    /// the sets holding them, as a mask (a machine testing more sets than a mask holds is rare
    /// enough to pay for arrays).
    static func classes(of alphabet: ProofAlphabet, _ distinctions: ScalarDistinctions) -> [Int32] {
        let sets = Array(distinctions.sets)
        func numbered<Key: Hashable>(_ key: (Unicode.Scalar) -> Key) -> [Int32] {
            var ids: [Key: Int32] = [:]
            return alphabet.scalars.map { scalar in
                let key = key(scalar)
                if let id = ids[key] { return id }
                ids[key] = Int32(ids.count)
                return Int32(ids.count - 1)
            }
        }
        guard sets.count < 63 else {
            return numbered { scalar in
                [distinctions.scalars.contains(scalar.value) ? Int64(scalar.value) : -1]
                    + sets.map { $0.contains(scalar) ? 1 : 0 }
            }
        }
        return numbered { scalar -> Int64 in
            if distinctions.scalars.contains(scalar.value) { return Int64(scalar.value) }
            var mask: Int64 = 0
            for (index, set) in sets.enumerated() where set.contains(scalar) { mask |= 1 << index }
            return -1 - mask
        }
    }

    private func record(upTo state: Int32) {
        while flags.count <= Int(state) {
            flags.append(flagsOf(Int32(flags.count)))
            transitions += repeatElement(-1, count: classCount)
        }
    }

    func step(_ state: Int32, _ symbol: Int) -> Int32 {
        let slot = Int(state) * classCount + Int(symbolClasses[symbol])
        let known = transitions[slot]
        if known >= 0 { return known }
        let before = machineWork()
        let next = successor(state, alphabet.scalars[symbol])
        constructionWork += machineWork() - before
        record(upTo: next)
        transitions[slot] = next
        return next
    }

    /// `state` with an unfinished escape or UTF-8 sequence read as if the text ended there
    /// (`PartMachine.settled`); the same state for a view that does not decode.
    func settled(_ state: Int32) -> Int32 {
        guard escapedByteKeys != nil else { return state }
        while settledStates.count <= Int(state) { settledStates.append(-1) }
        if settledStates[Int(state)] >= 0 { return settledStates[Int(state)] }
        let next = settle(state)
        record(upTo: next)
        settledStates[Int(state)] = next
        return next
    }

    @exclusivity(unchecked) private var settledStates: [Int32] = []

    func accepts(_ state: Int32) -> Bool { flags[Int(state)] & 1 != 0 }
    func isDead(_ state: Int32) -> Bool { flags[Int(state)] & 2 != 0 }
    func isUniversal(_ state: Int32) -> Bool { flags[Int(state)] & 4 != 0 }
    /// Every text is accepted: the part need not be searched at all.
    var acceptsEverything: Bool { acceptsAbsent && isUniversal(start) }

    /// The state where the innermost pattern automaton is in `subset` (`PartMachine.start(innermost:)`).
    func start(innermost subset: Int) -> Int32 {
        let state = innermostStart(subset)
        record(upTo: state)
        return state
    }

    /// A machine's states, numbered in order of discovery.
    private final class StateTable<Machine: PartMachine> {
        let machine: Machine
        @exclusivity(unchecked) var ids: [Machine.State: Int32] = [:]
        /// For states that are small integers (a DFA's state, a literal's position from -1), the
        /// id of state `n` at `n + 1`, or -1: no hashing for the commonest machines.
        @exclusivity(unchecked) var denseIds: [Int32] = []
        /// The ids of states the machine packs into a number (`PartMachine.packed`), by it.
        @exclusivity(unchecked) var packedIds = StepTable()
        @exclusivity(unchecked) var states: [Machine.State] = []

        init(_ machine: Machine) { self.machine = machine }

        func intern(_ state: Machine.State) -> Int32 {
            if Machine.State.self == Int.self, let position = (state as? Int).map({ $0 + 1 }), position >= 0 {
                if position < denseIds.count, denseIds[position] >= 0 { return denseIds[position] }
                if position >= denseIds.count {
                    denseIds.append(
                        contentsOf: repeatElement(-1, count: max(position + 1, 2 * denseIds.count) - denseIds.count))
                }
                denseIds[position] = Int32(states.count)
                states.append(state)
                return Int32(states.count - 1)
            }
            if let key = machine.packed(state) {
                if let id = packedIds[key] { return Int32(id) }
                packedIds.insert(key, states.count)
                states.append(state)
                return Int32(states.count - 1)
            }
            if let id = ids[state] { return id }
            let id = Int32(states.count)
            ids[state] = id
            states.append(state)
            return id
        }

        func flags(_ id: Int) -> UInt8 {
            let state = states[id]
            return (machine.accepts(state) ? 1 : 0) | (machine.isDead(state) ? 2 : 0)
                | (machine.isUniversal(state) ? 4 : 0)
        }
    }
}
