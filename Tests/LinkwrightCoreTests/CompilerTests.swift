import Foundation
import LinkwrightCore
import LinkwrightTestSupport
import Testing

/// Loads a configuration folder from disk through the in-memory tree the core reads.
func loadConfiguration(at folder: URL) throws -> (Configuration?, [Diagnostic]) {
    var files: [String: String] = [:]
    for sub in ["environments", "domains", "policies"] {
        let url = folder.appendingPathComponent(sub)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? [] {
            files["\(sub)/\(name)"] = String(
                decoding: try Data(contentsOf: url.appendingPathComponent(name)), as: UTF8.self)
        }
    }
    return try ConfigLoader().load(from: InMemorySourceTree(files))
}

func compileFolder(_ folder: URL) throws -> ([Artifact], [Diagnostic]) {
    let (configuration, loadDiagnostics) = try loadConfiguration(at: folder)
    let loaded = try #require(configuration, "\(loadDiagnostics)")
    let (compiled, diagnostics) = Compiler().compile(loaded)
    return (ArtifactRenderer.render(compiled), loadDiagnostics + diagnostics)
}

@Suite struct GoldenArtifactTests {
    static let goldenFolder = RepositoryPaths.root.appendingPathComponent("Tests/LinkwrightCoreTests/Fixtures/golden")

    /// The repository's example configuration compiles to exactly the committed dist/ folder
    /// (`LINKWRIGHT_RECORD=1` rewrites it; `linkwright build` does the same).
    @Test func exampleConfigurationMatchesDist() throws {
        let (artifacts, _) = try compileFolder(RepositoryPaths.root)
        try expectGolden(artifacts, in: RepositoryPaths.root.appendingPathComponent("dist"))
    }

    @Test func kitchenSinkMatchesItsGoldenFiles() throws {
        let folder = Self.goldenFolder.appendingPathComponent("kitchen-sink")
        let (artifacts, diagnostics) = try compileFolder(folder)
        let rendered = diagnostics.sorted().map {
            "\($0.location.map(String.init(describing:)) ?? "-"): \($0.severity.rawValue): \($0.message) [\($0.id)]"
        }
        if let mismatch = Golden.mismatch(
            rendered.joined(separator: "\n") + "\n", golden: folder.appendingPathComponent("expected/diagnostics.txt"))
        {
            Issue.record(Comment(rawValue: mismatch))
        }
        try expectGolden(artifacts, in: folder.appendingPathComponent("expected"))
    }

    private func expectGolden(_ artifacts: [Artifact], in folder: URL) throws {
        #expect(!artifacts.isEmpty)
        for artifact in artifacts {
            if let mismatch = Golden.mismatch(
                String(decoding: artifact.bytes, as: UTF8.self), golden: folder.appendingPathComponent(artifact.path))
            {
                Issue.record(Comment(rawValue: mismatch))
            }
        }
        // No golden file is left over from an artifact that is no longer produced.
        let produced = Set(artifacts.map(\.path))
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        while let path = enumerator?.nextObject() as? String {
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path, isDirectory: &isFolder)
            guard !isFolder.boolValue,
                path.contains(".well-known/") || path.contains("/ios/") || path.contains("/android/")
            else { continue }
            #expect(produced.contains(path), "golden file \(path) is no longer produced")
        }
    }
}

@Suite struct CompilerTests {
    private func compile(_ files: [String: String], environments: [String] = []) throws -> (
        CompiledConfiguration, [Diagnostic]
    ) {
        let (configuration, diagnostics) = ConfigLoader().load(
            files.sorted { $0.key < $1.key }.map { SourceFile(path: $0.key, bytes: Array($0.value.utf8)) })
        let loaded = try #require(configuration, "\(diagnostics)")
        return Compiler().compile(loaded, environments: environments)
    }

    static let environment = """
        tier: production
        team_id: ABCDE12345
        apps:
          shop:
            ios: {bundle_id: com.example.shop}
          clip:
            ios: {bundle_id: com.example.shop.Clip, app_clip: true}
        hosts:
          shop.example: shop
          "*.shop.example": shop
        """

