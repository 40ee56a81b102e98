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

    @Test func removingTheProductionAppBlocksUntilApproved() throws {
        try fixture.git("checkout", "-q", "-b", "retire")
        try fixture.commit(
            "Retire the Android app",
            [
                "environments/production.yaml": ShopConfiguration.production.replacingOccurrences(
                    of:
                        "    android:\n      package: com.example.shop\n      fingerprints:\n        play-signing: \"\(ShopConfiguration.fingerprint)\"\n",
                    with: "")
            ])
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
