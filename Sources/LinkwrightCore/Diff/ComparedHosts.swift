/// Which hosts the behaviour diff proves: those served on one side only, and those whose files
/// or claims may have changed.
extension BehaviourDiff {
    /// The hosts of an environment to prove, the head's in order then the base's others: every
    /// host served on one side only (a dropped or added host or wildcard: its URLs are decided
    /// on the other side by a wider wildcard's files, or by nothing), and the hosts served on
    /// both that `affected` says may change.
    static func comparedHosts(_ before: CompiledEnvironment, _ after: CompiledEnvironment, affected: (Host) -> Bool)
        -> [Host]
    {
        let oldHosts = before.sites.flatMap(\.servedHosts)
        let newHosts = after.sites.flatMap(\.servedHosts)
        let (oldSet, newSet) = (Set(oldHosts), Set(newHosts))
        var listed: Set<Host> = []
        return (newHosts + oldHosts).filter { host in
            guard listed.insert(host).inserted else { return false }
            return !(oldSet.contains(host) && newSet.contains(host)) || affected(host)
        }
    }

    /// Which hosts can decide a URL differently. A device decides a URL on host `h` from the
    /// apps' claims and the files of the host a claim names: `h` itself, or a parent domain for
    /// a wildcard claim. With the same apps and claims on both sides, only hosts at or under a
    /// host whose files changed can change, and the others need no samples: a change to one
    /// domain of hundreds costs that domain's samples only.
    static func affectedHosts(_ before: CompiledEnvironment, _ after: CompiledEnvironment) -> (Host) -> Bool {
        guard before.iosApps == after.iosApps, let changedFilters = changedIntentFilterHosts(before, after) else {
            return { _ in true }
        }
        // Compared as documents, which render to the files: equal documents serve equal files
        // (and unequal ones, say rules that only moved lines, are merely proven again). Every
        // site of a domain carries the same files in an environment (`CompiledSite.domain`), so
        // each pair of domains serving a host is compared once, not each of its thousands of
        // hosts.
        func sites(_ environment: CompiledEnvironment) -> [String: CompiledSite] {
            Dictionary(environment.sites.map { ($0.fileHost.name, $0) }, uniquingKeysWith: { first, _ in first })
        }
        let old = sites(before)
        let new = sites(after)
        var sameFiles: [[String?]: Bool] = [:]
        let changed = Set(
            Set(old.keys).union(new.keys).filter { host in
                let (oldSite, newSite) = (old[host], new[host])
                let domains = [oldSite?.domain, newSite?.domain]
                if let known = sameFiles[domains] { return !known }
                let same =
                    oldSite.map { ServedFiles(aasa: $0.aasa, assetLinks: $0.assetLinks) }
                    == newSite.map { ServedFiles(aasa: $0.aasa, assetLinks: $0.assetLinks) }
                sameFiles[domains] = same
                return !same
            })
        return { host in
            if changedFilters.contains(where: { $0 == host || HostPattern.androidFilter($0.name, matches: host.name) })
            {
                return true
            }
            // The file host and each parent domain of it.
            var name = Substring(host.fileHost.name)
            while true {
                if changed.contains(String(name)) { return true }
                guard let dot = name.firstIndex(of: ".") else { return false }
                name = name[name.index(after: dot)...]
            }
        }
    }

    private struct ServedFiles: Equatable {
        let aasa: AASADocument?
        let assetLinks: AssetLinksDocument?
    }

    /// The hosts of intent filters that differ between the sides, when the apps and the order of
    /// their filters are the same (Android claims a host with the first filter naming it whose
    /// scope accepts the path, so only those filters matter for it); `nil` when anything else
    /// differs, which may change any host.
    private static func changedIntentFilterHosts(_ before: CompiledEnvironment, _ after: CompiledEnvironment)
        -> [Host]?
    {
        guard before.androidApps.map(\.package) == after.androidApps.map(\.package) else { return nil }
        var hosts: [Host] = []
        for (old, new) in zip(before.androidApps, after.androidApps) {
            guard old.intentFilters.map(\.domain) == new.intentFilters.map(\.domain) else { return nil }
            for (oldFilter, newFilter) in zip(old.intentFilters, new.intentFilters) where oldFilter != newFilter {
                hosts += oldFilter.hosts + newFilter.hosts
            }
        }
        return hosts
    }
}
