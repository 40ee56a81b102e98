import Foundation
import LinkwrightTestSupport
import Testing

/// A small shop configuration, committed in repositories the tests build with the git CLI.
enum ShopConfiguration {
    static let fingerprint =
        "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"

    static let production = """
        tier: production
        team_id: ABCDE12345
        apps:
          shop:
            ios:
              bundle_id: com.example.shop
            android:
              package: com.example.shop
              fingerprints:
                play-signing: "\(fingerprint)"
        hosts:
          shop.example: shop

        """

    static let domain = """
        applinks:
          - apps: [shop]
            rules:
              - path: /admin/*
                exclude: true
              - path: /products/*
        emit:
          android_dynamic_rules: true
        expectations:
          - url: /products/42
            opens_app: shop

        """

    static func files(in folder: String = "") -> [String: String?] {
        let prefix = folder.isEmpty ? "" : folder + "/"
        return [prefix + "environments/production.yaml": production, prefix + "domains/shop.yaml": domain]
    }
}

/// `linkwright check` and `diff` on real repositories made in temporary folders.
@Suite struct CheckCommandTests {
    let fixture: GitFixture

    init() throws {
        fixture = try GitFixture()
        try fixture.commit("Add the shop's link contract", ShopConfiguration.files())
    }

    /// Runs linkwright in `directory` (the repository by default) away from the machine's git config.
    func linkwright(_ arguments: [String], in directory: String? = nil) throws -> ProcessResult {
        try runLinkwright(
            arguments, in: URL(fileURLWithPath: directory ?? fixture.repository),
            environment: ["HOME": fixture.folder, "XDG_CONFIG_HOME": fixture.folder, "GIT_CONFIG_NOSYSTEM": "1"])
    }

    /// A branch whose commit drops the Android app from production.
    private func retireTheAndroidApp() throws {
        try fixture.git("checkout", "-q", "-b", "retire")
        try fixture.commit(
            "Retire the Android app",
            [
                "environments/production.yaml": ShopConfiguration.production.replacingOccurrences(
                    of:
                        "    android:\n      package: com.example.shop\n      fingerprints:\n        play-signing: \"\(ShopConfiguration.fingerprint)\"\n",
                    with: "")
            ])
    }

