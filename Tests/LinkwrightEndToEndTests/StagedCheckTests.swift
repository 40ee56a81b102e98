import Foundation
import LinkwrightTestSupport
import Testing

/// `check --staged`, the pre-commit check: what the next commit records against HEAD, and the
/// documented hook (docs/examples/pre-commit) installed in a real repository.
@Suite struct StagedCheckTests {
    let fixture: GitFixture
    static let catchAll = ShopConfiguration.domain.replacingOccurrences(
        of: "      - path: /products/*\n", with: "      - path: \"*\"\n")

    init() throws { fixture = try GitFixture() }

    private var environment: [String: String] {
        [
            "HOME": fixture.folder, "XDG_CONFIG_HOME": fixture.folder, "GIT_CONFIG_NOSYSTEM": "1",
            "PATH": RepositoryPaths.products.path + ":"
                + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
        ]
    }

    private func linkwright(_ arguments: [String]) throws -> ProcessResult {
        try runLinkwright(arguments, in: URL(fileURLWithPath: fixture.repository), environment: environment)
    }

    @Test func aStagedCatchAllBlocksWhileTheWorkingTreeIsClean() throws {
        try fixture.commit("The shop's link contract", ShopConfiguration.files())
        try fixture.write(["domains/shop.yaml": Self.catchAll])
        try fixture.git("add", "domains/shop.yaml")
        // The working tree goes back to what HEAD has; the catch-all stays staged.
        try fixture.write(["domains/shop.yaml": ShopConfiguration.domain])

        let workingTree = try linkwright(["check", "--against", "HEAD", "--no-merge-base"])
        #expect(workingTree.status == 0, "\(workingTree)")
        let staged = try linkwright(["check", "--staged"])
        #expect(staged.status == 1, "\(staged)")
        #expect(
            staged.stdout.hasPrefix("domains/shop.yaml:6:9: error: "), "\(staged)")
        #expect(staged.stdout.contains("[CATCH_ALL_ADDED]"))
        let json = try linkwright(["check", "--staged", "--format", "json"])
        #expect(json.stdout.contains("\"the index\""), "\(json)")
    }

    @Test func anEditThatIsNotStagedIsNotSeen() throws {
        try fixture.commit("The shop's link contract", ShopConfiguration.files())
        try fixture.write(["domains/shop.yaml": Self.catchAll])
        let staged = try linkwright(["check", "--staged"])
        #expect(staged.status == 0, "\(staged)")
        #expect(try linkwright(["check", "--against", "HEAD", "--no-merge-base"]).status == 1)
        // Staged against another base: the merge-base of HEAD and that branch.
        try fixture.git("add", "-A")
        let against = try linkwright(["check", "--staged", "--against", "main"])
        #expect(against.status == 1, "\(against)")
    }

    @Test func theFirstCommitOfARepositoryIsAnAdoptionNotAnError() throws {
        try fixture.write(ShopConfiguration.files())
        try fixture.git("add", "-A")
        let staged = try linkwright(["check", "--staged"])
        #expect(staged.status == 0, "\(staged)")
        #expect(!staged.stderr.contains("unknown revision"))
        #expect(staged.stdout.contains("HEAD has no commit yet: everything is new"), "\(staged)")
        // The pre-commit framework's hook compares the working tree with HEAD: the same.
        let framework = try linkwright(["check", "--against", "HEAD", "--no-merge-base"])
        #expect(framework.status == 0, "\(framework)")
        let withMergeBase = try linkwright(["check", "--against", "HEAD"])
        #expect(withMergeBase.status == 0, "\(withMergeBase)")
    }

    @Test func theDocumentedHookBlocksAStagedCatchAllAndLetsTheFirstCommitThrough() throws {
        let hook = fixture.repository + "/.git/hooks/pre-commit"
        try FileManager.default.createDirectory(
            atPath: fixture.repository + "/.git/hooks", withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: RepositoryPaths.root.appendingPathComponent("docs/examples/pre-commit").path, toPath: hook)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: hook)

        try fixture.write(ShopConfiguration.files())
        try fixture.git("add", "-A")
        try fixture.git("commit", "-q", "-m", "first", environment: environment)
        try fixture.write(["domains/shop.yaml": Self.catchAll])
        try fixture.git("add", "-A")
        try fixture.write(["domains/shop.yaml": ShopConfiguration.domain])
        #expect(throws: GitCommandFailure.self) {
            try fixture.git("commit", "-q", "-m", "widen", environment: environment)
        }
        #expect(try fixture.git("rev-list", "--count", "HEAD") == "1")
    }

    /// The pre-commit framework runs the hook's `entry` from the repository's top.
    @Test func thePreCommitFrameworkHookBlocksAStagedCatchAll() throws {
        let hooks = try String(
            contentsOf: RepositoryPaths.root.appendingPathComponent(".pre-commit-hooks.yaml"), encoding: .utf8)
        let entry = try #require(hooks.split(separator: "\n").first { $0.hasPrefix("  entry: linkwright ") })
        let arguments = entry.dropFirst("  entry: linkwright ".count).split(separator: " ").map(String.init)
        try fixture.write(ShopConfiguration.files())
        try fixture.git("add", "-A")
        #expect(try linkwright(arguments).status == 0)
        try fixture.commit("first")
        try fixture.write(["domains/shop.yaml": Self.catchAll])
        try fixture.git("add", "-A")
        let blocked = try linkwright(arguments)
        #expect(blocked.status == 1, "\(blocked)")
    }

    @Test func stagedAndHeadChooseTheSameSide() throws {
        let both = try linkwright(["check", "--staged", "--head", "main"])
        #expect(both.status == 2)
        #expect(both.stderr.contains("--staged and --head REV each choose the head; give one"))
    }
}