    @Test func appClipsGetConcreteHostsOnly() throws {
        // Apple: "For services other than appclips, you can prefix a domain with *." (Supporting associated domains).
        let (compiled, _) = try compile([
            "environments/prod.yaml": Self.environment,
            "domains/shop.yaml": "applinks:\n  - apps: [shop]\n    rules:\n      - path: /p/*\nappclips: [clip]\n",
        ])
        let clip = try #require(compiled.environments[0].iosApps.first { $0.name == "clip" })
        #expect(clip.associatedDomains == ["appclips:shop.example"])
        let shop = try #require(compiled.environments[0].iosApps.first { $0.name == "shop" })
        #expect(shop.associatedDomains == ["applinks:shop.example", "applinks:*.shop.example"])
    }

    /// Every service with an app list, from the domain file's key to the served file's key and
    /// the app's entitlement, on the hosts the service may claim.
    @Test(arguments: AssociatedService.appListServices)
    func aServiceListCompilesToItsFileKeyAndEntitlement(_ service: AssociatedService) throws {
        let app = service == .appclips ? "clip" : "shop"
        let (compiled, diagnostics) = try compile([
            "environments/prod.yaml": Self.environment,
            "domains/shop.yaml": "\(service.rawValue): [\(app)]\n",
        ])
        #expect(!diagnostics.contains { $0.severity == .error }, "\(diagnostics)")
        let site = try #require(compiled.environments[0].sites.first)
        let aasa = try #require(site.aasa)
        #expect(aasa.serviceApps == [service: ["ABCDE12345.com.example.\(app == "clip" ? "shop.Clip" : "shop")"]])
        let json = aasa.json.rendered()
        #expect(json.contains("\"\(service.rawValue)\""), "\(json)")
        let declared = try #require(compiled.environments[0].iosApps.first { $0.name == app })
        let hosts = service.allowsWildcardHosts ? ["shop.example", "*.shop.example"] : ["shop.example"]
        #expect(declared.associatedDomains == hosts.map { "\(service.rawValue):\($0)" })
    }

    @Test func wildcardAndRootShareOneSiteServedFromTheRoot() throws {
        let (compiled, _) = try compile([
            "environments/prod.yaml": Self.environment,
            "domains/shop.yaml": "applinks:\n  - apps: [shop]\n    rules:\n      - path: /p/*\nappclips: [clip]\n",
        ])
        let sites = compiled.environments[0].sites
        #expect(sites.map(\.fileHost.name) == ["shop.example"])
        #expect(sites[0].servedHosts.map(\.name) == ["shop.example", "*.shop.example"])
        #expect(compiled.environments[0].site(serving: "a.shop.example")?.fileHost.name == "shop.example")
        #expect(compiled.environments[0].site(serving: "shop.example.evil")?.fileHost.name == nil)
    }

    @Test func rulesLimitedToAnEnvironmentStayOutOfTheOthers() throws {
        let staging = Self.environment.replacingOccurrences(of: "tier: production", with: "tier: staging")
            .replacingOccurrences(of: "shop.example", with: "staging.shop.example")
        let files = [
            "environments/prod.yaml": Self.environment,
            "environments/staging.yaml": staging,
            "domains/shop.yaml":
                "applinks:\n  - apps: [shop]\n    rules:\n      - path: /p/*\n      - path: /preview/*\n        environments: [staging]\n",
        ]
        let (compiled, _) = try compile(files)
        let paths = { (environment: String) in
            compiled.environments.first { $0.name == environment }!.sites[0].aasa!.applinks!.details[0].components!
                .compactMap(\.path)
        }
        #expect(paths("prod") == ["/p/*"])
        #expect(paths("staging") == ["/p/*", "/preview/*"])
        let (onlyStaging, _) = try compile(files, environments: ["staging"])
        #expect(onlyStaging.environments.map(\.name) == ["staging"])
    }

