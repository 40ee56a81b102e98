/// Every way two revisions decide the URLs of one host differently on one platform, each with a
/// shortest URL, or an explicit statement of what could not be settled within the budget.
///
/// Why the search can stay small: a URL's decision for an app is made by the first rule of the
/// app's `DecisionList` that matches it. If the base decides a URL with rule `a` and the head
/// with rule `b`, and the outcomes differ, then `a` and `b` are different rules, and either one
/// of them exists on one side only (added, removed or changed), or both exist on both sides in
/// the opposite order (the URL matches both, and each side puts its own first). "No rule" on
/// one side needs the other side's rule to be new there. So only those pairs are candidates, and
/// each pair's URLs form a region: matching `a` and `b` and none of the rules in front of either
/// (`Region`), searched exactly by `RegionSearch`. Every URL deciding differently lies in the
/// region of its own pair, so a region found empty is proven empty and one found non-empty
/// gives a shortest witness: the answer is sound and complete for the pairs it settles.
///
/// Several apps changing on the same URLs are told apart too (app A → app B, or A and B both):
/// each region is split by its membership in the other apps' non-empty regions.
struct BehaviourProof {
    /// URLs of one region (one way of deciding differently), with a shortest one.
    struct Difference: Sendable {
        var identity: String
        /// The deciding rules; `nil` is no rule (or no claim).
        var base: ProofRule?
        var head: ProofRule?
        var witness: ProofWitness
    }

    /// A region the budget did not settle: URLs there may or may not decide differently.
    struct Unsettled: Sendable {
        var identity: String
        var base: ProofRule?
        var head: ProofRule?
    }

    struct Result: Sendable {
        var differences: [Difference] = []
        var unsettled: [Unsettled] = []
    }

    let limits: ProofLimits
    /// Android tells the empty path apart from `/`; Apple does not.
    let includesEmptyPath: Bool
    /// `DimensionSearch.stepsEscapesWhole`.
    var stepsEscapesWhole = true
    /// `DimensionSearch.skipsBlockedStates`.
    var skipsBlockedStates = true

    /// The differences between `old` and `new`, the lists of the same apps (an app missing on a
    /// side has an empty list there), spending from `meter`.
    func compare(old: [DecisionList], new: [DecisionList], meter: WorkMeter) -> Result {
        let empty = { (identity: String) in DecisionList(identity: identity, blocks: []) }
        var identities = new.map(\.identity)
        identities += old.map(\.identity).filter { !identities.contains($0) }
        // Apps with the same rules on both sides (one entry naming several apps) have the same
        // regions: each group is proven once.
        var groups: [(identities: [String], before: DecisionList, after: DecisionList)] = []
        var groupOfRules: [[HashedKey<[String]>]: Int] = [:]
        for identity in identities {
            let before = old.first { $0.identity == identity } ?? empty(identity)
            let after = new.first { $0.identity == identity } ?? empty(identity)
            let key = [before.ruleKeys, after.ruleKeys]
            if let group = groupOfRules[key] {
                groups[group].identities.append(identity)
            } else {
                groupOfRules[key] = groups.count
                groups.append(([identity], before, after))
            }
        }
        let views = ProofViews(lists: groups.flatMap { [$0.before, $0.after] })
        let search = RegionSearch(
            views: views, includesEmptyPath: includesEmptyPath, stepsEscapesWhole: stepsEscapesWhole,
            skipsBlockedStates: skipsBlockedStates)
        var result = Result()
        func record(_ group: Int, _ candidate: Candidate, _ witness: ProofWitness?) {
            for identity in groups[group].identities {
                if let witness {
                    result.differences.append(
                        Difference(identity: identity, base: candidate.base, head: candidate.head, witness: witness))
                } else {
                    result.unsettled.append(Unsettled(identity: identity, base: candidate.base, head: candidate.head))
                }
            }
        }
        var found: [(group: Int, candidate: Candidate, witness: ProofWitness)] = []
        for (group, (_, before, after)) in groups.enumerated() {
            for candidate in Self.candidates(ListPlan(before, views: views), ListPlan(after, views: views)) {
                switch settle(candidate.region, search, meter: meter) {
                case .empty: continue
                case .found(let witnesses): found.append((group, candidate, witnesses[[]]!))
                case .unknown: record(group, candidate, nil)
                }
            }
        }
        // Where apps with other rules change too, the URLs of two such regions at once show one
        // app taking a link from another (every such pair is proven); each region is then split
        // by the others' regions it meets, within the region budget, so URLs where only one app
        // changes are told apart from those where several do.
        for (group, candidate, witness) in found {
            record(group, candidate, witness)
            var meeting: [Region] = []
            for other in found where other.group != group {
                // Inside the other region, every URL changes both apps: this witness shows it.
                if candidate.region.isInside(other.candidate.region)
                    || candidate.region.excludes(other.candidate.region)
                {
                    continue
                }
                let both = Region(
                    required: candidate.region.required + other.candidate.region.required,
                    forbidden: candidate.region.forbidden + other.candidate.region.forbidden)
                switch settle(both, search, meter: meter) {
                case .empty: continue
                case .found(let witnesses):
                    meeting.append(other.candidate.region)
                    record(group, candidate, witnesses[[]]!)
                case .unknown: record(group, candidate, nil)
                }
            }
            guard !meeting.isEmpty else { continue }
            let split = spending(meter) { search.search(candidate.region, observing: meeting, budget: &$0) }
            // Every pair of apps is proven by now; a split the budget cannot finish leaves only
            // which URLs change one app alone told by the witnesses found so far.
            if case .found(let witnesses) = split {
                for witness in Set(witnesses.values).sorted(by: { ($0.length, $0.path) < ($1.length, $1.path) }) {
                    record(group, candidate, witness)
                }
            }
        }
        return result
    }

