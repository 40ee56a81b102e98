import Testing

@testable import LinkwrightCore

/// `StructuralDiff.sites` reads the parties of a file host only where its domains' files differ
/// between the sides, and `StructuralDiff.hosts` hashes the hosts only where they differ: whatever
/// sites the sides have, repeated, moved, dropped, their files the very instance, an equal copy
/// or edited, the changes must be those of reading every file host's parties on both sides.
@Suite struct StructuralDiffSitesTests {
    static func host(_ name: String) -> Host { try! Host.parse(name).get() }

    static func environment(_ sites: [CompiledSite]) -> CompiledEnvironment {
        CompiledEnvironment(name: "production", tier: .production, sites: sites, iosApps: [], androidApps: [])
    }

    /// Each file host's parties compared, and the changes of those that differ found on the two
    /// sites alone.
    static func plainSites(_ before: CompiledEnvironment, _ after: CompiledEnvironment) -> [LinkChange] {
        let context = StructuralDiff.Context(environment: "production", baseConfiguration: nil, headConfiguration: nil)
        var fileHosts: [Host] = []
        for site in after.sites + before.sites where !fileHosts.contains(site.fileHost) {
            fileHosts.append(site.fileHost)
        }
        return fileHosts.flatMap { fileHost -> [LinkChange] in
            let old = before.sites.first { $0.fileHost == fileHost }
            let new = after.sites.first { $0.fileHost == fileHost }
            guard (old.map(SiteParties.init) ?? SiteParties()) != (new.map(SiteParties.init) ?? SiteParties()) else {
                return []
            }
            return StructuralDiff.sites(
                environment(old.map { [$0] } ?? []), environment(new.map { [$0] } ?? []), context)
        }
    }

    /// Every host a side serves, in order; those of the other side not among them changed.
    static func plainHosts(_ before: CompiledEnvironment, _ after: CompiledEnvironment) -> [String] {
        let (old, new) = (before.sites.flatMap(\.servedHosts), after.sites.flatMap(\.servedHosts))
        return new.filter { !old.contains($0) }.map { "+\($0)" } + old.filter { !new.contains($0) }.map { "-\($0)" }
    }

    /// Seeded pairs of environments: three domains' files, each side's sites picking domains
    /// and file hosts at random (a host repeated, a wildcard beside its root), the head's files
    /// of a domain the base's very instance, an equal copy, or another app's.
    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6])
    func changesAreThoseOfEveryFileHostsParties(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        let roots = ["shop.example", "news.example", "blog.example", "caf.example"]
        let packages = ["com.example.shop", "com.example.news"]
        let appIDs = ["ABCDE12345.com.example.shop", "ABCDE12345.com.example.news"]
        let keys = ["AA:01", "BB:02", "CC:03"]
        func subset(_ values: [String]) -> [String] { values.filter { _ in Bool.random(using: &generator) } }
        func aasa() -> AASADocument? {
            guard Int.random(in: 0..<4, using: &generator) > 0 else { return nil }
            let details = (0..<Int.random(in: 0...2, using: &generator)).map { _ in
                AASADetails(appIDs: subset(appIDs), components: [AASAComponent(path: "/products/*")])
            }
            return AASADocument(
                applinks: AppLinksSection(details: details),
                serviceApps: Bool.random(using: &generator) ? [.webcredentials: subset(appIDs)] : [:])
        }
        func assetLinks() -> AssetLinksDocument? {
            guard Int.random(in: 0..<4, using: &generator) > 0 else { return nil }
            var statements = subset(packages).map { package in
                AssetStatement(
                    relations: [AssetStatement.handleAllURLs]
                        + (Bool.random(using: &generator) ? ["delegate_permission/common.get_login_creds"] : []),
                    target: .androidApp(package: package, fingerprints: subset(keys)))
            }
            if Bool.random(using: &generator) {
                statements.append(
                    AssetStatement(
                        relations: ["delegate_permission/common.get_login_creds"],
                        target: .web(site: "https://shop.example")))
            }
            return AssetLinksDocument(
                statements: statements,
                includes: Bool.random(using: &generator) ? [AssetInclude(url: "https://shop.example/links.json")] : [])
        }
        typealias Files = (aasa: AASADocument?, assetLinks: AssetLinksDocument?)
        func sites(_ files: [String: Files]) -> [CompiledSite] {
            (0..<Int.random(in: 0...6, using: &generator)).map { _ in
                let root = roots.randomElement(using: &generator)!
                let domain = files.keys.sorted().randomElement(using: &generator)!
                let served = Bool.random(using: &generator) ? [root, "*." + root] : [root]
                return CompiledSite(
                    fileHost: Self.host(root), servedHosts: served.map(Self.host), domain: domain,
                    aasa: files[domain]!.aasa, assetLinks: files[domain]!.assetLinks)
            }
        }
        var checked = 0
        for round in 0..<300 {
            let baseFiles: [String: Files] = Dictionary(
                uniqueKeysWithValues: ["shop", "news", "blog"].map { ($0, (aasa(), assetLinks())) })
            var headFiles = baseFiles
            for domain in baseFiles.keys.sorted() {
                switch Int.random(in: 0..<4, using: &generator) {
                case 0: headFiles[domain] = (aasa(), assetLinks())
                case 1:
                    // An equal copy in other storage, as two revisions compiled apart hold.
                    let files = baseFiles[domain]!
                    headFiles[domain] = (
                        files.aasa.map {
                            AASADocument(
                                applinks: $0.applinks.map { AppLinksSection(details: $0.details.map { $0 }) },
                                serviceApps: $0.serviceApps)
                        },
                        files.assetLinks.map { AssetLinksDocument(statements: $0.statements.map { $0 }) }
                    )
                default: break
                }
            }
            let base = Self.environment(sites(baseFiles))
            // The head's sites mostly the base's, with one added, dropped or moved at times.
            var headSites = Bool.random(using: &generator) ? sites(headFiles) : base.sites
            headSites = headSites.map { site in
                var site = site
                (site.aasa, site.assetLinks) = (headFiles[site.domain]!.aasa, headFiles[site.domain]!.assetLinks)
                return site
            }
            if !headSites.isEmpty && Bool.random(using: &generator) {
                headSites.swapAt(0, Int.random(in: 0..<headSites.count, using: &generator))
            }
            let head = Self.environment(headSites)
            let context = StructuralDiff.Context(
                environment: "production", baseConfiguration: nil, headConfiguration: nil)
            let sites = StructuralDiff.sites(base, head, context)
            checked += sites.count
            #expect(sites == Self.plainSites(base, head), "seed \(seed) round \(round)")
            #expect(
                StructuralDiff.hosts(base, head, context).map { ($0.kind == .hostAdded ? "+" : "-") + $0.host! }
                    == Self.plainHosts(base, head), "seed \(seed) round \(round)")
        }
        #expect(checked > 100)
    }
}
