/// The work a proof may do, counted in view steps (one state of one view, one symbol).
struct ProofBudget {
    var remaining: Int

    var isExhausted: Bool { remaining <= 0 }
}

/// Breadth-first search over the texts of one URL part, with several views side by side. Each
/// product state is visited once, at the first (shortest) text reaching it, so the first text
/// showing a combination of verdicts is a shortest one.
///
/// Views have roles: `required` views must accept (a state where one can no longer accept is
/// not expanded), `rejected` views must not (a state where one accepts everything from here on
/// is not expanded), and `tracked` views are only reported.
struct DimensionSearch {
    enum Role {
        case required
        case rejected
        case tracked
    }

    /// A view and where it starts: its own start, or with its innermost automaton in a given
    /// DFA state (a `PrefixUnion` of some first rules).
    struct Lane: Hashable {
        let view: PartView
        let innermost: Int?

        init(_ view: PartView, innermost: Int? = nil) {
            self.view = view
            self.innermost = innermost
        }

        var start: Int32 { innermost.map(view.start(innermost:)) ?? view.start }

        /// The same lane reading decoded text, when its view decodes first.
        var decoded: Lane? { view.decoded.map { Lane($0, innermost: innermost) } }

        static func == (lhs: Lane, rhs: Lane) -> Bool { lhs.view === rhs.view && lhs.innermost == rhs.innermost }
        func hash(into hasher: inout Hasher) {
            hasher.combine(ObjectIdentifier(view))
            hasher.combine(innermost)
        }
    }

    let dimension: URLDimension
    /// The text searched, for writing witnesses: a URL part, or an item's name or value.
    let text: TextKind
    let views: [PartView]
    let starts: [Int32]
    let roles: [Role]
    /// Every view decodes its text first, so the search reads decoded text: one step per
    /// decoded scalar rather than every spelling of its escapes. Decoded text that is not valid
    /// UTF-8 falls back to the raw text in every view alike, which decoded text reaches too, so
    /// nothing is lost; witnesses are written escaped (`escapedText`).
    let readsDecoded: Bool
    /// Whether the empty path is a value of its own. Apple reads it as `/` (`PatternOptions`
    /// slash rules), so only Android searches it; witnesses otherwise start with `/`.
    let includesEmptyPath: Bool
    /// Whether an escape is stepped as one symbol where some views decode the text and others
    /// read it as written (`EscapeSteps`); `false` steps it scalar by scalar, the search it
    /// replaced, kept as what the differential tests compare it with: both find the same
    /// witnesses.
    let stepsEscapesWhole: Bool
    /// Whether product states a required view can no longer accept in, or a rejected view
    /// accepts everything from, are left out of the table: never visited nor expanded, they
    /// cost only their interning, and most steps reach one. `false` interns them, the search
    /// it replaced, kept as what the differential tests compare it with: both visit the same
    /// values in the same order and spend the same budget (every view still steps every
    /// symbol, so the same transitions are built).
    let skipsBlockedStates: Bool

    init(
        _ dimension: URLDimension, required: [Lane], rejected: [Lane], tracked: [Lane],
        includesEmptyPath: Bool = false, text: TextKind? = nil, stepsEscapesWhole: Bool = true,
        skipsBlockedStates: Bool = true
    ) {
        self.dimension = dimension
        self.text = text ?? dimension.text
        self.includesEmptyPath = includesEmptyPath
        self.stepsEscapesWhole = stepsEscapesWhole
        self.skipsBlockedStates = skipsBlockedStates
        var lanes = required + rejected + tracked
        let decoded = lanes.compactMap(\.decoded)
        readsDecoded = !lanes.isEmpty && decoded.count == lanes.count
        if readsDecoded { lanes = decoded }
        views = lanes.map(\.view)
        starts = lanes.map(\.start)
        roles =
            Array(repeating: .required, count: required.count) + Array(repeating: .rejected, count: rejected.count)
            + Array(repeating: .tracked, count: tracked.count)
    }