    /// One region's outcome within the region limit and what is left of the total.
    private func settle(_ region: Region, _ search: RegionSearch, meter: WorkMeter) -> RegionSearch.Outcome {
        guard !meter.isExhausted else { return .unknown }
        return spending(meter) { search.search(region, budget: &$0) }
    }

    /// `search` run within the region limit and what `meter` has left, its steps spent from it.
    private func spending<Outcome>(_ meter: WorkMeter, _ search: (inout ProofBudget) -> Outcome) -> Outcome {
        var regionBudget = ProofBudget(remaining: min(limits.region, meter.remaining))
        let before = regionBudget.remaining
        let outcome = search(&regionBudget)
        meter.spend(before - regionBudget.remaining)
        return outcome
    }

    /// A pair of deciding rules whose outcomes differ, and its region.
    struct Candidate {
        var base: ProofRule?
        var head: ProofRule?
        var region: Region
    }

    /// Whether no path can match both rules because their literal prefixes part ways (read
    /// with the same preparation): most pairs of a long list, told apart without a search. A
    /// rule over a substitution variable has one prefix per value (`/en/x`, `/fr/x`), each of
    /// which must part ways with each of the other's. A rule whose pattern accepts only a few
    /// literal paths (`/help`, the commonest rule) meets another only on those the other
    /// accepts: `/travel1` and `/travel10*` share a prefix but no path.
    ///
    /// Rules whose paths are prepared otherwise only in decoding or case folding (a
    /// `percent_encoded` or `case_sensitive` toggle makes every rule of a list one) are compared
    /// too, through what both preparations share: a path's text up to its first `%` reads the same
    /// decoded or not (`PercentDecoding` changes nothing before an escape, and Apple's slash rules
    /// strip the same leading slashes), so a literal prefix without `%` that the undecoded text
    /// starts with starts the decoded text too; and folding maps scalar to scalar, so a prefix of
    /// the unfolded text folds to a prefix of the folded one. A toggle then costs the pairs whose
    /// paths can meet, not every pair of two hundred rules.
    static func disjointPaths(_ a: ProofRule, _ b: ProofRule) -> Bool {
        // The preparations alone, not the tests: a long list's pairs are hundreds of thousands.
        guard let one = a.pathPreparation, let other = b.pathPreparation else { return false }
        if one == other {
            // Prefixes first: comparing them is cheaper than running an automaton.
            if let ones = a.pathPrefixes, let others = b.pathPrefixes, partWays(ones, others) { return true }
            if let one = a.pathSuffix, let other = b.pathSuffix, partWaysAtTheEnd(one, other) { return true }
            if let texts = a.pathTexts { return !texts.contains { b.path!.pattern!.automaton.matches($0) } }
            if let texts = b.pathTexts { return !texts.contains { a.path!.pattern!.automaton.matches($0) } }
            return false
        }
        guard one.appleSlash == other.appleSlash, one.options.semantics == other.options.semantics else {
            return false
        }
        if let ends = a.pathSuffix, let otherEnds = b.pathSuffix,
            partWaysAtTheEnd(preparedAlike(ends, one, as: other), preparedAlike(otherEnds, other, as: one))
        {
            return true
        }
        guard var ones = a.pathPrefixes, var others = b.pathPrefixes else { return false }
        // The undecoded side's prefixes hold of the decoded text only without an escape.
        if one.decode != other.decode {
            let undecoded = one.decode ? others : ones
            guard undecoded.allSatisfy({ !$0.contains("%") }) else { return false }
        }
        // The unfolded side's prefixes, folded, are prefixes of the folded text.
        if one.fold != other.fold {
            if one.fold {
                others = others.map { $0.map(CaseFolding.fold) }
            } else {
                ones = ones.map { $0.map(CaseFolding.fold) }
            }
        }
        return partWays(ones, others)
    }

