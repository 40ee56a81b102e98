/// The rules in front of one rule of a decision list (`DecisionList.prefix`).
struct ListPrefix {
    let plan: ListPlan
    let scopeBlocks: Int
    let block: Int?
    let count: Int

    init(_ plan: ListPlan, before index: Int) {
        self.plan = plan
        (scopeBlocks, block, count) = plan.list.prefix(before: index)
    }

    /// The rules of its own block it holds, by index in the list.
    var blockRules: Range<Int> {
        guard let block else { return 0..<0 }
        let start = plan.list.blocks[block].start
        return start..<(start + count)
    }

    /// Whether rule `index` of the list stands in front: in its block's part of the prefix, or
    /// the scope rule (the last) of an earlier block.
    func contains(_ index: Int) -> Bool {
        if blockRules.contains(index) { return true }
        let blocks = plan.list.blocks
        guard scopeBlocks > 0, index < blocks[scopeBlocks - 1].start + blocks[scopeBlocks - 1].count else {
            return false
        }
        let block = blocks.lastIndex { $0.start <= index }!
        return index == blocks[block].start + blocks[block].count - 1
    }
}

/// A set of URLs given by rules: those matching every `required` rule and none of the rules
/// in front of some rules (`forbidden`). With first-match semantics, "the base decides with
/// rule a and the head with rule b" is the region requiring a and b and forbidding the rules in
/// front of each.
struct Region {
    var required: [ProofRule]
    var forbidden: [ListPrefix]

    /// The keys of the rules required and of those in front.
    var ruleKeys: (required: Set<String>, forbidden: Set<String>) {
        var forbidden: Set<String> = []
        for prefix in self.forbidden {
            let list = prefix.plan.list
            for block in list.blocks.prefix(prefix.scopeBlocks) {
                forbidden.insert(list.rules[block.start + block.count - 1].key)
            }
            for index in prefix.blockRules { forbidden.insert(list.rules[index].key) }
        }
        return (Set(required.map(\.key)), forbidden)
    }

    /// Whether every URL of this region is in `other`, as the rules tell: `other` requires no
    /// rule this one does not, and forbids none this one does not.
    func isInside(_ other: Region) -> Bool {
        let mine = ruleKeys
        let theirs = other.ruleKeys
        return theirs.required.isSubset(of: mine.required) && theirs.forbidden.isSubset(of: mine.forbidden)
    }

    /// Whether no URL can be in both, as the rules tell: one requires a rule the other forbids.
    func excludes(_ other: Region) -> Bool {
        let mine = ruleKeys
        let theirs = other.ruleKeys
        return !mine.required.isDisjoint(with: theirs.forbidden) || !theirs.required.isDisjoint(with: mine.forbidden)
    }
}

/// A URL without its host, as the proof builds it.
struct ProofWitness: Hashable {
    var path: String
    /// Empty: no query.
    var query: String
    /// `nil`: no fragment.
    var fragment: String?

    var length: Int {
        path.unicodeScalars.count + (query.isEmpty ? 0 : query.unicodeScalars.count + 1)
            + (fragment.map { $0.unicodeScalars.count + 1 } ?? 0)
    }

    /// Written into one string made large enough at once: interpolating and joining the parts
    /// made a string per part (a changelog writes tens of thousands of witnesses).
    func url(host: String) -> String {
        var url = "https://"
        url.reserveCapacity(
            url.utf8.count + host.utf8.count + path.utf8.count + (query.isEmpty ? 0 : query.utf8.count + 1)
                + (fragment.map { $0.utf8.count + 1 } ?? 0))
        url += host
        url += path
        if !query.isEmpty {
            url += "?"
            url += query
        }
        if let fragment {
            url += "#"
            url += fragment
        }
        return url
    }
}

/// Decides whether a region holds a URL, and finds a shortest one, by searching the URL's parts
/// one after the other: path, query and fragment are independent, so a rule matches a URL when
/// each of its parts accepts that part. The query and fragment are searched first (few rules
/// read them); each rule the path must then escape because no query or fragment can is
/// followed in the path search, and the others need not be.
///
/// The rules in front are brought in lazily (counterexample-guided refinement): the search
/// starts with none of them, and each shortest URL it finds is checked against all of them with
/// the evaluator's own matching; the rules it falls foul of join the search, which runs again.
/// A URL found with no rule in its way is a shortest URL of the region (the region is a subset
/// of what was searched), and "no URL" with some rules is "no URL" with all. Most regions need
/// one or two rounds; past a few members a prefix's rules join as one shared union instead.
///
/// With `observing`, the answer is split further: one shortest URL per combination of
/// membership in the observed regions (for several apps changing on the same URLs).
struct RegionSearch {
    let views: ProofViews
    /// Whether the empty path is a value of its own (Android).
    let includesEmptyPath: Bool
    /// `DimensionSearch.stepsEscapesWhole`.
    var stepsEscapesWhole = true
    /// `DimensionSearch.skipsBlockedStates`.
    var skipsBlockedStates = true

