/// Exact witnesses for how two association files decide paths differently for a host's apps.
///
/// When every rule the apps meet on both sides compares the path only (query and fragment `*`,
/// case-sensitive, compared as written), a URL's decisions depend on its path alone, and the
/// product of all the rules' path automata has a state for each combination of rules a path can
/// match. Visiting every reachable combination finds a shortest path for each way the sides
/// differ in which apps open (so one app gaining a link another loses is a kind of its own),
/// and proves there is no other. Where a rule looks at more than the path, the product is too
/// large, or a witness does not decide as the automata predicted once parsed as a URL, the
/// search says it is incomplete and the diff keeps its samples' answer, labelled as such.
struct PathDecisionSearch {
    /// The most automaton steps the search may take: enough for the product of a few dozen
    /// patterns; a file of hundreds keeps its samples' answer rather than stall a diff.
    var workLimit = 2_000_000

    /// A rule as the search sees it.
    struct PathRule {
        /// The pattern with the values of the variables it uses: equal signatures accept the
        /// same paths, so the search follows such patterns once.
        var signature: String
        var matcher: PatternMatcher
        var exclude: Bool
    }

    /// Shortest paths, one per way of differing, and whether they are all there are.
    struct Result: Equatable {
        var paths: [String]
        var complete: Bool
    }

    func differences(before: AASADocument?, after: AASADocument?, appIDs: [String]) -> Result {
        var sides: [(old: [PathRule], new: [PathRule])] = []
        for appID in appIDs {
            guard let old = Self.pathRules(before, appID: appID), let new = Self.pathRules(after, appID: appID) else {
                return Result(paths: [], complete: false)
            }
            sides.append((old, new))
        }
        // Files that differ only outside these apps' path rules (an import's rebuild, another
        // app's edit) decide every path alike.
        func same(_ old: [PathRule], _ new: [PathRule]) -> Bool {
            old.map(\.signature) == new.map(\.signature) && old.map(\.exclude) == new.map(\.exclude)
        }
        if sides.allSatisfy({ same($0.old, $0.new) }) { return Result(paths: [], complete: true) }
        let rules = sides.flatMap { $0.old + $0.new }
        var viewOfSignature: [String: Int] = [:]
        var views: [LanguageView] = []
        for rule in rules where viewOfSignature[rule.signature] == nil {
            viewOfSignature[rule.signature] = views.count
            views.append(LanguageView(dfa: SubsetDFA(rule.matcher.automaton), readsAppleRawPaths: true))
        }
        guard let verdicts = LanguageSearch(views, pathsOnly: true, workLimit: workLimit).reachableVerdicts() else {
            return Result(paths: [], complete: false)
        }
        // Keyed by which apps opened the path before, then which open it after.
        var witnesses: [[Bool]: (path: String, opened: [Bool], opens: [Bool])] = [:]
        for (accepted, path) in verdicts {
            func opens(_ rules: [PathRule]) -> Bool {
                // First match wins, as `CompiledAASA` decides.
                rules.first { accepted[viewOfSignature[$0.signature]!] }.map { !$0.exclude } ?? false
            }
            let opened = sides.map { opens($0.old) }
            let opens = sides.map { opens($0.new) }
            guard opened != opens else { continue }
            let key = opened + opens
            // The shortest (then smallest) path of each kind, so results do not depend on order.
            if let known = witnesses[key], (known.path.count, known.path) <= (path.count, path) { continue }
            witnesses[key] = (path, opened, opens)
        }
        // A witness must decide as predicted once read as a URL: a scalar the URL parser
        // treats specially would otherwise make the proof say more than the samples show.
        let old = before.map(CompiledAASA.init)
        let new = after.map(CompiledAASA.init)
        for witness in witnesses.values {
            guard let url = LinkURL(witness.path)?.on(host: "witness.invalid"), url.path == witness.path else {
                return Result(paths: [], complete: false)
            }
            for (position, appID) in appIDs.enumerated() {
                let opened = old?.decision(for: url, appID: appID).outcome == .match
                let opens = new?.decision(for: url, appID: appID).outcome == .match
                guard opened == witness.opened[position], opens == witness.opens[position] else {
                    return Result(paths: [], complete: false)
                }
            }
        }
        return Result(paths: witnesses.values.map(\.path).sorted(), complete: true)
    }

    /// The rules `appID` meets in `document`, in the order they are tried, without those that
    /// repeat an earlier pattern (the earlier one decides every path they match, as when a
    /// legacy `paths` entry follows the same rules as components); `nil` when one of them
    /// compares more than the path as written. No document: no rule.
    static func pathRules(_ document: AASADocument?, appID: String) -> [PathRule]? {
        guard let applinks = document?.applinks else { return [] }
        let variables = Dictionary(
            applinks.substitutionVariables.map { ($0.name, $0.values) }, uniquingKeysWith: { $1 })
        func rule(_ pattern: String, exclude: Bool) -> PathRule? {
            guard
                let matcher = try? PatternMatcher(
                    pattern, options: PatternOptions(appleSlashRules: true), variables: variables)
            else { return nil }
            let used = variables.filter { pattern.contains("$(\($0.key))") }.sorted { $0.key < $1.key }
            return PathRule(
                signature: ([pattern] + used.map { "\($0.key)=\($0.value)" }).joined(separator: "\u{0}"),
                matcher: matcher, exclude: exclude)
        }
        var rules: [PathRule] = []
        var seen: Set<String> = []
        for details in applinks.details where details.effectiveAppIDs.contains(appID) {
            if let components = details.components {
                for component in components {
                    let levels = [component, details.defaults, applinks.defaults].compactMap { $0 }
                    func effective<Value>(_ key: KeyPath<AASAComponent, Value?>) -> Value? {
                        levels.lazy.compactMap { $0[keyPath: key] }.first
                    }
                    switch effective(\.query) {
                    case nil, .whole("*")?: break
                    default: return nil
                    }
                    guard effective(\.fragment) ?? "*" == "*", effective(\.caseSensitive) ?? true,
                        effective(\.percentEncoded) ?? true,
                        let rule = rule(effective(\.path) ?? "*", exclude: effective(\.exclude) ?? false)
                    else { return nil }
                    if seen.insert(rule.signature).inserted { rules.append(rule) }
                }
            } else {
                for path in details.paths ?? [] {
                    let exclude = path.hasPrefix("NOT ")
                    guard let rule = rule(exclude ? String(path.dropFirst(4)) : path, exclude: exclude) else {
                        return nil
                    }
                    if seen.insert(rule.signature).inserted { rules.append(rule) }
                }
            }
        }
        return rules
    }
}