    /// What a path prepared as `own` ending with `suffix` ends with once prepared as `other` too,
    /// as far as it can tell (`disjointPaths`). Undecoded, a suffix without `%` stays the end
    /// of the decoded text but for its first two scalars, which may end an escape begun before
    /// it; the decoded text may then lose leading slashes to Apple's slash rules (`/tv` of the
    /// path `/tv`), so those go too. Folding maps scalar to scalar.
    private static func preparedAlike(_ suffix: [Unicode.Scalar], _ own: Preparation, as other: Preparation)
        -> [Unicode.Scalar]
    {
        var suffix = suffix
        if !own.decode && other.decode {
            guard !suffix.contains("%") else { return [] }
            suffix = Array(suffix.dropFirst(2))
            if own.appleSlash { suffix = Array(suffix.drop { $0 == "/" }) }
        }
        if !own.fold && other.fold { suffix = suffix.map(CaseFolding.fold) }
        return suffix
    }

    /// Whether neither text ends with the other, so no text ends with both (an empty one ends
    /// every text).
    private static func partWaysAtTheEnd(_ one: [Unicode.Scalar], _ other: [Unicode.Scalar]) -> Bool {
        !(one.reversed().starts(with: other.reversed()) || other.reversed().starts(with: one.reversed()))
    }

    /// Whether every prefix of `ones` parts ways with every prefix of `others`: neither starts
    /// with the other, so no text starts with both.
    static func partWays(_ ones: [[Unicode.Scalar]], _ others: [[Unicode.Scalar]]) -> Bool {
        for one in ones {
            for other in others where !differBefore(one, other) { return false }
        }
        return true
    }

    /// Whether two texts differ within the shorter one's length: then neither starts with the
    /// other. Compared scalar by scalar in place: a changelog's pair compares a new rule's
    /// prefixes with those of every rule of a long list, through `starts(with:)` twice a pair.
    private static func differBefore(_ one: [Unicode.Scalar], _ other: [Unicode.Scalar]) -> Bool {
        for index in 0..<min(one.count, other.count) where one[index] != other[index] { return true }
        return false
    }