    /// Rules of one prefix joining a search one by one before the whole prefix joins.
    static let lazyMembers = 8
    /// Rounds of refinement before every prefix joins whole.
    static let lazyRounds = 6

    enum Outcome {
        /// No URL is in the region.
        case empty
        /// Per membership vector over the observed regions, a shortest URL.
        case found([[Bool]: ProofWitness])
        /// The budget ran out before an answer.
        case unknown
    }

    typealias Lane = DimensionSearch.Lane

    /// Lanes followed and reported per dimension, each once.
    private struct Tracked {
        var lanes: [[Lane]] = [[], [], []]
        var index: [Lane: Int] = [:]

        mutating func add(_ lane: Lane, _ dimension: URLDimension) -> (dimension: URLDimension, index: Int) {
            if let known = index[lane] { return (dimension, known) }
            index[lane] = lanes[dimension.rawValue].count
            lanes[dimension.rawValue].append(lane)
            return (dimension, lanes[dimension.rawValue].count - 1)
        }
    }

    /// A conjunction of tracked lanes.
    private struct TrackedRule {
        var positions: [(dimension: URLDimension, index: Int)]

        func matches(_ verdicts: [[Bool]]) -> Bool {
            positions.allSatisfy { verdicts[$0.dimension.rawValue][$0.index] }
        }
    }

    /// An observed region, as tracked lanes: required conjunctions, and forbidden ones.
    private struct TrackedRegion {
        var required: [TrackedRule]
        var forbidden: [TrackedRule]

        func contains(_ verdicts: [[Bool]]) -> Bool {
            required.allSatisfy { $0.matches(verdicts) } && !forbidden.contains { $0.matches(verdicts) }
        }
    }

    /// One rule in front: an earlier block's scope rule (its scopes count), or a rule of the
    /// required rule's own block (its scopes are required anyway, so they are left out).
    private struct Blocker {
        var plan: ListPlan
        var index: Int
        var isScopeRule: Bool

        var rule: ProofRule { plan.list.rules[index] }
    }

    /// Lanes for some rules in front: each rejected lane accepts only URLs one of them matches,
    /// and the rules comparing several parts are given by their parts; `nil` when one of them
    /// matches every URL the region requires. `whole` are prefixes taken whole (one shared
    /// union per block and preparation), `chosen` single rules (a union of their own for those
    /// comparing the path alone).
    private func forbiddenLanes(whole: [ListPrefix], chosen: [Blocker]) -> (
        single: [(URLDimension, Lane)], mixed: [RuleParts]
    )? {
        var single: [(URLDimension, Lane)] = []
        var mixed: [RuleParts] = []
        var others: [Blocker] = chosen
        for prefix in whole {
            if prefix.scopeBlocks > 0, let scopes = prefix.plan.scopes {
                single.append((.path, scopes.lane(members: prefix.scopeBlocks)))
            }
            guard let block = prefix.block else { continue }
            let plan = prefix.plan.blockPlan(block)
            let start = prefix.plan.list.blocks[block].start
            var counts: [Int: Int] = [:]
            for index in prefix.blockRules {
                guard case .path(let union, let member) = plan.kinds[index - start] else {
                    others.append(Blocker(plan: prefix.plan, index: index, isScopeRule: false))
                    continue
                }
                counts[union] = max(counts[union] ?? 0, member + 1)
            }
            for (union, count) in counts.sorted(by: { $0.key < $1.key }) {
                single.append((.path, plan.unions[union].lane(members: count)))
            }
        }
        var paths: [Preparation: [PatternTest]] = [:]
        for blocker in others {
            let parts = blocker.plan.parts(blocker.index)
            if blocker.isScopeRule {
                guard let scopes = parts.scopes else { return nil }
                single.append((.path, Lane(scopes)))
                continue
            }
            let compared = parts.compared
            if compared.isEmpty { return nil }
            if compared == [.path], let pattern = blocker.rule.path?.pattern {
                paths[pattern.preparation, default: []].append(pattern)
            } else if compared.count == 1 {
                single.append((compared[0], Lane(parts[compared[0]]!)))
            } else {
                mixed.append(parts)
            }
        }
        for patterns in paths.values.sorted(by: { $0[0].key < $1[0].key }) {
            single.append((.path, Lane(views.union(of: patterns.sorted { $0.key < $1.key }))))
        }
        return (single, mixed)
    }