    /// The length a value adds to a URL: the path as is, a query or fragment with its `?` or
    /// `#` (an empty query is written as none; a present empty fragment is `#`).
    private func cost(depth: Int, present: Bool = true) -> Int {
        switch dimension {
        case .path: depth
        case .query: depth == 0 ? 0 : depth + 1
        case .fragment: present ? depth + 1 : 0
        }
    }

    /// Visits every value satisfying the required and rejected views, cheapest first, with the
    /// tracked views' verdicts, until `visit` returns true or `limit` (read before each state)
    /// is below the next value's cost. The text of a value comes on demand; `nil` is an absent
    /// fragment. Returns false when the budget ran out first.
    @discardableResult
    func run(
        budget: inout ProofBudget, limit: () -> Int = { .max },
        visit: (_ tracked: [Bool], _ cost: Int, _ text: () -> String?) -> Bool
    ) -> Bool {
        let count = views.count
        func verdicts(_ accepted: (Int) -> Bool) -> [Bool]? {
            var tracked: [Bool] = []
            for index in 0..<count {
                let verdict = accepted(index)
                switch roles[index] {
                case .required: if !verdict { return nil }
                case .rejected: if verdict { return nil }
                case .tracked: tracked.append(verdict)
                }
            }
            return tracked
        }
        if dimension == .fragment, let tracked = verdicts({ views[$0].acceptsAbsent }) {
            if visit(tracked, 0, { nil }) { return true }
        }
        if dimension == .path && includesEmptyPath, let tracked = verdicts({ views[$0].accepts(starts[$0]) }) {
            if visit(tracked, 0, { "" }) { return true }
        }
        let written = { (text: String) in self.readsDecoded ? self.escapedText(text) : text }
        let alphabet = views.first?.alphabet.scalars ?? []
        let symbols = searchSymbols(alphabet)
        let escapes =
            stepsEscapesWhole && !readsDecoded ? EscapeSteps(views, alphabet: alphabet, symbols: symbols) : nil
        // A path starts with "/": the search starts there.
        let root = dimension == .path ? "/" : ""
        var first = starts
        if dimension == .path, let slash = alphabet.firstIndex(of: "/") {
            first = (0..<count).map { views[$0].step(starts[$0], slash) }
        }
        // Each product state holds the views' states and, last, what may follow: anything (0),
        // no hex digit (1: a `%`, or `%` and one hex digit, ended no escape), no `%` (2: an
        // unfinished UTF-8 sequence of escapes ended there).
        let width = count + 1
        var table = ProductStates(width: width)
        _ = table.insert(first + [0])
        var entries = [Entry(parent: -1, symbol: -1, depth: Int32(root.unicodeScalars.count), row: 0)]
        // The views' states within escapes under way and how the text ends there, each
        // followed once, from the first text reaching it.
        var escapeTable = ProductStates(width: width)
        var successor = [Int32](repeating: 0, count: width)
        /// Whether `view` in `state` leaves no witness: a required view that can no longer
        /// accept, or a rejected one that accepts whatever follows.
        func blocks(_ view: Int, _ state: Int32) -> Bool {
            switch roles[view] {
            case .required: views[view].isDead(state)
            case .rejected: views[view].isUniversal(state)
            case .tracked: false
            }
        }
        func blocked(_ state: (Int) -> Int32) -> Bool {
            (0..<count).contains { blocks($0, state($0)) }
        }
        /// Adds `successor`; its row, or -1 when an earlier text reached it.
        func insert(_ constraint: Int32) -> Int32 {
            successor[count] = constraint
            return table.insert(successor) ? Int32(table.count - 1) : -1
        }
        /// `insert`, or -1 for a blocked state with `skipsBlockedStates`.
        func intern(_ constraint: Int32) -> Int32 {
            skipsBlockedStates && blocked({ successor[$0] }) ? -1 : insert(constraint)
        }
        /// An entry within an escape: the views' states `read`, and the state the text ending
        /// there settles to, which goes on with what may follow it (`constraint`; none when
        /// negative: a `%` and a digit read alike as text followed it earlier).
        func addEscapeEntry(_ parent: Int, _ symbol: Int, _ depth: Int32, read: [Int32], end: Int32, constraint: Int32)
        {
            var row: Int32 = -1
            if constraint >= 0 {
                for view in 0..<count { successor[view] = views[view].settled(read[view]) }
                row = intern(constraint)
            }
            let escapeRow = escapeTable.insert(read + [end]) ? Int32(escapeTable.count - 1) : -1
            if row < 0 && escapeRow < 0 { return }
            entries.append(
                Entry(
                    parent: Int32(parent), symbol: Int32(symbol), depth: depth, row: row, escapeRow: escapeRow,
                    escapeEnd: end))
        }
        var head = 0
        while head < entries.count {
            let index = head
            let entry = entries[index]
            head += 1
            let cost = cost(depth: Int(entry.depth))
            if cost > limit() { return true }
            let row = Int(entry.row)
            var expands = false
            if row >= 0 {
                if let tracked = verdicts({ views[$0].accepts(table.rows[row * width + $0]) }),
                    visit(
                        tracked, cost, { written(root + text(endingAt: index, entries: entries, alphabet: alphabet)) })
                {
                    return true
                }
                expands = !blocked { table.rows[row * width + $0] }
            }
            // The escape under way, as each view has read it.
            var escaping: [Int32]?
            // View steps this entry takes: its state's with every symbol that may follow it,
            // and its escape's with what continues it.
            var work = expands ? symbols.count : 0
            if expands, let escapes {
                // No hex digit follows a `%` read as text, and no `%` an unfinished sequence.
                switch table.rows[row * width + count] {
                case 1: work -= escapes.digits.count
                case 2: work -= 1
                default: break
                }
            }
            if let escapes, entry.escapeRow >= 0 {
                let start = Int(entry.escapeRow) * width
                let read = Array(escapeTable.rows[start..<(start + count)])
                if !blocked({ read[$0] }) {
                    escaping = read
                    switch entry.escapeEnd {
                    case Entry.percent: work += escapes.digitsAfterPercent
                    case Entry.sequence: work += 1
                    default: work += escapes.seconds[Int(entry.escapeEnd)].count
                    }
                }
            }
            if work == 0 { continue }
            budget.remaining -= count * work
            if budget.isExhausted { return false }
            let built = views.reduce(0) { $0 + $1.constructionWork }
            let depth = entry.depth + 1
            let constraint = expands ? table.rows[row * width + count] : 0
            for symbol in symbols {
                let digit = escapes?.digit[symbol]
                if let escapes, let escaping {
                    if entry.escapeEnd == Entry.percent, let digit {
                        // `%` and this digit: an escape if another digit follows, else text.
                        guard escapes.loneDigits[digit] || !escapes.seconds[digit].isEmpty else { continue }
                        let read = (0..<count).map { views[$0].step(escaping[$0], symbol) }
                        addEscapeEntry(
                            index, symbol, depth, read: read, end: Int32(digit),
                            constraint: escapes.loneDigits[digit] ? 1 : -1)
                        continue
                    }
                    if entry.escapeEnd >= 0, digit != nil {
                        guard escapes.isSecond[Int(entry.escapeEnd)][symbol] else { continue }
                        let read = (0..<count).map { views[$0].step(escaping[$0], symbol) }
                        if (0..<count).allSatisfy({ views[$0].settled(read[$0]) == read[$0] }) {
                            for view in 0..<count { successor[view] = read[view] }
                            let reached = intern(0)
                            if reached >= 0 {
                                entries.append(
                                    Entry(parent: Int32(index), symbol: Int32(symbol), depth: depth, row: reached))
                            }
                        } else {
                            // A UTF-8 sequence goes on with the next escape, or ends unfinished.
                            addEscapeEntry(index, symbol, depth, read: read, end: Entry.sequence, constraint: 2)
                        }
                        continue
                    }
                    if entry.escapeEnd == Entry.sequence, symbol == escapes.percent {
                        let read = (0..<count).map { views[$0].step(escaping[$0], symbol) }
                        addEscapeEntry(index, symbol, depth, read: read, end: Entry.percent, constraint: 1)
                        continue
                    }
                }
                guard expands else { continue }
                if let escapes {
                    // No hex digit follows a `%` that began no escape, and a `%` after an
                    // unfinished UTF-8 sequence was read with it.
                    if (digit != nil && constraint == 1) || (symbol == escapes.percent && constraint == 2) { continue }
                    if symbol == escapes.percent {
                        let read = (0..<count).map { views[$0].step(table.rows[row * width + $0], symbol) }
                        addEscapeEntry(index, symbol, depth, read: read, end: Entry.percent, constraint: 1)
                        continue
                    }
                }
                // Blocked or not is told as the views step: a closure over `successor` would
                // check each access to it.
                var blocking = false
                for view in 0..<count {
                    let next = views[view].step(table.rows[row * width + view], symbol)
                    successor[view] = next
                    blocking = blocking || blocks(view, next)
                }
                let reached = skipsBlockedStates && blocking ? -1 : insert(0)
                if reached >= 0 {
                    entries.append(Entry(parent: Int32(index), symbol: Int32(symbol), depth: depth, row: reached))
                }
            }
            // New states of large automata cost far more than steps (a union of thousands of
            // `*x*y*z*` rules builds each state from thousands of nodes), so a budget counting
            // steps alone would not bound the search's time.
            budget.remaining -= views.reduce(0) { $0 + $1.constructionWork } - built
        }
        return true
    }