    /// Android's translation of a domain is made once for the environments resolving it alike;
    /// an environment with rules of its own gets its own.
    @Test func androidTranslationsFollowEachEnvironmentsRules() throws {
        let fingerprint = Array(repeating: "AB", count: 32).joined(separator: ":")
        func environment(_ name: String) -> String {
            "tier: \(name)\nteam_id: ABCDE12345\napps:\n  shop:\n    android: {package: com.example.\(name), "
                + "fingerprints: {play-signing: \"\(fingerprint)\"}}\n  kiosk:\n    android: {package: "
                + "com.example.kiosk.\(name), fingerprints: {play-signing: \"\(fingerprint)\"}}\n"
                + "hosts:\n  \(name).shop.example: shop\n"
        }
        let rules =
            "applinks:\n  - apps: [shop, kiosk]\n    rules:\n      - path: /p/*\n      - path: /search\n"
            + "        query: \"q=*\"\n"
        let filtered = rules + "      - path: /preview/*\n        environments: [staging]\n"
        for (domain, previewIn) in [(rules, [String]()), (filtered, ["staging"])] {
            let (compiled, diagnostics) = try compile([
                "environments/production.yaml": environment("production"),
                "environments/staging.yaml": environment("staging"),
                "domains/shop.yaml": domain + "emit:\n  android_dynamic_rules: true\n",
            ])
            // Said once, however many environments and apps read the rule.
            #expect(diagnostics.filter { $0.id == .androidQueryString }.count == 1)
            for environment in compiled.environments {
                let statements = try #require(environment.sites.first?.assetLinks?.statements)
                let paths = statements.map { $0.dynamicComponents?.compactMap(\.path) ?? [] }
                #expect(paths.count == 2 && paths[0] == paths[1])
                #expect(paths[0].contains("/p/*") && paths[0].contains("/search"))
                #expect(paths[0].contains("/preview/*") == previewIn.contains(environment.name), "\(environment.name)")
                let scopes = environment.androidApps.map { $0.intentFilters.map(\.scopes) }
                #expect(scopes.count == 2 && scopes[0] == scopes[1])
                #expect(
                    scopes[0].joined().contains(.prefix("/preview/")) == previewIn.contains(environment.name),
                    "\(environment.name): \(scopes)")
            }
        }
    }

    /// Android's rules and scopes are rebuilt from a rule's pattern scalar by scalar: every
    /// scalar must come out as written (a combining mark stays apart, a precomposed letter
    /// stays one), and a custom variable's values are spliced in as written.
    @Test func androidTranslationsKeepEveryScalarAsWritten() throws {
        let fingerprint = Array(repeating: "AB", count: 32).joined(separator: ":")
        let (compiled, _) = try compile([
            "environments/production.yaml":
                "tier: production\nteam_id: ABCDE12345\napps:\n  shop:\n    android: {package: com.example.shop, "
                + "fingerprints: {play-signing: \"\(fingerprint)\"}}\nhosts:\n  shop.example: shop\n",
            "domains/shop.yaml":
                "variables:\n  kind: [x, \"\u{FF}\", \"n\u{303}\"]\napplinks:\n  - apps: [shop]\n    rules:\n"
                + "      - path: \"/caf\u{E9}/$(kind)/e\u{301}?*\"\n      - path: \"/na\u{EF}ve/\u{1F600}\"\n"
                + "emit:\n  android_dynamic_rules: true\n",
        ])
        let environment = try #require(compiled.environments.first)
        let statement = try #require(environment.sites.first?.assetLinks?.statements.first)
        let paths = (statement.dynamicComponents ?? []).compactMap(\.path)
        #expect(
            paths.map { Array($0.utf8) }
                == [
                    "/caf\u{E9}/x/e\u{301}?*", "/caf\u{E9}/\u{FF}/e\u{301}?*", "/caf\u{E9}/n\u{303}/e\u{301}?*",
                    "/na\u{EF}ve/\u{1F600}",
                ].map { Array($0.utf8) }, "\(paths)")
        let scopes = try #require(environment.androidApps.first?.intentFilters.first?.scopes)
        let texts = scopes.map { scope -> [UInt8] in
            switch scope {
            case .path(let text), .prefix(let text), .pattern(let text): Array(text.utf8)
            }
        }
        #expect(
            texts
                == ["/caf\u{E9}/", "/na\u{EF}ve/\u{1F600}", "/na\u{EF}ve/\u{1F600}/"].map { Array($0.utf8) },
            "\(scopes)")
    }

    /// An entry's AASA components are made once for every environment resolving the domain
    /// alike, and every environment's file shares them; an entry resolved otherwise in an
    /// environment gets its own. Either way each file is the one compiling its environment
    /// alone makes.
    @Test func environmentsShareTheComponentsOfEntriesTheyResolveAlike() throws {
        func environment(_ name: String, team: String) -> String {
            "tier: \(name)\nteam_id: \(team)\napps:\n  shop:\n    ios: {bundle_id: com.example.\(name)}\n"
                + "hosts:\n  \(name).shop.example: shop\n  \(name).help.example: help\n"
        }
        let files = [
            "environments/production.yaml": environment("production", team: "ABCDE12345"),
            "environments/staging.yaml": environment("staging", team: "ABCDE99999"),
            "domains/shop.yaml": "applinks:\n  - apps: [shop]\n    rules:\n      - path: /p/*\n  - apps: [shop]\n"
                + "    rules:\n      - path: /q/*\n        exclude: true\n",
            "domains/help.yaml": "applinks:\n  - apps: [shop]\n    rules:\n      - path: /faq/*\n"
                + "      - path: /preview/*\n        environments: [staging]\n",
        ]
        let (compiled, _) = try compile(files)
        func details(_ environment: CompiledEnvironment, _ domain: String) throws -> [AASADetails] {
            try #require(environment.sites.first { $0.domain == domain }?.aasa?.applinks?.details)
        }
        let (production, staging) = (compiled.environments[0], compiled.environments[1])
        for (first, second) in zip(try details(production, "shop"), try details(staging, "shop")) {
            #expect(storageAddress(first.components) == storageAddress(second.components))
        }
        let help = (try details(production, "help"), try details(staging, "help"))
        #expect(help.0[0].components?.compactMap(\.path) == ["/faq/*"])
        #expect(help.1[0].components?.compactMap(\.path) == ["/faq/*", "/preview/*"])
        for environment in compiled.environments {
            let (alone, _) = try compile(files, environments: [environment.name])
            for (site, aloneSite) in zip(environment.sites, alone.environments[0].sites) {
                #expect(site.aasa == aloneSite.aasa, "\(environment.name) \(site.fileHost)")
                #expect(site.aasa?.json.rendered() == aloneSite.aasa?.json.rendered())
            }
        }
    }

    @Test func anAASAOverAppleLimitIsAnError() throws {
        let rules = (0..<3000).map {
            "      - path: /products/category-\($0)/item-*\n        comment: generated rule number \($0)\n"
        }.joined()
        let (_, diagnostics) = try compile([
            "environments/prod.yaml": Self.environment,
            "domains/shop.yaml": "applinks:\n  - apps: [shop]\n    rules:\n" + rules,
        ])
        #expect(diagnostics.contains { $0.id == .aasaTooLarge && $0.severity == .error })
    }

    @Test func outputIsTheSameBytesEveryTime() throws {
        let first = try compileFolder(RepositoryPaths.root).0
        let second = try compileFolder(RepositoryPaths.root).0
        #expect(first == second)
        for artifact in first {
            #expect(artifact.bytes.last == UInt8(ascii: "\n"), "\(artifact.path) lacks a final newline")
        }
    }

    @Test func everyArtifactPathStaysInsideItsEnvironmentFolder() throws {
        for artifact in try compileFolder(RepositoryPaths.root).0 {
            let parts = artifact.path.split(separator: "/", omittingEmptySubsequences: false)
            #expect(parts.first.map(String.init) == artifact.environment)
            #expect(!parts.contains("..") && !parts.contains(""), "\(artifact.path)")
        }
    }
}
