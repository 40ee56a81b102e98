/// What a domain contract means in one environment: entries and rules limited with
/// `environments:` apply only there.
enum Resolution {
    static func applies(_ environments: [Located<String>]?, to environment: String) -> Bool {
        environments.map { $0.contains { $0.value == environment } } ?? true
    }

    /// The applinks entries of `domain` in `environment`, with their rules filtered the same way.
    /// Entries left without rules are dropped.
    static func entries(of domain: Domain, in environment: String) -> [AppLinksEntry] {
        domain.applinks.compactMap { entry in
            guard applies(entry.environments, to: environment) else { return nil }
            // An entry whose rules all apply is kept as it is, sharing its rules' storage:
            // filtering copied every rule of every entry for each environment compiled. Read
            // through a pointer, as a copy per rule retained every text it holds.
            let allApply = entry.rules.withUnsafeBufferPointer { rules in
                rules.indices.allSatisfy { applies(rules[$0].environments, to: environment) }
            }
            if allApply { return entry.rules.isEmpty ? nil : entry }
            var entry = entry
            entry.rules = entry.rules.filter { applies($0.environments, to: environment) }
            return entry.rules.isEmpty ? nil : entry
        }
    }

    /// Every logical app name `domain` uses in `environment`.
    static func referencedApps(_ domain: Domain, in environment: String) -> [String] {
        // The entries `entries(of:in:)` keeps, found without copying them: one rule applying
        // is enough, where their copies filtered every rule.
        let linked = domain.applinks.filter { entry in
            applies(entry.environments, to: environment)
                && entry.rules.contains { applies($0.environments, to: environment) }
        }.flatMap { $0.apps.map(\.value) }
        let services = AssociatedService.appListServices.flatMap { domain.apps(of: $0) }.map(\.value)
        return linked + services + domain.assetStatements.compactMap(\.app?.value)
    }

    /// The patterns of one rule: its path, fragment and query patterns.
    static func patterns(of rule: Rule) -> [Located<String>] {
        var patterns: [Located<String>] = []
        forEachPattern(of: rule) { patterns.append(Located($0, at: $1)) }
        return patterns
    }

    /// Gives `body` each pattern of `rule` and where it is written, in the order of
    /// `patterns(of:)`, without collecting them: a domain's own checks read every rule's.
    static func forEachPattern(of rule: Rule, _ body: (String, SourceLocation) -> Void) {
        if let path = rule.path { body(path.value, path.location) }
        if let fragment = rule.fragment { body(fragment.value, fragment.location) }
        switch rule.query?.value {
        case .whole(let pattern): body(pattern, rule.query!.location)
        case .items(let items): for item in items { body(item.pattern, item.location) }
        case nil: break
        }
    }
}