    /// One text the search reached: its last symbol after its parent's text, and what it reads.
    private struct Entry {
        var parent: Int32
        var symbol: Int32
        var depth: Int32
        /// The product state first reached by this text, or -1 (reached before, or none).
        var row: Int32
        /// Within an escape (`EscapeSteps`) first reaching its views' states, their row in the
        /// table of escapes; -1 otherwise.
        var escapeRow: Int32 = -1
        /// How the text ends within the escape: `percent`, `sequence` (an escape leaving a UTF-8
        /// sequence unfinished), or `%` and the hex digit of this position in `digits`.
        var escapeEnd: Int32 = -1

        static let percent: Int32 = -1
        static let sequence: Int32 = -2
    }

    /// Escapes stepped as one symbol, for a search where some views decode the text and others
    /// read it as written. Scalar by scalar, every product state was held once per pending `%`,
    /// `%` and a hex digit, and unfinished UTF-8 sequence, each stepped with every symbol.
    /// Here no product state holds half an escape: the states within an escape or a sequence of
    /// them (`%C3%A9`) are followed in a table of their own and step only with what continues
    /// them, and the text ending within one is settled at once (`PartView.settled`: a `%` or `%`
    /// and a digit read as text, an unfinished sequence as U+FFFD), a product state remembering
    /// only what may not follow it (a hex digit, or a `%` that would go on with the sequence).
    /// Texts are still reached shortest first, then in alphabet order, each once: a text within
    /// an escape is an entry of the queue like any other, so the witness is the text the
    /// scalar-by-scalar search finds. One spelling is stepped per class of escapes every view
    /// reads alike, the first in alphabet order (a decoding view reads the byte,
    /// `PartView.escapedByteKeys`; the others the digits as written).
    private struct EscapeSteps {
        let percent: Int
        /// Hex digits' symbols, in alphabet order.
        let digits: [Int]
        /// Per symbol, its position in `digits`.
        let digit: [Int?]
        /// Per digit, the symbols stepped as the second digit of an escape (as a list, and per
        /// symbol).
        let seconds: [[Int]]
        let isSecond: [[Bool]]
        /// Per digit, whether `%` and it followed by no hex digit is stepped (the first spelling
        /// of its class).
        let loneDigits: [Bool]
        /// The digits stepped after a `%`: those of an escape or of a `%` and a digit as text.
        let digitsAfterPercent: Int