    /// The pairs that can decide some URL differently (see the type's documentation), in the
    /// order of their base and head positions. Only rules on one side pair with every rule of
    /// the other, and rules on both sides pair where the sides order them oppositely, so the
    /// work follows what changed: a rule added in front of hundreds costs hundreds of pairs,
    /// not hundreds squared.
    static func candidates(_ before: ListPlan, _ after: ListPlan) -> [Candidate] {
        let olds = before.list.rules
        let news = after.list.rules
        if before.list.ruleKeys == after.list.ruleKeys { return [] }
        // Each rule's position on the other side (-1: not there); "no rule" is the index past
        // the end, on neither side.
        let (inNew, inOld) = positions(
            olds.map(\.key), news.map(\.key), unique: before.list.keysAreUnique && after.list.keysAreUnique)
        let outcomes = (old: olds.map(\.outcomeNumber) + [0], new: news.map(\.outcomeNumber) + [0])
        var candidates: [Candidate] = []
        for (oldIndex, newIndex) in pairs(inNew: inNew, inOld: inOld, outcomes: outcomes) {
            let a = oldIndex < olds.count ? olds[oldIndex] : nil
            let b = newIndex < news.count ? news[newIndex] : nil
            if let a, let b, Self.disjointPaths(a, b) { continue }
            candidates.append(
                Candidate(
                    base: a, head: b,
                    region: Region(
                        required: [a, b].compactMap { $0 },
                        forbidden: [ListPrefix(before, before: oldIndex), ListPrefix(after, before: newIndex)])))
        }
        return candidates
    }

    /// Each of `olds`' first position in `news` and each of `news`' first position in `olds` (-1:
    /// not there). With `unique` keys on each side, only the keys between the prefix and the
    /// suffix both share are looked up, among each other: a key of the middle of one side is not
    /// in the other's prefix or suffix, which hold the same keys as its own. A changelog's pair
    /// inserting a few rules in front of hundreds hashes those few, not every key twice.
    static func positions(_ olds: [String], _ news: [String], unique: Bool) -> (inNew: [Int], inOld: [Int]) {
        var (prefix, suffix) = (0, 0)
        if unique {
            let shorter = min(olds.count, news.count)
            while prefix < shorter && olds[prefix] == news[prefix] { prefix += 1 }
            while suffix < shorter - prefix && olds[olds.count - 1 - suffix] == news[news.count - 1 - suffix] {
                suffix += 1
            }
        }
        let middle = (old: prefix..<(olds.count - suffix), new: prefix..<(news.count - suffix))
        let oldPosition = Dictionary(
            middle.old.map { (olds[$0], $0) }, uniquingKeysWith: { first, _ in first })
        let newPosition = Dictionary(
            middle.new.map { (news[$0], $0) }, uniquingKeysWith: { first, _ in first })
        let shift = news.count - olds.count
        let inNew = olds.indices.map { index in
            index < prefix ? index : index >= middle.old.upperBound ? index + shift : newPosition[olds[index]] ?? -1
        }
        let inOld = news.indices.map { index in
            index < prefix ? index : index >= middle.new.upperBound ? index - shift : oldPosition[news[index]] ?? -1
        }
        return (inNew, inOld)
    }