    func search(_ region: Region, observing observed: [Region] = [], budget: inout ProofBudget) -> Outcome {
        // Observed regions need every rule at once; so does a split of a region by them.
        if !observed.isEmpty {
            return solve(region.required, whole: region.forbidden, chosen: [], observing: observed, budget: &budget)
        }
        var chosen: [[Blocker]] = region.forbidden.map { _ in [] }
        var whole = Array(repeating: false, count: region.forbidden.count)
        var round = 0
        while true {
            round += 1
            let outcome = solve(
                region.required, whole: region.forbidden.indices.filter { whole[$0] }.map { region.forbidden[$0] },
                chosen: chosen.indices.filter { !whole[$0] }.flatMap { chosen[$0] }, observing: [], budget: &budget)
            guard case .found(let witnesses) = outcome, let witness = witnesses[[]],
                let url = LinkURL(witness.url(host: "witness.invalid"))
            else { return outcome }
            var refined = false
            var values = ComparedValues(url)
            for (position, prefix) in region.forbidden.enumerated() where !whole[position] {
                let known = Set(chosen[position].map(\.index))
                let violated = prefix.plan.matching(&values, in: prefix).filter { !known.contains($0) }.map {
                    Blocker(plan: prefix.plan, index: $0, isScopeRule: !prefix.blockRules.contains($0))
                }
                guard !violated.isEmpty else { continue }
                refined = true
                chosen[position] += violated
                if chosen[position].count > Self.lazyMembers || round >= Self.lazyRounds { whole[position] = true }
            }
            if !refined { return outcome }
        }
    }