        /// `nil` unless some view decodes and the alphabet has `%` and every hex digit as
        /// symbols of their own (as a decoding view makes them).
        init?(_ views: [PartView], alphabet: [Unicode.Scalar], symbols: [Int]) {
            guard views.contains(where: { $0.escapedByteKeys != nil }),
                let percent = alphabet.firstIndex(of: "%")
            else { return nil }
            let digits = alphabet.indices.filter { alphabet[$0].properties.isASCIIHexDigit }
            let searched = Set(symbols)
            guard digits.count == 22, searched.contains(percent), digits.allSatisfy(searched.contains) else {
                return nil
            }
            self.percent = percent
            self.digits = digits
            var digit = [Int?](repeating: nil, count: alphabet.count)
            for (position, symbol) in digits.enumerated() { digit[symbol] = position }
            self.digit = digit
            func byte(_ symbol: Int) -> Int { Int(String(alphabet[symbol]), radix: 16)! }
            var seenEscapes: Set<[Int32]> = []
            var seenLone: Set<[Int32]> = []
            var seconds: [[Int]] = []
            var loneDigits: [Bool] = []
            for high in digits {
                seconds.append(
                    digits.filter { low in
                        seenEscapes.insert(
                            views.map { view in
                                view.escapedByteKeys.map { $0[byte(high) << 4 | byte(low)] }
                                    ?? view.symbolClasses[high] << 16 | view.symbolClasses[low]
                            }
                        ).inserted
                    })
                loneDigits.append(
                    seenLone.insert(
                        views.map { view in
                            view.escapedByteKeys.map { $0[Int(alphabet[high].value)] } ?? view.symbolClasses[high]
                        }
                    ).inserted)
            }
            self.seconds = seconds
            isSecond = seconds.map { chosen in alphabet.indices.map(chosen.contains) }
            self.loneDigits = loneDigits
            digitsAfterPercent = digits.indices.filter { loneDigits[$0] || !seconds[$0].isEmpty }.count
        }
    }