    /// The base and head positions of the pairs that can decide differently, sorted, given each
    /// rule's position on the other side (`inNew` for the base's rules, `inOld` for the head's;
    /// -1: not there). "No rule" is the position past the end of a side. Made in order, base
    /// position by base position: the three kinds below never share a pair, and sorting the
    /// thousands a rule added in front of a long list pairs cost more than finding them. Given
    /// `outcomes` (a number per base rule and per head rule, equal for equal outcomes, "no rule"
    /// past the end of each), only the pairs deciding otherwise: of the thousands a rule added in
    /// front pairs, most decide alike.
    static func pairs(inNew: [Int], inOld: [Int], outcomes: (old: [Int], new: [Int])? = nil) -> [(old: Int, new: Int)] {
        let olds = inNew.count
        let news = inOld.count
        // Per base rule on both sides, the head rules on both sides it meets in the opposite
        // order: `a` before `b` in the base, after it in the head.
        var crossed = Array(repeating: [Int](), count: olds)
        let oneToOne =
            (0..<olds).allSatisfy { inNew[$0] < 0 || inOld[inNew[$0]] == $0 }
            && (0..<news).allSatisfy { inOld[$0] < 0 || inNew[inOld[$0]] == $0 }
        if oneToOne {
            // Walking the base in order, the head positions seen so far, sorted, give each rule
            // the earlier ones the head puts after it.
            var seen: [(newIndex: Int, oldIndex: Int)] = []
            seen.reserveCapacity(olds)
            for oldIndex in 0..<olds where inNew[oldIndex] >= 0 {
                let newIndex = inNew[oldIndex]
                var insertion = seen.endIndex
                while insertion > seen.startIndex && seen[insertion - 1].newIndex > newIndex {
                    insertion -= 1
                    crossed[seen[insertion].oldIndex].append(newIndex)
                }
                // Rules both sides keep in order (nearly all) go at the end.
                if insertion == seen.endIndex {
                    seen.append((newIndex, oldIndex))
                } else {
                    seen.insert((newIndex, oldIndex), at: insertion)
                }
            }
        } else {
            // A rule written twice: positions name its first copy, so every pair is tried.
            for oldIndex in 0..<olds where inNew[oldIndex] >= 0 {
                for newIndex in 0..<news where inOld[newIndex] > oldIndex && inNew[oldIndex] > newIndex {
                    crossed[oldIndex].append(newIndex)
                }
            }
        }
        // Head rules only the head has.
        let onlyNew = (0..<news).filter { inOld[$0] < 0 }
        let onlyOld = (0..<olds).count(where: { inNew[$0] < 0 })
        var pairs: [(old: Int, new: Int)] = []
        pairs.reserveCapacity(
            onlyOld * (news + 1) + (olds + 1 - onlyOld) * onlyNew.count + crossed.reduce(0) { $0 + $1.count })
        // Whether head rule `newIndex` decides otherwise than a base rule deciding `outcome`
        // (every one does without outcomes).
        func decidesOtherwise(_ newIndex: Int, _ outcome: Int?) -> Bool {
            guard let outcome, let outcomes else { return true }
            return outcomes.new[newIndex] != outcome
        }
        // Per base outcome, the rules only the head has deciding otherwise; the last one asked
        // for apart, since neighbouring rules of a long list mostly decide alike and a
        // dictionary lookup per base rule cost more than the pairs most of them make.
        var onlyNewDeciding: [Int: [Int]] = [:]
        var lastDeciding: (outcome: Int, rules: [Int])?
        for oldIndex in 0...olds {
            let outcome = outcomes?.old[oldIndex]
            // A rule only the base has, with every head rule or none.
            if oldIndex < olds && inNew[oldIndex] < 0 {
                pairs += (0...news).filter { decidesOtherwise($0, outcome) }.map { (oldIndex, $0) }
                continue
            }
            // Every other base rule, or none, with each rule only the head has, and those crossed.
            let others =
                oldIndex < olds && !crossed[oldIndex].isEmpty
                ? crossed[oldIndex].sorted().filter { decidesOtherwise($0, outcome) } : []
            var onlyNewHere = onlyNew
            if let outcome {
                if let last = lastDeciding, last.outcome == outcome {
                    onlyNewHere = last.rules
                } else if let known = onlyNewDeciding[outcome] {
                    onlyNewHere = known
                } else {
                    onlyNewHere = onlyNew.filter { decidesOtherwise($0, outcome) }
                    onlyNewDeciding[outcome] = onlyNewHere
                }
                lastDeciding = (outcome, onlyNewHere)
            }
            var (only, other) = (0, 0)
            while only < onlyNewHere.count || other < others.count {
                if other == others.count || (only < onlyNewHere.count && onlyNewHere[only] < others[other]) {
                    pairs.append((oldIndex, onlyNewHere[only]))
                    only += 1
                } else {
                    pairs.append((oldIndex, others[other]))
                    other += 1
                }
            }
        }
        return pairs
    }
}
