/// Changes told once each, as release notes and pull-request comments tell them: one change
/// that several environments, hosts and platforms share is one entry listing where it happens
/// (production first), its apps named as the configuration names them.
public struct ChangeEntry: Sendable {
    /// The change as said, its apps by their configuration names; environment, host and
    /// platform are those of its first place.
    public var change: LinkChange
    /// Where it happens: per environment (production first), each host with its platforms.
    public var places: [(environment: String, hosts: [(host: String, platforms: [Platform])])]

    /// `production: museo.example, entradas.museo.example (iOS, Android); staging: …`, each
    /// host set apart by `code`, and every platform named only when not both do it.
    public func whereText(code: (String) -> String, prose: (String) -> String) -> String {
        places.map { environment, hosts in
            // Hosts with the same platforms share them.
            var groups: [(platforms: [Platform], hosts: [String])] = []
            for (host, platforms) in hosts {
                if let index = groups.firstIndex(where: { $0.platforms == platforms }) {
                    groups[index].hosts.append(host)
                } else {
                    groups.append((platforms, [host]))
                }
            }
            let said = groups.map { group in
                let hosts = group.hosts.map { $0.isEmpty ? "" : code($0) }.filter { !$0.isEmpty }
                let platforms = group.platforms.map(\.displayName).joined(separator: ", ")
                return (hosts.joined(separator: ", ") + (platforms.isEmpty ? "" : " (\(platforms))"))
                    .trimmingCharacters(in: .whitespaces)
            }
            // Files compared without a configuration have no environment to name.
            let named = environment == PolicySnapshot.artifactEnvironment ? "" : prose(environment)
            let places = said.allSatisfy(\.isEmpty) ? "" : said.joined(separator: "; ")
            return named.isEmpty || places.isEmpty ? named + places : named + ": " + places
        }.joined(separator: "; ")
    }
}

extension ChangeEntry {
    /// `changes` as entries, in the order first met (behaviour first, as they are listed), each
    /// change's apps renamed by `names`, environments ordered by `environmentOrder`.
    public static func entries(_ changes: [LinkChange], names: AppNames, environmentOrder: [String]) -> [ChangeEntry] {
        var entries: [ChangeEntry] = []
        var index: [String: Int] = [:]
        var placesByEntry: [[String: [(String, [Platform])]]] = []
        for change in changes {
            var renamed = names.renamed(change)
            let key = renamed.kind.rawValue + "\u{0}" + Changelog.sentence(renamed, code: { $0 }, prose: { $0 })
            let host = change.place ?? ""
            if index[key] == nil {
                index[key] = entries.count
                renamed.platform = change.platform
                entries.append(ChangeEntry(change: renamed, places: []))
                placesByEntry.append([:])
            }
            let position = index[key]!
            var hosts = placesByEntry[position][change.environment, default: []]
            if let at = hosts.firstIndex(where: { $0.0 == host }) {
                if let platform = change.platform, !hosts[at].1.contains(platform) { hosts[at].1.append(platform) }
            } else {
                hosts.append((host, change.platform.map { [$0] } ?? []))
            }
            placesByEntry[position][change.environment] = hosts
        }
        func rank(_ environment: String) -> Int { environmentOrder.firstIndex(of: environment) ?? Int.max }
        for position in entries.indices {
            entries[position].places = placesByEntry[position].sorted {
                (rank($0.key), $0.key) < (rank($1.key), $1.key)
            }
            .map { environment, hosts in
                (environment, hosts.map { ($0.0, $0.1.sorted { $0.rawValue > $1.rawValue }) })
            }
        }
        return entries.sorted { rank($0.places.first?.environment ?? "") < rank($1.places.first?.environment ?? "") }
    }
}

/// App IDs and packages by the names the configuration gives the apps, environment by
/// environment, so one app is one name on both platforms: `A1B2C3D4E5.com.example.museo` and
/// `com.example.museo` are both `museo`.
public struct AppNames: Sendable {
    private var names: [String: String] = [:]

    public init(_ configurations: [CompiledConfiguration?]) {
        for environment in configurations.compactMap({ $0 }).flatMap(\.environments) {
            for app in environment.iosApps { names[environment.name + "\u{0}" + app.appID] = app.name }
            for app in environment.androidApps { names[environment.name + "\u{0}" + app.package] = app.name }
        }
    }

    /// The app's configuration name in `environment`: `museo` for its app ID or package, and
    /// `museo (Android 15-initial)` for what only an older Android release decides.
    public func name(_ identifier: String, in environment: String) -> String {
        if let name = names[environment + "\u{0}" + identifier] { return name }
        guard let open = identifier.range(of: " ("), identifier.hasSuffix(")"),
            let name = names[environment + "\u{0}" + identifier[..<open.lowerBound]]
        else { return identifier }
        return name + identifier[open.lowerBound...]
    }

    /// `change` with the apps it names (`app`, and `before` and `after` of a behaviour change)
    /// by their configuration names.
    public func renamed(_ change: LinkChange) -> LinkChange {
        var renamed = change
        renamed.app = change.app.map { name($0, in: change.environment) }
        if change.kind.isBehaviour && change.kind != .changesRoute {
            renamed.before = change.before.map { name($0, in: change.environment) }
            renamed.after = change.after.map { name($0, in: change.environment) }
        }
        return renamed
    }

    /// Environment names with production first, then staging, then development, each tier in
    /// the configuration's order.
    public static func environmentOrder(_ configurations: [CompiledConfiguration?]) -> [String] {
        let environments = configurations.compactMap { $0 }.flatMap(\.environments)
        return Tier.allCases.flatMap { tier in environments.filter { $0.tier == tier }.map(\.name) }.uniqued()
    }
}