    /// Every combination of the tracked lanes' verdicts some text reaches while the required
    /// lanes accept and the rejected ones do not, each with its cheapest text; `nil` when the
    /// budget ran out. With few tracked lanes each combination is searched for on its own, its
    /// lanes required or rejected, so lanes that must accept cut the search short where they
    /// die (a lane reading text as written dies at the first escape a decoding lane would
    /// follow): proving one combination unreachable stays small where one search of all of
    /// them would walk every state of every lane.
    static func verdictClasses(
        _ dimension: URLDimension, required: [Lane], rejected: [Lane], tracked: [Lane],
        text: TextKind? = nil, stepsEscapesWhole: Bool = true, skipsBlockedStates: Bool = true,
        budget: inout ProofBudget
    ) -> [[Bool]: (cost: Int, text: String?)]? {
        var found: [[Bool]: (cost: Int, text: String?)] = [:]
        guard tracked.count <= targetedLanes else {
            let search = DimensionSearch(
                dimension, required: required, rejected: rejected, tracked: tracked, text: text,
                stepsEscapesWhole: stepsEscapesWhole, skipsBlockedStates: skipsBlockedStates)
            let complete = search.run(budget: &budget) { verdicts, cost, text in
                if found[verdicts] == nil { found[verdicts] = (cost, text()) }
                return false
            }
            return complete ? found : nil
        }
        for combination in 0..<(1 << tracked.count) {
            let accepting = tracked.indices.map { combination & (1 << $0) != 0 }
            let search = DimensionSearch(
                dimension, required: required + tracked.indices.filter { accepting[$0] }.map { tracked[$0] },
                rejected: rejected + tracked.indices.filter { !accepting[$0] }.map { tracked[$0] }, tracked: [],
                text: text, stepsEscapesWhole: stepsEscapesWhole, skipsBlockedStates: skipsBlockedStates)
            let complete = search.run(budget: &budget) { _, cost, text in
                found[accepting] = (cost, text())
                return true
            }
            if !complete { return nil }
        }
        return found
    }

    /// Tracked lanes up to which each combination of verdicts is searched for on its own.
    static let targetedLanes = 4

