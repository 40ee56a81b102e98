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
            var entry = entry
            entry.rules = entry.rules.filter { applies($0.environments, to: environment) }
            return entry.rules.isEmpty ? nil : entry
        }
    }

    /// Every logical app name `domain` uses in `environment`.
    static func referencedApps(_ domain: Domain, in environment: String) -> [String] {
        let linked = entries(of: domain, in: environment).flatMap { $0.apps.map(\.value) }
        let services = AssociatedService.appListServices.flatMap { domain.apps(of: $0) }.map(\.value)
        return linked + services + domain.assetStatements.compactMap(\.app?.value)
    }

    /// Every pattern the user wrote in `domain`: paths, fragments and query patterns.
    static func patterns(of domain: Domain) -> [Located<String>] {
        domain.applinks.flatMap(\.rules).flatMap(patterns(of:))
    }

    /// The patterns of one rule.
    static func patterns(of rule: Rule) -> [Located<String>] {
        var patterns = [rule.path, rule.fragment].compactMap { $0 }
        switch rule.query?.value {
        case .whole(let pattern): patterns.append(Located(pattern, at: rule.query!.location))
        case .items(let items): patterns += items.map { Located($0.pattern, at: $0.location) }
        case nil: break
        }
        return patterns
    }
}
