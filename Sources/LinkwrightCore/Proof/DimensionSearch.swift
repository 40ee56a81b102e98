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

    init(
        _ dimension: URLDimension, required: [Lane], rejected: [Lane], tracked: [Lane],
        includesEmptyPath: Bool = false, text: TextKind? = nil
    ) {
        self.dimension = dimension
        self.text = text ?? dimension.text
        self.includesEmptyPath = includesEmptyPath
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
        // A path starts with "/": the search starts there.
        let root = dimension == .path ? "/" : ""
        var first = starts
        if dimension == .path, let slash = alphabet.firstIndex(of: "/") {
            first = (0..<count).map { views[$0].step(starts[$0], slash) }
        }
        var table = ProductStates(width: count)
        _ = table.insert(first)
        var parents: [(parent: Int32, symbol: Int32, depth: Int32)] = [(-1, -1, Int32(root.unicodeScalars.count))]
        var successor = [Int32](repeating: 0, count: count)
        var head = 0
        while head < parents.count {
            let index = head
            head += 1
            let depth = Int(parents[index].depth)
            let cost = cost(depth: depth)
            if cost > limit() { return true }
            let row = index * count
            if let tracked = verdicts({ views[$0].accepts(table.rows[row + $0]) }),
                visit(tracked, cost, { written(root + text(endingAt: index, parents: parents, alphabet: alphabet)) })
            {
                return true
            }
            let blocked = (0..<count).contains { view in
                switch roles[view] {
                case .required: views[view].isDead(table.rows[row + view])
                case .rejected: views[view].isUniversal(table.rows[row + view])
                case .tracked: false
                }
            }
            if blocked { continue }
            budget.remaining -= count * symbols.count
            if budget.isExhausted { return false }
            let built = views.reduce(0) { $0 + $1.constructionWork }
            for symbol in symbols {
                for view in 0..<count { successor[view] = views[view].step(table.rows[row + view], symbol) }
                if table.insert(successor) {
                    parents.append((Int32(index), Int32(symbol), Int32(depth + 1)))
                }
            }
            // New states of large automata cost far more than steps (a union of thousands of
            // `*x*y*z*` rules builds each state from thousands of nodes), so a budget counting
            // steps alone would not bound the search's time.
            budget.remaining -= views.reduce(0) { $0 + $1.constructionWork } - built
        }
        return true
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
        text: TextKind? = nil, budget: inout ProofBudget
    ) -> [[Bool]: (cost: Int, text: String?)]? {
        var found: [[Bool]: (cost: Int, text: String?)] = [:]
        guard tracked.count <= targetedLanes else {
            let search = DimensionSearch(
                dimension, required: required, rejected: rejected, tracked: tracked, text: text)
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
                text: text)
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
        var written = ""
        for original in text.unicodeScalars {
            let scalar = self.text == .part(.query) ? QuerySeparators.text(original) : original
            if scalar != original || scalar == "%" || self.text.forbids(scalar.value) {
                for byte in String(scalar).utf8 { written += "%" + String(byte, radix: 16, uppercase: true).leftPadded }
            } else {
                written.unicodeScalars.append(scalar)
            }
        }
        return written
    }

    /// One symbol per class of symbols all views read alike, in alphabet order.
    private func searchSymbols(_ alphabet: [Unicode.Scalar]) -> [Int] {
        guard let first = views.first else { return Array(alphabet.indices) }
        // Refined view by view: a symbol's class so far and its class in the next view make its
        // class among both (numbered in order of first appearance).
        var classes = first.symbolClasses.map(Int.init)
        for view in views.dropFirst() {
            var refined: [Int: Int] = [:]
            let own = view.symbolClasses
            for symbol in alphabet.indices {
                let key = classes[symbol] << 32 | Int(own[symbol])
                if let known = refined[key] {
                    classes[symbol] = known
                } else {
                    classes[symbol] = refined.count
                    refined[key] = refined.count
                }
            }
        }
        var seen = [Bool](repeating: false, count: alphabet.count)
        return alphabet.indices.filter { symbol in
            defer { seen[classes[symbol]] = true }
            return !seen[classes[symbol]]
        }
    }

    private func text(
        endingAt index: Int, parents: [(parent: Int32, symbol: Int32, depth: Int32)], alphabet: [Unicode.Scalar]
    ) -> String {
        var scalars: [Unicode.Scalar] = []
        var index = index
        while parents[index].parent >= 0 {
            scalars.append(alphabet[Int(parents[index].symbol)])
            index = Int(parents[index].parent)
        }
        return String(String.UnicodeScalarView(scalars.reversed()))
    }
}

extension String {
    /// Two hex digits.
    fileprivate var leftPadded: String { count == 1 ? "0" + self : self }
}