    /// Decoded text as a URL part holds it: `%`, what the part cannot hold as written and, in a
    /// query, the stand-ins of escaped separators are escaped (UTF-8, upper-case hex), so it
    /// decodes back to `text`.
    func escapedText(_ text: String) -> String {
        // Written as UTF-8 bytes: appending scalars to a string one by one cost more than the
        // search that found the text.
        let query = self.text == .part(.query)
        var written: [UInt8] = []
        written.reserveCapacity(text.utf8.count)
        for original in text.unicodeScalars {
            let scalar = query ? QuerySeparators.text(original) : original
            if scalar != original || scalar == "%" || self.text.forbids(scalar.value) {
                UTF8.encode(scalar) { byte in
                    written += [0x25, Self.hexDigits[Int(byte >> 4)], Self.hexDigits[Int(byte & 0xF)]]
                }
            } else {
                UTF8.encode(scalar) { written.append($0) }
            }
        }
        return String(decoding: written, as: UTF8.self)
    }

    /// Upper-case hex digits, as escapes are written.
    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// One symbol per class of symbols all views read alike, in alphabet order.
    private func searchSymbols(_ alphabet: [Unicode.Scalar]) -> [Int] {
        views.isEmpty ? Array(alphabet.indices) : Self.firstOfEachClass(views.map(\.symbolClasses))
    }

    /// The first symbol of each class of symbols that every view reads alike, in order, given
    /// each view's class of each symbol (`PartView.symbolClasses`: numbered from 0 in order of
    /// first appearance).
    static func firstOfEachClass(_ views: [[Int32]]) -> [Int] {
        guard let symbols = views.first?.count else { return [] }
        // A symbol's classes in every view make one number in mixed radix (a view's class count
        // is its digit's base), so equal numbers are symbols every view reads alike: a multiply
        // and an add per view and symbol, where refining the classes view by view chained and
        // reallocated. Numbers are made small again where the next digit could overflow.
        var keys = [UInt64](repeating: 0, count: symbols)
        var bound: UInt64 = 1
        for view in views {
            let base = UInt64(Int(view.max() ?? 0) + 1)
            if bound.multipliedReportingOverflow(by: base).overflow {
                let (numbers, firsts) = numbered(keys)
                keys = numbers
                bound = UInt64(firsts.count)
            }
            keys.withUnsafeMutableBufferPointer { keys in
                view.withUnsafeBufferPointer { view in
                    for symbol in 0..<symbols { keys[symbol] = keys[symbol] &* base &+ UInt64(view[symbol]) }
                }
            }
            bound *= base
        }
        return numbered(keys).firsts
    }

    /// Each key's number among the distinct keys in order of first appearance, and the position
    /// of each distinct key's first appearance, through an open-addressing table.
    private static func numbered(_ keys: [UInt64]) -> (numbers: [UInt64], firsts: [Int]) {
        var size = 16
        while size < 2 * keys.count { size *= 2 }
        // The number of the key in each slot, or -1.
        var slots = [Int32](repeating: -1, count: size)
        var numbers = [UInt64](repeating: 0, count: keys.count)
        var firsts: [Int] = []
        for (position, key) in keys.enumerated() {
            var slot = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 32) & (size - 1)
            while slots[slot] >= 0 && keys[firsts[Int(slots[slot])]] != key { slot = (slot + 1) & (size - 1) }
            if slots[slot] < 0 {
                slots[slot] = Int32(firsts.count)
                firsts.append(position)
            }
            numbers[position] = UInt64(slots[slot])
        }
        return (numbers, firsts)
    }

    private func text(endingAt index: Int, entries: [Entry], alphabet: [Unicode.Scalar]) -> String {
        var scalars: [Unicode.Scalar] = []
        var index = index
        while entries[index].parent >= 0 {
            scalars.append(alphabet[Int(entries[index].symbol)])
            index = Int(entries[index].parent)
        }
        // Written as UTF-8 bytes, as `escapedText` writes: a string's scalar view appended the
        // reversed scalars through generic code, about 7,000 instructions a text.
        var written: [UInt8] = []
        written.reserveCapacity(scalars.count)
        for scalar in scalars.reversed() { UTF8.encode(scalar) { written.append($0) } }
        return String(decoding: written, as: UTF8.self)
    }
}