    @Test func removingTheProductionAppBlocksUntilApproved() throws {
        try retireTheAndroidApp()
        let blocked = try linkwright(["check", "--against", "main"])
        #expect(blocked.status == 1, "\(blocked)")
        #expect(
            blocked.stdout.hasPrefix(
                "environments/production.yaml:8:3: error: shop.example in production no longer serves the Android package com.example.shop [PRODUCTION_APP_REMOVED]\n"
            ))
        let fingerprint = try #require(
            blocked.stdout.split(separator: "\n").first { $0.hasPrefix("  fingerprint: ") }?.dropFirst(15))
        try fixture.commit(
            "Approve retiring the Android app",
            [
                "policies/approvals.yaml":
                    "approvals:\n  - finding: \(fingerprint)\n    reason: Android app retired (TICKET-7)\n"
            ])
        let approved = try linkwright(["check", "--against", "main"])
        #expect(approved.status == 0, "\(approved)")
        #expect(approved.stdout.contains("note: approved (Android app retired (TICKET-7)): shop.example in production"))
    }

    /// On a terminal check colours as lint does: the place bold, the severity in its colour,
    /// the labels dim; piped, and with NO_COLOR, it prints no escape at all.
    @Test func colourOnATerminalAsLintHas() throws {
        try retireTheAndroidApp()
        let binary = RepositoryPaths.products.appendingPathComponent("linkwright").path
        let environment = ["HOME": fixture.folder, "XDG_CONFIG_HOME": fixture.folder, "GIT_CONFIG_NOSYSTEM": "1"]
        let terminal = try runProcess(
            URL(fileURLWithPath: "/usr/bin/script"), ["-qec", "\(binary) check --against main", "/dev/null"],
            in: URL(fileURLWithPath: fixture.repository), environment: environment)
        #expect(
            terminal.stdout.contains(
                "\u{1B}[1menvironments/production.yaml:8:3:\u{1B}[0m \u{1B}[1;31merror:\u{1B}[0m shop.example in production"
            ),
            "\(terminal)")
        #expect(terminal.stdout.contains("  \u{1B}[2mfingerprint:\u{1B}[0m "), "\(terminal)")
        let piped = try linkwright(["check", "--against", "main"])
        #expect(piped.status == 1 && !piped.stdout.contains("\u{1B}["), "\(piped)")
        let noColor = try runProcess(
            URL(fileURLWithPath: "/usr/bin/script"), ["-qec", "\(binary) check --against main", "/dev/null"],
            in: URL(fileURLWithPath: fixture.repository), environment: environment.merging(["NO_COLOR": "1"]) { $1 })
        #expect(!noColor.stdout.contains("\u{1B}["), "\(noColor)")
    }

    /// The reproduction of issue 12: an exclusion moved from the top to the end of ordinary
    /// rules opens URLs its suffix rules match. One finding, at the exclusion's new line.
    @Test func anExclusionMovedBelowSuffixRulesBlocksWithRealWitnesses() throws {
        let rules = [
            "/event485/*", "/help748/* !", "\"*/ticket733\"", "/cart908/* !", "\"*/search172\"", "\"*/help223\"",
            "/ticket132/cart400", "/store82/promo411", "/legal284/order884", "\"*/search699\"", "/cart980/item84",
            "/news154/live238", "/shop496/*/detail/????", "/news269/* !", "\"*/legal378\"", "/api579/* !",
            "/item707/*/detail/????",
        ].map { rule in
            rule.hasSuffix(" !")
                ? "      - path: \(rule.dropLast(2))\n        exclude: true\n" : "      - path: \(rule)\n"
        }.joined()
        let moved = "      - path: /product584/*\n        exclude: true\n"
        let environment =
            "tier: production\nteam_id: ABCDE12345\napps:\n  example:\n    ios: {bundle_id: com.example.app}\n"
            + "hosts:\n  example.com: example\n"
        let domain = { (rules: String) in "applinks:\n  - apps: [example]\n    rules:\n" + rules }
        try fixture.commit(
            "Replace the shop with the example",
            [
                "environments/production.yaml": environment, "domains/shop.yaml": nil,
                "domains/example.yaml": domain(moved + rules),
            ])
        try fixture.write(["domains/example.yaml": domain(rules + moved)])
        let result = try linkwright(["check", "--against", "HEAD"])
        #expect(result.status == 1, "\(result)")
        let lines = result.stdout.split(separator: "\n")
        #expect(
            lines.first.map(String.init)
                == "domains/example.yaml:25:9: error: URLs the exclusion /product584/* kept on the web now open an app "
                + "(production: example.com (ios); app ABCDE12345.com.example.app) [EXCLUSION_REORDERED]")
        #expect(lines.filter { $0.hasSuffix("[EXCLUSION_REORDERED]") }.count == 1)
        #expect(lines.contains("  witness: https://example.com/product584/ticket733"))
        let json = try linkwright(["check", "--against", "HEAD", "--format", "json"])
        #expect(json.stdout.contains("\"https://example.com/product584/ticket733\""))
        #expect(json.stdout.contains("\"unproven\": []"))
        #expect(!json.stdout.contains("\"exact\": false"))
    }

    /// A budget too small to settle a change fails safe: a blocking finding and the unsettled
    /// rule pair named in text and JSON.
    @Test func anUnprovenChangeIsReportedAndBlocks() throws {
        let wildcards = "*/" + "abcdefghijklmnopqrstuvwxyz".map(String.init).joined(separator: "*")
        try fixture.write([
            "domains/shop.yaml": ShopConfiguration.domain.replacingOccurrences(
                of: "      - path: /admin/*\n", with: "      - path: \"\(wildcards)\"\n      - path: /admin/*\n"),
            "policies/budget.yaml": "proof_budget:\n  region_steps: 1000\n  total_steps: 1000\n",
        ])
        let result = try linkwright(["check", "--against", "HEAD"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("[BEHAVIOUR_UNPROVEN]"))
        #expect(result.stdout.contains("not proven within the work budget (these URLs may change too):"))
        #expect(
            result.stdout.contains(
                "  production shop.example ios: 2 rule pairs not proven for ABCDE12345.com.example.shop, the first: "
                    + "URLs the base decides with /admin/* (exclude) and the head with \(wildcards)"), "\(result)")
        #expect(result.stdout.contains("not proven within the work budget: 11 rule pairs, the first: "))
        let json = try linkwright(["check", "--against", "HEAD", "--format", "json"])
        #expect(json.stdout.contains("\"base_rule\": \"/admin/* (exclude)\""), "\(json)")
        // One finding per app, host and platform, however many pairs are left there; every
        // pair is still listed in `unproven`.
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], "\(json)")
        let findings = report["findings"] as? [[String: Any]] ?? []
        #expect(findings.filter { $0["rule"] as? String == "BEHAVIOUR_UNPROVEN" }.count == 2, "\(findings)")
        #expect((report["unproven"] as? [Any])?.count == 13)
    }

    /// `café` respelt from NFD (`e` + U+0301) to NFC (`é`), in a path and in a query item's
    /// name: Swift's String equality holds the two equal, but their bytes differ, and so do the
    /// URLs each matches. The check finds the URLs that gain the app and those that lose it,
    /// each decided by its own spelling.
    @Test(arguments: [
        "      - path: \"/cafe\u{301}/*\"\n",
        "      - path: /q\n        query:\n          \"cafe\u{301}\": \"?*\"\n",
    ])
    func aRuleRespeltInAnotherUnicodeNormalizationChangesBehaviour(_ rule: String) throws {
        let (decomposed, composed) = ("cafe\u{301}", "caf\u{E9}")
        let domain = ShopConfiguration.domain.replacingOccurrences(
            of: "      - path: /products/*\n", with: rule + "      - path: /products/*\n")
        try fixture.commit("Add the café", ["domains/shop.yaml": domain])
        try fixture.commit(
            "Respell it", ["domains/shop.yaml": domain.replacingOccurrences(of: decomposed, with: composed)])
        // The working tree against its base, and two committed revisions read through one
        // cache, which must not take the respelt domain for the one it was.
        for head in [[], ["--head", "HEAD"]] {
            let result = try linkwright(["check", "--against", "HEAD~1", "--format", "json"] + head)
            #expect(result.status == 0, "\(result)")
            let report = try #require(
                try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            let changes = try #require(report["changes"] as? [[String: Any]])
            let byKind = Dictionary(grouping: changes.filter { $0["platform"] as? String == "ios" }) {
                $0["kind"] as? String ?? ""
            }
            // Whether the first witness of `kind` holds `spelling`'s bytes.
            let witness = { (kind: String, spelling: String) in
                let url = (byKind[kind]?.first?["witnesses"] as? [String])?.first ?? ""
                return Array(url.utf8).firstRange(of: Array(spelling.utf8)) != nil
            }
            #expect(witness("opens_app", composed) && !witness("opens_app", decomposed), "\(head): \(changes)")
            #expect(witness("opens_web", decomposed) && !witness("opens_web", composed), "\(head): \(changes)")
        }
    }

    /// The example's production drops `*.museo.example` while `museo.example` keeps its files:
    /// every subdomain's links go to the browser, which blocks with URLs on `www.museo.example`.
    @Test func droppingTheExamplesProductionWildcardBlocksWithWitnesses() throws {
        let example = try GitFixture()
        var files: [String: String?] = [:]
        for folder in ["environments", "domains", "policies"] {
            let url = RepositoryPaths.root.appendingPathComponent(folder)
            for name in try FileManager.default.contentsOfDirectory(atPath: url.path) {
                files[folder + "/" + name] = try String(contentsOf: url.appendingPathComponent(name), encoding: .utf8)
            }
        }
        try example.commit("The example configuration", files)
        let production = try #require(files["environments/production.yaml"] ?? nil)
        let binding = "  \"*.museo.example\": museo\n"
        #expect(production.contains(binding))
        try example.write(["environments/production.yaml": production.replacingOccurrences(of: binding, with: "")])
        let result = try runLinkwright(
            ["check", "--against", "HEAD"], in: URL(fileURLWithPath: example.repository),
            environment: ["HOME": example.folder, "XDG_CONFIG_HOME": example.folder])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("*.museo.example in production no longer serves"), "\(result)")
        #expect(result.stdout.contains("[PRODUCTION_APP_REMOVED]"))
        #expect(result.stdout.contains("witness: https://www.museo.example/exhibitions"), "\(result)")
        #expect(result.stdout.contains("no longer opens com.example.museo"))
    }

    @Test func aSafeChangePasses() throws {
        try fixture.write([
            "domains/shop.yaml": ShopConfiguration.domain.replacingOccurrences(
                of: "      - path: /products/*\n", with: "      - path: /products/*\n      - path: /offers/*\n")
        ])
        let result = try linkwright(["check", "--against", "HEAD"])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.stdout.contains("rule added for ABCDE12345.com.example.shop: /offers/*"),
            "uncommitted edits are seen")
    }

    @Test func aPureRefactorChangesNothing() throws {
        // Renaming the domain file and writing a default out changes no compiled byte.
        try fixture.write([
            "domains/shop.yaml": nil,
            "domains/store.yaml": "defaults:\n  case_sensitive: true\n" + ShopConfiguration.domain,
            "environments/production.yaml": ShopConfiguration.production.replacingOccurrences(
                of: "shop.example: shop", with: "shop.example: store"),
        ])
        let diff = try linkwright(["diff"])
        #expect(diff.status == 0)
        #expect(!diff.stdout.contains("changes:"), "\(diff)")
        #expect(try linkwright(["check", "--against", "HEAD"]).status == 0)
    }

    @Test func aShallowCloneIsExplained() throws {
        let clone = fixture.folder + "/shallow"
        try fixture.git("clone", "-q", "--depth", "1", "file://" + fixture.repository, clone, in: fixture.folder)
        let result = try linkwright(["check", "--against", "origin/main"], in: clone)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("error: this repository is a shallow clone"))
        #expect(result.stderr.contains("git fetch --unshallow"))
        #expect(result.stderr.contains("fetch-depth: 0"))
        // Without a merge-base no history is needed.
        #expect(try linkwright(["check", "--against", "origin/main", "--no-merge-base"], in: clone).status == 0)
    }

    @Test func anUnknownRevisionIsAnInputError() throws {
        let result = try linkwright(["check", "--against", "mian"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("error: unknown revision 'mian'"))
    }

    @Test func aBranchOnlyPresentAsARemoteBranchIsNamed() throws {
        try fixture.git("branch", "release")
        let clone = fixture.folder + "/clone"
        try fixture.git("clone", "-q", fixture.repository, clone, in: fixture.folder)
        let result = try linkwright(["check", "--against", "release"], in: clone)
        #expect(result.status == 2)
        #expect(result.stderr.contains("origin/release"), "\(result)")
        #expect(try linkwright(["check", "--against", "origin/release"], in: clone).status == 0)
    }

    @Test func anAnnotatedTagIsABase() throws {
        try fixture.git("tag", "-a", "v1.0", "-m", "first release")
        try fixture.commit("Add offers", ["domains/shop.yaml": ShopConfiguration.domain + ""])
        let result = try linkwright(["diff", "v1.0", "HEAD"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("against v1.0 ("))
    }

    @Test func theConfigurationMayLiveInASubfolder() throws {
        try fixture.commit(
            "Move the configuration",
            ShopConfiguration.files(in: "links").merging(
                ShopConfiguration.files().mapValues { _ in nil }
            ) { first, _ in first })
        try fixture.write([
            "links/environments/production.yaml": ShopConfiguration.production.replacingOccurrences(
                of: "  shop.example: shop\n", with: "  shop.example: shop\n  store.example: shop\n")
        ])
        let result = try linkwright(["check", "--against", "HEAD", "--config", "links"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("production store.example: host added"))
    }

    @Test func aConfigurationAbsentAtTheBaseIsAllNew() throws {
        let empty = try GitFixture()
        try empty.commit("Start", ["README.md": "shop\n"])
        try empty.write(ShopConfiguration.files())
        let result = try runLinkwright(
            ["check", "--against", "HEAD"], in: URL(fileURLWithPath: empty.repository),
            environment: ["HOME": empty.folder, "XDG_CONFIG_HOME": empty.folder])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("note: no configuration at merge-base of HEAD and HEAD"))
        #expect(result.stdout.contains("everything is new"))
    }

    @Test func notARepositoryIsExplained() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.copyExampleConfiguration()
        let result = try runLinkwright(["check", "--against", "main"], in: folder.url)
        #expect(result.status == 2)
        #expect(result.stderr.contains("is not inside a git repository"))
    }
}
