import Foundation
import LinkwrightTestSupport
import Testing

/// What a configuration folder may hold, read from the working tree and from git alike: nothing
/// in it is skipped silently, a folder of very many names is refused after one listing, and the
/// time to read and validate it grows with its files, not with their square.
@Suite struct ConfigurationFolderTests {
    /// The example configuration committed in a fresh repository.
    private func exampleRepository() throws -> GitFixture {
        let fixture = try GitFixture()
        let example = RepositoryPaths.root.path
        _ = try fixture.shell("cp -R '\(example)/environments' '\(example)/domains' '\(example)/policies' repo/")
        _ = try fixture.commit("example")
        return fixture
    }

    /// `policies/merge.yaml` renamed to names that nearly match vanished with the policy, and
    /// `check` stopped blocking; each is now an error naming it, in the working tree and in a
    /// commit.
    @Test(arguments: ["merge.yaml ", "merge.YAML", "merge.yaml\u{200B}", "sub/merge.yaml"])
    func aNearMissOfAConfigurationFileNameIsAnError(_ name: String) throws {
        let fixture = try exampleRepository()
        let repository = URL(fileURLWithPath: fixture.repository)
        let folder = name.hasPrefix("sub/") ? "mkdir repo/policies/sub && " : ""
        _ = try fixture.shell(folder + "git -C repo mv policies/merge.yaml 'policies/\(name)'")
        _ = try fixture.commit("rename the policy")
        for arguments in [["lint"], ["check", "--head", "HEAD"]] {
            let result = try runLinkwright(arguments, in: repository, timeout: 60)
            #expect(result.status == 2, "\(arguments) \(result)")
            let shown = name.hasPrefix("sub/") ? "policies/sub" : "policies/\(name)"
            #expect(result.stderr.contains("[MISNAMED_FILE]"), "\(arguments) \(result)")
            #expect(result.stderr.contains("\(shown) is not read: it "), "\(arguments) \(result)")
        }
    }

    /// Hidden files and other names are still not configuration, and not errors.
    @Test func hiddenAndUnrelatedNamesAreLeftAlone() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.copyExampleConfiguration()
        _ = try folder.write("policies/.merge.yaml.swp", "x")
        _ = try folder.write("domains/README.md", "notes\n")
        _ = try folder.write("domains/museo.yaml~", "backup\n")
        let result = try runLinkwright(["lint"], in: folder.url, timeout: 60)
        #expect(result.status == 0, "\(result)")
    }

    /// A `domains/` tree of 100,001 names (one small blob, so a few megabytes of tree) is refused
    /// after listing it, naming the folder, instead of reading every file.
    @Test func aFolderOfTooManyEntriesIsRefusedAfterOneListing() throws {
        let fixture = try exampleRepository()
        let repository = URL(fileURLWithPath: fixture.repository)
        let blob = try fixture.shell("printf 'applinks: []\\n' | git -C repo hash-object -w --stdin")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let listing = (0...100_000).map { "100644 blob \(blob)\tdomains/d\($0).yaml\n" }.joined()
        try listing.write(toFile: fixture.folder + "/listing", atomically: true, encoding: .utf8)
        _ = try fixture.shell("git -C repo update-index --index-info < listing && git -C repo commit -qm many")
        let started = Date()
        let result = try runLinkwright(["check", "--head", "HEAD"], in: repository, timeout: 120)
        #expect(result.status == 2, "\(result)")
        #expect(
            result.stderr.contains("domains:1:1: error: domains/ holds 100003 entries, over the limit of 100000"),
            "\(result)")
        #expect(result.stderr.contains("[TOO_MANY_ENTRIES]"), "\(result)")
        #expect(Date().timeIntervalSince(started) < 60)
    }

    /// User processor time of `linkwright ARGUMENTS` in `folder`, in seconds.
    private func processorTime(_ arguments: [String], in folder: URL) throws -> Double {
        let binary = RepositoryPaths.products.appendingPathComponent("linkwright").path
        let result = try runProcess(
            URL(fileURLWithPath: "/bin/bash"),
            ["-c", "TIMEFORMAT=%U; time '\(binary)' \(arguments.joined(separator: " ")) > /dev/null 2>&1"],
            in: folder, timeout: 300)
        return Double(result.stderr.trimmingCharacters(in: .whitespacesAndNewlines)) ?? .infinity
    }

    /// A configuration of `count` one-rule domains, each on its own host, committed twice (one
    /// domain changed).
    private func manyDomains(_ count: Int) throws -> GitFixture {
        let fixture = try GitFixture()
        var files: [String: String?] = [
            "environments/production.yaml":
                "tier: production\nteam_id: A1B2C3D4E5\napps:\n  a:\n    ios: {bundle_id: com.example.a}\nhosts:\n"
                + (0..<count).map { "  h\($0).example: d\($0)\n" }.joined()
        ]
        for index in 0..<count {
            files["domains/d\(index).yaml"] = "applinks:\n  - apps: [a]\n    rules:\n      - path: /p/*\n"
        }
        _ = try fixture.commit("base", files)
        _ = try fixture.commit(
            "change", ["domains/d1.yaml": "applinks:\n  - apps: [a]\n    rules:\n      - path: /q/*\n"])
        return fixture
    }

    /// Validation rebuilt a set of every domain name once per domain, policy rules searched every
    /// host per site, and a revision's folder tree was inflated again for every file it holds:
    /// 8 times the files cost 30 times the time. Linear work costs at most 8 times (the fixed
    /// start-up cost makes it less); the bound of 16 leaves room for a busy machine.
    @Test func lintAndCheckGrowWithTheFilesNotTheirSquare() throws {
        let small = try manyDomains(500)
        let large = try manyDomains(4_000)
        for arguments in [["lint"], ["check", "--against", "HEAD~1", "--head", "HEAD"]] {
            let smallTime = try processorTime(arguments, in: URL(fileURLWithPath: small.repository))
            let largeTime = try processorTime(arguments, in: URL(fileURLWithPath: large.repository))
            #expect(largeTime / max(smallTime, 0.05) < 16, "\(arguments): \(smallTime) s, then \(largeTime) s")
        }
    }
}