    /// One round: the URLs matching `required` and none of the rules given.
    private func solve(
        _ requiredRules: [ProofRule], whole: [ListPrefix], chosen: [Blocker], observing observed: [Region],
        budget: inout ProofBudget
    ) -> Outcome {
        var required: [[Lane]] = [[], [], []]
        for rule in requiredRules {
            let parts = views.parts(rule)
            if let scopes = parts.scopes { required[0].append(Lane(scopes)) }
            for dimension in parts.compared { required[dimension.rawValue].append(Lane(parts[dimension]!)) }
        }
        var rejected: [[Lane]] = [[], [], []]
        var tracked = Tracked()
        // Rules comparing several parts: their query and fragment now, their paths once known to matter.
        var mixedForbidden: [(rule: TrackedRule, path: PartView?)] = []
        guard let (single, mixed) = forbiddenLanes(whole: whole, chosen: chosen) else { return .empty }
        for (dimension, lane) in single where !rejected[dimension.rawValue].contains(lane) {
            rejected[dimension.rawValue].append(lane)
        }
        for parts in mixed {
            let positions = parts.compared.filter { $0 != .path }.map { tracked.add(Lane(parts[$0]!), $0) }
            mixedForbidden.append((TrackedRule(positions: positions), parts.path))
        }
        var trackedRegions: [TrackedRegion] = []
        for other in observed {
            var requiredRules: [TrackedRule] = []
            for rule in other.required {
                let parts = views.parts(rule)
                var positions = parts.compared.map { tracked.add(Lane(parts[$0]!), $0) }
                if let scopes = parts.scopes { positions.append(tracked.add(Lane(scopes), .path)) }
                requiredRules.append(TrackedRule(positions: positions))
            }
            // A region with a rule in front matching all it requires holds no URL.
            guard let (single, mixed) = forbiddenLanes(whole: other.forbidden, chosen: []) else { continue }
            let forbidden =
                single.map { TrackedRule(positions: [tracked.add($1, $0)]) }
                + mixed.map { parts in TrackedRule(positions: parts.compared.map { tracked.add(Lane(parts[$0]!), $0) })
                }
            trackedRegions.append(TrackedRegion(required: requiredRules, forbidden: forbidden))
        }

        // Query and fragment first: every class of values with its cheapest value.
        func values(_ dimension: URLDimension) -> [(verdicts: [Bool], cost: Int, text: String?)]? {
            let lanes = tracked.lanes[dimension.rawValue]
            let all = required[dimension.rawValue] + rejected[dimension.rawValue] + lanes
            // Nothing reads this part: its one class of values is the absent (or empty) one.
            if all.isEmpty { return [([], 0, dimension == .fragment ? nil : "")] }
            // A query read only by dictionaries is searched item by item.
            if dimension == .query, !all.isEmpty, all.allSatisfy({ $0.view.items != nil }) {
                let search = QueryItemSearch(
                    lanes: all.map { $0.view.items! },
                    roles: required[1].map { _ in .required } + rejected[1].map { _ in .rejected }
                        + lanes.map { _ in .tracked }, stepsEscapesWhole: stepsEscapesWhole,
                    skipsBlockedStates: skipsBlockedStates)
                return search.run(budget: &budget)?.map { ($0.key, $0.value.cost, $0.value.text) }.sorted {
                    ($0.cost, $0.text ?? "") < ($1.cost, $1.text ?? "")
                }
            }
            guard
                let found = DimensionSearch.verdictClasses(
                    dimension, required: required[dimension.rawValue], rejected: rejected[dimension.rawValue],
                    tracked: lanes, stepsEscapesWhole: stepsEscapesWhole, skipsBlockedStates: skipsBlockedStates,
                    budget: &budget)
            else { return nil }
            return found.map { ($0.key, $0.value.cost, $0.value.text) }.sorted {
                ($0.cost, $0.text ?? "") < ($1.cost, $1.text ?? "")
            }
        }
        guard let queries = values(.query), let fragments = values(.fragment) else { return .unknown }
        struct Combination {
            var query: [Bool]
            var fragment: [Bool]
            var cost: Int
            var witness: (query: String, fragment: String?)
        }
        var combinations: [Combination] = []
        for query in queries {
            for fragment in fragments {
                combinations.append(
                    Combination(
                        query: query.verdicts, fragment: fragment.verdicts, cost: query.cost + fragment.cost,
                        witness: (query.text ?? "", fragment.text)))
            }
        }
        // A rule comparing several parts is escaped by the query or fragment of a combination,
        // or else by the path.
        func escapes(_ rule: TrackedRule, _ combination: Combination) -> Bool {
            rule.positions.contains { position in
                switch position.dimension {
                case .path: false
                case .query: !combination.query[position.index]
                case .fragment: !combination.fragment[position.index]
                }
            }
        }
        let pathless = mixedForbidden.filter { $0.path == nil }.map(\.rule)
        combinations = combinations.filter { combination in pathless.allSatisfy { escapes($0, combination) } }
        combinations.sort { $0.cost < $1.cost }
        guard let cheapest = combinations.first?.cost else { return .empty }
        // Rules some combination cannot escape are followed in the path search too.
        let hard: [TrackedRule] = mixedForbidden.compactMap { rule, path in
            guard let path, !combinations.allSatisfy({ escapes(rule, $0) }) else { return nil }
            return TrackedRule(positions: rule.positions + [tracked.add(Lane(path), .path)])
        }
        let observing = !trackedRegions.isEmpty
        let search = DimensionSearch(
            .path, required: required[0], rejected: rejected[0], tracked: tracked.lanes[0],
            includesEmptyPath: includesEmptyPath, stepsEscapesWhole: stepsEscapesWhole,
            skipsBlockedStates: skipsBlockedStates)
        var best: [[Bool]: ProofWitness] = [:]
        var bestCost = Int.max
        // Without observed regions only a cheaper URL can improve on the best so far.
        let limit = { !observing && bestCost < .max ? bestCost - cheapest - 1 : .max }
        let complete = search.run(budget: &budget, limit: limit) { pathVerdicts, pathCost, text in
            for combination in combinations {
                let cost = pathCost + combination.cost
                if !observing && cost >= bestCost { break }
                let verdicts = [pathVerdicts, combination.query, combination.fragment]
                if hard.contains(where: { $0.matches(verdicts) }) { continue }
                let membership = trackedRegions.map { $0.contains(verdicts) }
                if let known = best[membership], known.length <= cost { continue }
                best[membership] = ProofWitness(
                    path: text() ?? "", query: combination.witness.query, fragment: combination.witness.fragment)
                if !observing {
                    bestCost = cost
                    break
                }
            }
            return !observing && hard.isEmpty && !best.isEmpty
        }
        guard complete else { return .unknown }
        return best.isEmpty ? .empty : .found(best)
    }
}
