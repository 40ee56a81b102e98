import Foundation
import LinkwrightCore
import LinkwrightTestSupport
import Testing

/// `linkwright import`: real association files become YAML that builds to the same behaviour.
@Suite struct ImportCommandTests {
    static let fixtures = RepositoryPaths.root.appendingPathComponent("Tests/LinkwrightEndToEndTests/Fixtures/import")
    static let golden = RepositoryPaths.root.appendingPathComponent("Tests/LinkwrightEndToEndTests/Golden/import")
    /// What import writes under each rule that opens an app: the files do not say where it leads.
    static let unknownRoute = "        route: none\n        reason: \"imported: no screen named yet\"\n"

    @Test func representativeFilesBecomeTheGoldenYAML() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for name in ["modern.json", "legacy.json", "dictionary.json", "assetlinks.json"] {
            try FileManager.default.copyItem(
                at: Self.fixtures.appendingPathComponent(name), to: folder.url.appendingPathComponent(name))
        }
        let result = try runLinkwright(
            [
                "import", "--aasa", "modern.json", "--assetlinks", "assetlinks.json", "--host", "shop.example",
                "--aasa",
                "legacy.json", "--host", "news.example", "--aasa", "dictionary.json", "--host", "old.example", "--env",
                "production",
            ], in: folder.url)
        #expect(result.status == 0, "\(result)")
        #expect(
            result.stdout.hasSuffix(
                "imported 3 hosts into environments/production.yaml, domains/shop.yaml, domains/news.yaml, domains/old.yaml, policies/adopted.yaml with 23 expectations that pin what they decide today (linkwright test)\n"
            ))
        // What was proven is recorded for check, host by host.
        let adopted = try folder.read("policies/adopted.yaml")
        #expect(
            adopted.contains(
                "\n  - environment: production\n    host: news.example\n    build: ")
                && adopted.contains("from: \"legacy.json\"\n"))
        // The files do not say which key is Play App Signing's, which the default policy requires:
        // one key is named after it, to be checked; of two, the person picks, at the line named.
        #expect(
            result.stdout.contains(
                "next: environments/production.yaml:27: rename the key of com.example.shop (key-1, key-2) that Google Play signs installs with"
            ), "\(result)")
        #expect(
            result.stdout.contains(
                "check: environments/production.yaml:33: com.example.scanner's one signing key is named play-signing"))
        #expect(result.stderr.contains("modern.json:17:52: warning: query item \"flag\" is the boolean true"))
        #expect(
            result.stderr.contains("modern.json:18:50: warning: \"*\" also matches URLs without a \"utm_source\" item"))
        #expect(
            result.stderr.contains(
                "warning: the file is named modern.json; iOS fetches /.well-known/apple-app-site-association"))
        for path in ["environments/production.yaml", "domains/shop.yaml", "domains/news.yaml", "domains/old.yaml"] {
            let file = Self.golden.appendingPathComponent(path.replacingOccurrences(of: "/", with: "-"))
            if let mismatch = Golden.mismatch(try folder.read(path), golden: file) {
                Issue.record(Comment(rawValue: mismatch))
            }
        }
        // The legacy file's exclusion comes after the rule that already opens its URLs: imported as
        // it behaves, and reported at the source and again, by line, in the YAML.
        #expect(
            result.stderr.contains(
                "dictionary.json:1:69: warning: path 2 is never reached: path 1 decides first [UNREACHABLE_RULE]"))
        let lint = try runLinkwright(["lint"], in: folder.url)
        #expect(lint.stdout == ".: configuration is valid (0 errors, 1 warning)\n")
        #expect(
            lint.stderr.contains(
                "domains/old.yaml:11:9: warning: rule \"/old/private\" is never reached: the rule at line 8 decides every URL it matches first [UNREACHABLE_RULE]"
            ), "\(lint)")
        #expect(try runLinkwright(["build"], in: folder.url).status == 0)
        let test = try runLinkwright(["test"], in: folder.url)
        #expect(test.status == 0 && test.stdout.hasPrefix("25 checks passed in 1 environment\n"), "\(test)")
    }

    @Test func aFolderInBuildLayoutImportsAndSharesIdenticalContracts() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let result = try runLinkwright(
            [
                "import", "--from", RepositoryPaths.root.appendingPathComponent("dist/production").path, "--env",
                "live", "--dry-run",
            ],
            in: folder.url)
        #expect(result.status == 0, "\(result)")
        // museo.example and entradas.museo.example serve identical files: one domain file.
        #expect(result.stdout.contains("  museo.example: museo\n"))
        #expect(result.stdout.contains("  entradas.museo.example: museo\n"))
        #expect(!folder.exists("environments"), "--dry-run writes nothing")
    }

    /// Who a built file vouches for, as "relation target" and "service appID" lines: every
    /// assetlinks.json statement's relations with its target (a site, or a package with its
    /// keys), every include, and every app ID of every AASA service.
    static func parties(_ url: URL) throws -> Set<String> {
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        let json = try JSONSerialization.jsonObject(with: try Data(contentsOf: url))
        var parties: Set<String> = []
        if let statements = json as? [[String: Any]] {
            for statement in statements {
                if let include = statement["include"] as? String { parties.insert("include \(include)") }
                let target = statement["target"] as? [String: Any] ?? [:]
                let keys = (target["sha256_cert_fingerprints"] as? [String] ?? []).sorted()
                let who = "\(target["site"] ?? target["package_name"] ?? "?") \(keys)"
                for relation in statement["relation"] as? [String] ?? [] { parties.insert("\(relation) \(who)") }
            }
        } else if let services = json as? [String: Any] {
            for service in ["webcredentials", "appclips", "activitycontinuation"] {
                let apps = (services[service] as? [String: Any])?["apps"] as? [String] ?? []
                parties.formUnion(apps.map { "\(service) \($0)" })
            }
        }
        return parties
    }

    /// The seven kinds of statement list the issue names: a web site granted credentials beside
    /// two apps (minid.no), three packages, and credentials shared with two apps; each import
    /// builds a file granting exactly what the original granted.
    @Test(
        .enabled(if: RepositoryPaths.sharedCorpus != nil, Comment(rawValue: RepositoryPaths.sharedCorpusMissing)),
        arguments: [
            "felleslosninger__minid.no__static_.well-known_assetlinks.json",
            "coopcycle__coopcycle-website__static_.well-known_assetlinks.json",
            "hackers-pub__hackerspub__web_static_.well-known_assetlinks.json",
        ])
    func everyAssetLinksStatementIsBuiltAgain(_ name: String) throws {
        let original = try #require(RepositoryPaths.sharedCorpus).appendingPathComponent("assetlinks/\(name)")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let imported = try runLinkwright(
            ["import", "--assetlinks", original.path, "--host", "example.com", "--env", "production"], in: folder.url)
        #expect(imported.status == 0, "\(imported)")
        #expect(try runLinkwright(["build"], in: folder.url).status == 0)
        let built = folder.url.appendingPathComponent("dist/production/example.com/.well-known/assetlinks.json")
        #expect(try Self.parties(built) == Self.parties(original))
        if name.contains("minid") {
            #expect(
                try folder.read("domains/example.yaml").contains(
                    "asset_statements:\n  - relation: [delegate_permission/common.get_login_creds]\n    site: \"https://minid.no\"\n"
                ))
        }
    }

    /// Relations the configuration has no other word for, and every AASA service, survive the
    /// round trip; an AASA key that is no service and an include statement are refused where
    /// they are written, and nothing is written.
    @Test func servicesAndStatementsAreCarriedOrRefusedWhereWritten() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let fingerprint =
            "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"
        try folder.write(
            "served/apple-app-site-association",
            """
            {"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.shop"], "components": [{"/": "/p/*"}]}]},
             "webcredentials": {"apps": ["ABCDE12345.com.example.shop", "ABCDE12345.com.example.wallet"]},
             "appclips": {"apps": ["ABCDE12345.com.example.shop.Clip"]},
             "activitycontinuation": {"apps": ["ABCDE12345.com.example.reader"]}}

            """)
        try folder.write(
            "served/assetlinks.json",
            """
            [{"relation": ["delegate_permission/common.handle_all_urls", "delegate_permission/common.use_as_origin"],
              "target": {"namespace": "android_app", "package_name": "com.example.shop", "sha256_cert_fingerprints": ["\(fingerprint)"]}},
             {"relation": ["delegate_permission/common.get_login_creds"],
              "target": {"namespace": "android_app", "package_name": "com.example.keys", "sha256_cert_fingerprints": ["\(fingerprint)"]}},
             {"relation": ["delegate_permission/common.get_login_creds"], "target": {"namespace": "web", "site": "https://accounts.example"}}]

            """)
        let imported = try runLinkwright(
            [
                "import", "--aasa", "served/apple-app-site-association", "--assetlinks", "served/assetlinks.json",
                "--host", "shop.example", "--env", "production",
            ], in: folder.url)
        #expect(imported.status == 0, "\(imported)")
        #expect(try runLinkwright(["build"], in: folder.url).status == 0)
        for file in ["apple-app-site-association", "assetlinks.json"] {
            let built = folder.url.appendingPathComponent("dist/production/shop.example/.well-known/\(file)")
            let parties = try Self.parties(built)
            #expect(parties == (try Self.parties(folder.url.appendingPathComponent("served/\(file)"))), "\(file)")
            #expect(!parties.isEmpty)
        }

        try folder.write(
            "refused/aasa",
            "{\"applinks\": {\"details\": []},\n \"webcredentails\": {\"apps\": [\"ABCDE12345.com.example.shop\"]}}\n")
        try folder.write(
            "refused/assetlinks.json", "[{\"include\": \"https://example.com/.well-known/more.json\"}]\n")
        let refused = try runLinkwright(
            [
                "import", "--aasa", "refused/aasa", "--assetlinks", "refused/assetlinks.json", "--host",
                "other.example",
                "--env", "other",
            ], in: folder.url)
        #expect(refused.status == 2, "\(refused)")
        #expect(
            refused.stderr.contains(
                "refused/aasa:2:2: error: \"webcredentails\" is no service of an apple-app-site-association file"),
            "\(refused)")
        #expect(
            refused.stderr.contains(
                "refused/assetlinks.json:1:2: error: the include of \"https://example.com/.well-known/more.json\" cannot be carried"
            ),
            "\(refused)")
        #expect(!folder.exists("environments/other.yaml"))
    }

    /// `--config` may name a folder that does not exist yet: the import starts a configuration
    /// there, as init does, and build finds it.
    @Test func aNewConfigurationFolderIsCreated() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let result = try runLinkwright(
            [
                "import", "--aasa", Self.fixtures.appendingPathComponent("legacy.json").path, "--host", "news.example",
                "--env", "production", "--config", "links/config",
            ], in: folder.url)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("imported 1 host into links/config/environments/production.yaml"), "\(result)")
        #expect(folder.exists("links/config/domains/news.yaml"))
        #expect(try runLinkwright(["build", "--config", "links/config"], in: folder.url).status == 0)
    }

    @Test func invalidInputsWriteNothing() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(
            "bad/apple-app-site-association",
            "{\"applinks\": {\"details\": [{\"appIDs\": [\"$(TeamIdentifierPrefix)com.example.app\"], \"components\": [{\"/\": \"*\"}]}]}}\n"
        )
        try folder.write("broken/apple-app-site-association", "{\"applinks\": \n")
        let placeholder = try runLinkwright(
            ["import", "--aasa", "bad/apple-app-site-association", "--host", "a.example", "--env", "production"],
            in: folder.url)
        #expect(placeholder.status == 2)
        #expect(
            placeholder.stderr.contains(
                "bad/apple-app-site-association:1:27: error: $(TeamIdentifierPrefix)com.example.app cannot be imported"),
            "\(placeholder)")
        let broken = try runLinkwright(
            ["import", "--aasa", "broken/apple-app-site-association", "--host", "a.example", "--env", "production"],
            in: folder.url)
        #expect(broken.status == 2)
        #expect(broken.stderr.contains("broken/apple-app-site-association:2:1: error: "), "\(broken)")
        #expect(broken.stderr.contains("[INVALID_JSON]"))
        #expect(!folder.exists("environments") && !folder.exists("domains"))
    }

    /// An existing environment keeps its text: the new app and host are added at the end of its
    /// `apps:` and `hosts:`; a host it serves already is refused and nothing is written.
    @Test func hostsAreAddedToAnExistingEnvironment() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.copyExampleConfiguration()
        try importNewsIntoProduction(folder, domain: "news", lineBreak: "\n")
        let after = try folder.read("environments/production.yaml")
        #expect(try runLinkwright(["lint"], in: folder.url).status == 0)
        #expect(try runLinkwright(["test"], in: folder.url).status == 0)

        let served = try runLinkwright(
            [
                "import", "--aasa", Self.fixtures.appendingPathComponent("legacy.json").path, "--host", "museo.example",
                "--env", "production",
            ],
            in: folder.url)
        #expect(served.status == 2)
        #expect(
            served.stderr.contains(
                "environments/production.yaml:88:3: error: museo.example is already served by domain museo in environment production [IMPORT_CONFLICT]"
            ), "\(served)")
        #expect(try folder.read("environments/production.yaml") == after, "a refused import writes nothing")
    }

    /// An environment file saved on Windows (CR LF) is edited where libyaml placed its nodes,
    /// and every line it gains ends with CR LF; a domain file of the same name already there
    /// sends the new host to the renamed contract.
    @Test func anEnvironmentWithWindowsLineBreaksKeepsThem() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.copyExampleConfiguration()
        let windows = try folder.read("environments/production.yaml").replacingOccurrences(of: "\n", with: "\r\n")
        try folder.write("environments/production.yaml", windows)
        try folder.write("domains/news.yaml", "applinks:\n  - apps: [museo]\n    rules:\n      - path: /other/*\n")
        let result = try importNewsIntoProduction(folder, domain: "news-2", lineBreak: "\r\n")
        #expect(result.stdout.contains("domains/news-2.yaml"), "\(result)")
        #expect(try runLinkwright(["test"], in: folder.url).status == 0)
    }

    /// Imports `legacy.json` for news.example into production, and checks that the environment
    /// gained the app and the host, bound to `domain`, in lines ending with `lineBreak`, and
    /// nothing else.
    @discardableResult
    private func importNewsIntoProduction(_ folder: TemporaryFolder, domain: String, lineBreak: String) throws
        -> ProcessResult
    {
        let before = try folder.read("environments/production.yaml")
        let result = try runLinkwright(
            [
                "import", "--aasa", Self.fixtures.appendingPathComponent("legacy.json").path, "--host", "news.example",
                "--env", "production",
            ],
            in: folder.url)
        #expect(result.status == 0, "\(result)")
        let after = try folder.read("environments/production.yaml")
        let app = ["", "  news:", "    ios:", "      bundle_id: com.example.news", "      team_id: ABCDE12345"]
            .joined(separator: lineBreak)
        let host = lineBreak + "  news.example: " + domain
        #expect(after.contains(app + lineBreak + "hosts:") && after.hasSuffix(host + lineBreak), "\(after)")
        #expect(
            after.replacingOccurrences(of: app, with: "").replacingOccurrences(of: host, with: "") == before,
            "everything else is as it was")
        return result
    }

    /// A real site's file (firefly.social's, 11 rules and an exclusion on a fragment): the import
    /// pins each rule with a URL written from its own text, `test` passes on the result, and fails
    /// once a rule no longer decides what it did.
    @Test(
        .enabled(if: RepositoryPaths.sharedCorpus != nil, Comment(rawValue: RepositoryPaths.sharedCorpusMissing)))
    func anImportedSitePassesTestUntilARuleChanges() throws {
        let corpus = try #require(RepositoryPaths.sharedCorpus)
        let original = corpus.appendingPathComponent(
            "aasa/Adophlidu__firefly.social__public_.well-known_apple-app-site-association")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let imported = try runLinkwright(
            ["import", "--aasa", original.path, "--host", "firefly.social", "--env", "production"], in: folder.url)
        #expect(imported.status == 0, "\(imported)")
        #expect(imported.stdout.contains("with 12 expectations that pin what they decide today"), "\(imported)")
        let domain = try folder.read("domains/firefly.yaml")
        #expect(domain.hasPrefix("# yaml-language-server: $schema=../docs/schema/domain.schema.json\n"))
        #expect(
            try folder.read("environments/production.yaml").hasPrefix(
                "# yaml-language-server: $schema=../docs/schema/environment.schema.json\n"))
        #expect(domain.contains("  - url: \"/example#no_universal_links\"\n    opens_web: true\n"))
        #expect(
            domain.contains(
                "  - url: /login/desktop/example\n    opens_app: mask\n    comment: pins the rule /login/desktop/*\n"
            ))
        let passing = try runLinkwright(["test"], in: folder.url)
        #expect(passing.status == 0, "\(passing)")
        #expect(passing.stdout.hasPrefix("13 checks passed"), "\(passing)")

        try folder.write(
            "domains/firefly.yaml",
            domain.replacingOccurrences(
                of: "      - path: /nft/*\n        comment: Matches any URL with a path that starts with /nft/.\n"
                    + Self.unknownRoute, with: "      - path: /nft/*\n        exclude: true\n"))
        let failing = try runLinkwright(["test"], in: folder.url)
        #expect(failing.status == 1, "\(failing)")
        #expect(
            failing.stdout.contains("https://firefly.social/nft/example on ios in production: expected mask, got web"),
            "\(failing)")
    }

    /// Every real-world file of the shared corpus: valid ones import, build, and decide sample
    /// URLs exactly as the originals (checked through `match`, independently of the import's own
    /// proof); invalid ones are refused with a located error. Prints a summary.
    @Test(
        .enabled(if: RepositoryPaths.sharedCorpus != nil, Comment(rawValue: RepositoryPaths.sharedCorpusMissing)))
    func everyCorpusFileRoundTrips() throws {
        let corpus = try #require(RepositoryPaths.sharedCorpus)
        var imported = 0
        var rejected: [String: Int] = [:]
        var files: [(URL, String)] = []
        for (folder, option) in [("aasa", "--aasa"), ("assetlinks", "--assetlinks")] {
            let directory = corpus.appendingPathComponent(folder)
            files += try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted().map {
                (directory.appendingPathComponent($0), option)
            }
        }
        let history = corpus.appendingPathComponent("history")
        for repository in try FileManager.default.contentsOfDirectory(atPath: history.path).sorted() {
            let directory = history.appendingPathComponent(repository)
            for name in try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() {
                files.append(
                    (directory.appendingPathComponent(name), name.contains("assetlinks") ? "--assetlinks" : "--aasa"))
            }
        }
        for (file, option) in files {
            let folder = try TemporaryFolder()
            defer { folder.remove() }
            let result = try runLinkwright(
                ["import", option, file.path, "--host", "example.com", "--env", "corpus"], in: folder.url)
            guard result.status == 0 else {
                #expect(result.status == 2, "\(file.lastPathComponent): \(result)")
                let errors = result.stderr.split(separator: "\n").filter { $0.contains("error: ") && $0.hasSuffix("]") }
                #expect(
                    errors.allSatisfy { $0.hasPrefix(file.path + ":") || $0.hasPrefix("error: ") },
                    "\(file.lastPathComponent)")
                let id = errors.first.flatMap { $0.split(separator: "[").last?.dropLast() }.map(String.init) ?? "?"
                rejected[id, default: 0] += 1
                continue
            }
            imported += 1
            #expect(try runLinkwright(["build"], in: folder.url).status == 0, "\(file.lastPathComponent)")
            // The expectations the import seeded hold on what it wrote.
            let test = try runLinkwright(["test"], in: folder.url)
            #expect(test.status == 0, "\(file.lastPathComponent): \(test)")
            if option == "--aasa" { try expectSameDecisions(original: file, folder: folder) }
        }
        print(
            "corpus import: \(imported) imported; rejected: "
                + rejected.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", "))
        #expect(imported > 120)
    }

    /// Every path the original file mentions, filled in, decided by `match` on the original and on
    /// the built file for every app.
    private func expectSameDecisions(original: URL, folder: TemporaryFolder) throws {
        let built = "dist/corpus/example.com/.well-known/apple-app-site-association"
        guard folder.exists(built) else {
            // Only a file that opens no app may build none: one with services only.
            let document = AASAReader().read(Array(try Data(contentsOf: original)), file: original.path).document
            #expect(
                document.map { CompiledAASA($0).appIDs.isEmpty } ?? true,
                "\(original.lastPathComponent) opens apps, but its import built no apple-app-site-association")
            return
        }
        let text = String(decoding: try Data(contentsOf: original), as: UTF8.self)
        var urls: Set<String> = ["/", "/x", "/a/b/c"]
        for piece in text.split(separator: "\"") where piece.hasPrefix("/") || piece.hasPrefix("NOT /") {
            let path = piece.hasPrefix("NOT ") ? piece.dropFirst(4) : piece
            urls.insert(path.replacingOccurrences(of: "*", with: "").replacingOccurrences(of: "?", with: "x"))
            urls.insert(path.replacingOccurrences(of: "*", with: "more/x").replacingOccurrences(of: "?", with: "y"))
        }
        let input = urls.sorted().filter { !$0.contains(" ") && !$0.contains("$(") }.joined(separator: "\n")
        func decisions(_ file: String) throws -> [String] {
            let result = try runLinkwright(
                ["match", "--aasa", file, "--host", "example.com", "--format", "json"], in: folder.url,
                input: Data(input.utf8))
            return result.stdout.split(separator: "\n").compactMap { line in
                guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                    return nil
                }
                return "\(object["url"] ?? "") \(object["app"] ?? "") \(object["decision"] ?? "")"
            }.sorted()
        }
        let before = try decisions(original.path)
        let after = try decisions(folder.url.appendingPathComponent(built).path)
        // The built file lists only apps that have rules; compare those.
        let builtApps = Set(after.map { $0.split(separator: " ")[1] })
        #expect(
            before.filter { builtApps.contains($0.split(separator: " ")[1]) } == after, "\(original.lastPathComponent)")
    }
}
