import Foundation
import LinkwrightTestSupport
import Testing

/// `linkwright promote` on a repository holding the example configuration.
@Suite struct PromoteCommandTests {
    static let golden = RepositoryPaths.root.appendingPathComponent("Tests/LinkwrightEndToEndTests/Golden/promote")

    let fixture: GitFixture

    init() throws {
        fixture = try GitFixture()
        try fixture.commit("The example configuration", try GitFixture.exampleFiles())
    }

    private func linkwright(_ arguments: [String]) throws -> ProcessResult {
        try runLinkwright(
            arguments, in: URL(fileURLWithPath: fixture.repository),
            environment: ["HOME": fixture.folder, "XDG_CONFIG_HOME": fixture.folder])
    }

    private func read(_ path: String) throws -> String {
        try String(contentsOfFile: fixture.repository + "/" + path, encoding: .utf8)
    }

    @Test func promotesAStagingRuleWithMinimalEditsAndCommitsThePlan() throws {
        let plan = try linkwright(["promote", "staging", "production"])
        #expect(plan.status == 0, "\(plan)")
        #expect(
            plan.stdout.hasPrefix(
                "promote staging → production\n  domains/museo.yaml:39:9: rule /preview/* now also in production\n"))
        #expect(plan.stdout.contains("not promoted: entitlements_mode developer (?mode=developer) stays in staging"))
        #expect(
            plan.stdout.contains(
                "production museo.example ios: now opens A1B2C3D4E5.com.example.museo at exhibitionPreview(slug: nil) instead of the web\n"
                    + "    e.g. https://museo.example/preview\n"))
        // A link only an older Android release gains names its destination too.
        #expect(
            plan.stdout.contains(
                "production museo.example android: now opens com.example.museo (Android 15-initial) at exhibitionPreview(slug: coleccion) instead of the web"
            ))
        // The plan alone writes nothing.
        #expect(try fixture.git("status", "--porcelain").isEmpty)

        let applied = try linkwright(["promote", "staging", "production", "--write", "--commit"])
        #expect(applied.status == 0, "\(applied)")
        #expect(applied.stdout.contains("wrote domains/museo.yaml\ncommitted "))
        if let mismatch = Golden.mismatch(
            try read("domains/museo.yaml"), golden: Self.golden.appendingPathComponent("museo.yaml"))
        {
            Issue.record(Comment(rawValue: mismatch))
        }
        let message = try fixture.git("log", "-1", "--format=%B")
        #expect(
            message.hasPrefix(
                "Promote staging link rules to production\n\n- domains/museo.yaml: rule /preview/* now also in production\n"
            ))
        #expect(
            message.contains(
                "Behaviour in production:\n- now opens A1B2C3D4E5.com.example.museo at exhibitionPreview(slug: nil) instead of the web"
            ))
        #expect(try fixture.git("status", "--porcelain").isEmpty)
        // Production keeps its own mode: nothing of staging's ?mode=developer arrives.
        #expect(try linkwright(["build", "--env", "production"]).status == 0)
        #expect(!(try read("dist/production/ios/museo.entitlements")).contains("mode="))
        #expect(try linkwright(["test"]).status == 0)
        // Promoting again finds nothing left to promote.
        let again = try linkwright(["promote", "staging", "production"])
        #expect(again.stdout.contains("no edit: production already has everything staging has"))
    }

    @Test func aDomainServedOnlyInStagingGetsAHostNamedLikeProductionsOthers() throws {
        try fixture.commit(
            "A blog, on staging only",
            [
                "domains/blog.yaml": "applinks:\n  - apps: [museo]\n    rules:\n      - path: /posts/*\n",
                "environments/staging.yaml": try read("environments/staging.yaml") + "  staging.blog.example: blog\n",
            ])
        let applied = try linkwright(["promote", "staging", "production", "--write"])
        #expect(applied.status == 0, "\(applied)")
        #expect(
            applied.stdout.contains(
                "blog.example serves domain blog in production (as staging.blog.example does in staging)"))
        if let mismatch = Golden.mismatch(
            try read("environments/production.yaml"), golden: Self.golden.appendingPathComponent("production.yaml"))
        {
            Issue.record(Comment(rawValue: mismatch))
        }
    }

    /// Files saved on Windows end their lines with CR LF, where libyaml counts one break: the
    /// edits land on the same lines as in the LF files (the golden file), and lines they add end
    /// with CR LF too.
    @Test func filesWithWindowsLineBreaksGetTheSameEdits() throws {
        let paths = ["domains/museo.yaml", "domains/emergencias.yaml", "environments/production.yaml"]
        var files: [String: String?] = [:]
        for path in paths { files[path] = try read(path).replacingOccurrences(of: "\n", with: "\r\n") }
        try fixture.commit("Saved on Windows", files)
        let applied = try linkwright(["promote", "staging", "production", "--write"])
        #expect(applied.status == 0, "\(applied)")
        #expect(applied.stdout.contains("wrote domains/museo.yaml\n"))
        let museo = try read("domains/museo.yaml")
        let golden = try String(contentsOf: Self.golden.appendingPathComponent("museo.yaml"), encoding: .utf8)
        #expect(museo == golden.replacingOccurrences(of: "\n", with: "\r\n"))
    }

    @Test func uncommittedEditsToAFileItWouldChangeStopIt() throws {
        try fixture.write(["domains/museo.yaml": try read("domains/museo.yaml") + "# a note in progress\n"])
        let result = try linkwright(["promote", "staging", "production", "--write"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("error: domains/museo.yaml has uncommitted changes; the promotion edits it"))
        #expect(try read("domains/museo.yaml").hasSuffix("# a note in progress\n"))
        #expect(!(try read("domains/museo.yaml")).contains("[staging, production]"))
    }

    /// --commit runs the user's git: the commit is signed where git signs (an SSH key here),
    /// dated by GIT_AUTHOR_DATE, and the repository's hooks run; a hook that refuses stops it,
    /// saying what the hook said and that the files are written, not committed.
    @Test func theCommitIsGitsOwnWithHooksSigningAndEnvironment() throws {
        let key = fixture.folder + "/signing"
        try fixture.shell("ssh-keygen -q -t ed25519 -N '' -C promote -f \(key)")
        try fixture.git("config", "gpg.format", "ssh")
        try fixture.git("config", "user.signingkey", key + ".pub")
        try fixture.git("config", "commit.gpgsign", "true")
        let hooks = fixture.repository + "/.git/hooks/"
        try "#!/bin/sh\nprintf '\\nTicket: LW-46\\n' >> \"$1\"\n".write(
            toFile: hooks + "commit-msg", atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: hooks + "commit-msg")
        let applied = try runLinkwright(
            ["promote", "staging", "production", "--write", "--commit"], in: URL(fileURLWithPath: fixture.repository),
            environment: [
                "HOME": fixture.folder, "XDG_CONFIG_HOME": fixture.folder, "GIT_AUTHOR_DATE": "2021-03-04T05:06:07Z",
            ])
        #expect(applied.status == 0, "\(applied)")
        #expect(try fixture.git("log", "-1", "--format=%aI") == "2021-03-04T05:06:07+00:00")
        #expect(try fixture.git("cat-file", "-p", "HEAD").contains("gpgsig -----BEGIN SSH SIGNATURE-----"))
        #expect(try fixture.git("log", "-1", "--format=%B").hasSuffix("\n\nTicket: LW-46\n"))

        try fixture.git("reset", "-q", "--hard", "HEAD~1")
        try "#!/bin/sh\necho 'DCO: Signed-off-by is missing' >&2\nexit 1\n".write(
            toFile: hooks + "commit-msg", atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: hooks + "commit-msg")
        let head = try fixture.git("rev-parse", "HEAD")
        let refused = try linkwright(["promote", "staging", "production", "--write", "--commit"])
        #expect(refused.status == 2, "\(refused)")
        #expect(refused.stderr.contains("error: git commit refused: DCO: Signed-off-by is missing"), "\(refused)")
        #expect(
            refused.stderr.contains("hint: the files are written and staged, not committed: do what git says"),
            "\(refused)")
        #expect(try fixture.git("rev-parse", "HEAD") == head)
    }

    /// A staging-only catch-all above the exclusion: promoting it opens /admin in production.
    private func commitAStagingCatchAll() throws {
        let domain = try read("domains/museo.yaml").replacingOccurrences(
            of: "  - apps: [museo]\n    rules:\n",
            with: "  - apps: [museo]\n    rules:\n      - path: \"*\"\n        environments: [staging]\n"
                + "        route: none\n        reason: the home screen\n")
        try fixture.commit("Everything opens on staging", ["domains/museo.yaml": domain])
    }

    @Test func aBlockingFindingStopsThePromotion() throws {
        try commitAStagingCatchAll()
        let result = try linkwright(["promote", "staging", "production", "--write"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("[EXCLUSION_REORDERED]"))
        #expect(result.stdout.contains("[FORBIDDEN_PATH]") || result.stdout.contains("[EXPECTATION_FAILED]"))
        #expect(result.stderr.contains("error: not written: the promotion is refused or has blocking findings"))
        #expect(try fixture.git("status", "--porcelain").isEmpty)
    }

    /// An approval's reason is pull-request text: with a line break it could end the promotion
    /// commit with `Signed-off-by:` or `Co-authored-by:` trailers git and GitHub act on.
    @Test func approvalReasonsCannotAddTrailersToTheCommit() throws {
        try commitAStagingCatchAll()
        let plan = try linkwright(["promote", "staging", "production", "--format", "json"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(plan.stdout.utf8)) as? [String: Any])
        let findings = try #require(json["findings"] as? [[String: Any]])
        let fingerprints = Set(
            findings.filter { $0["blocking"] as? Bool == true }.compactMap { $0["fingerprint"] as? String })
        #expect(!fingerprints.isEmpty)
        let approvals = fingerprints.sorted().map {
            "  - finding: \($0)\n    reason: \"fine\\n\\nSigned-off-by: Mallory <m@example.com>\\nCo-authored-by: Mallory <m@example.com> ![x](https://e.example/p.png) @octocat\"\n"
        }
        try fixture.commit(
            "Approve", ["policies/merge.yaml": try read("policies/merge.yaml") + "approvals:\n" + approvals.joined()])
        // In the markdown report (a pull-request comment, a job summary) the reason is a code span:
        // no image loads, no one is mentioned.
        let markdown = try linkwright(["promote", "staging", "production", "--format", "markdown"]).stdout
        #expect(
            markdown.contains(
                "Approved: `fine\\n\\nSigned-off-by: Mallory <m@example.com>\\nCo-authored-by: Mallory <m@example.com> ![x](https://e.example/p.png) @octocat`"
            ), "\(markdown)")
        let applied = try linkwright(["promote", "staging", "production", "--write", "--commit"])
        #expect(applied.status == 0, "\(applied)")
        #expect(try fixture.git("log", "-1", "--format=%(trailers)").isEmpty)
        let message = try fixture.git("log", "-1", "--format=%B")
        #expect(message.contains(": fine\\n\\nSigned-off-by: Mallory <m@example.com>\\nCo-authored-by:"), "\(message)")
    }

    @Test func anExpectationOnAStagingHostIsRefused() throws {
        let domain =
            try read("domains/emergencias.yaml")
            + "  - url: https://app.staging.emergencias.example/beta\n    opens_web: true\n    environments: [staging]\n"
        try fixture.commit("A staging-only expectation", ["domains/emergencias.yaml": domain])
        let result = try linkwright(["promote", "staging", "production"])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains(
                "is on app.staging.emergencias.example, a host of staging only; it cannot apply to production [PROMOTION_REFUSED]"
            ))
    }

    @Test func theCommitOfAPromotionCarriesTheRebuiltOutputSoBuildCheckPasses() throws {
        #expect(try linkwright(["build"]).status == 0)
        try fixture.commit("The generated files")
        let entitlementsBefore = try read("dist/production/ios/museo.entitlements")

        let applied = try linkwright(["promote", "staging", "production", "--write", "--commit"])
        #expect(applied.status == 0, "\(applied)")
        #expect(applied.stdout.contains("wrote domains/museo.yaml\nrebuilt dist: 0 created, "), "\(applied)")
        // The promotion's own commit: nothing left over, and the committed output is the build's.
        #expect(try fixture.git("status", "--porcelain").isEmpty)
        let changed = try fixture.git("show", "--name-only", "--format=", "HEAD").split(separator: "\n")
        #expect(changed.contains("domains/museo.yaml"))
        #expect(changed.contains("dist/.linkwright-manifest"))
        #expect(changed.contains { $0.hasPrefix("dist/production/") }, "\(changed)")
        let check = try linkwright(["build", "--check"])
        #expect(check.status == 0, "\(check)")
        // A fresh clone of the commit checks clean too: the files are in the commit, not only on disk.
        let clone = fixture.folder + "/clone"
        try fixture.git("clone", "-q", fixture.repository, clone, in: fixture.folder)
        let cloneCheck = try runLinkwright(["build", "--check"], in: URL(fileURLWithPath: clone))
        #expect(cloneCheck.status == 0, "\(cloneCheck)")
        #expect(try read("dist/production/ios/museo.entitlements") == entitlementsBefore)
    }

    @Test func anOutputFolderGitDoesNotTrackIsLeftAlone() throws {
        try fixture.commit("Generated files are deployed, not committed", [".gitignore": "dist/\n"])
        #expect(try linkwright(["build"]).status == 0)
        let manifest = try read("dist/.linkwright-manifest")
        let applied = try linkwright(["promote", "staging", "production", "--write", "--commit"])
        #expect(applied.status == 0, "\(applied)")
        #expect(!applied.stdout.contains("rebuilt"))
        #expect(try read("dist/.linkwright-manifest") == manifest)
        #expect(try fixture.git("show", "--name-only", "--format=", "HEAD") == "domains/museo.yaml")
    }
}
