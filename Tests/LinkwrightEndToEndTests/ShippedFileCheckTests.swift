import Foundation
import LinkwrightCLI
import LinkwrightTestSupport
import Testing

/// The files that build, release and install linkwright elsewhere (the workflows run only on
/// GitHub, the formula only under Homebrew, the Dockerfile only with Docker), each checked here
/// by what can check it, and each check shown to bite on a broken copy. A missing checker skips
/// its test, saying how to install it.
@Suite struct ShippedFileCheckTests {
    static let root = RepositoryPaths.root
    static let install = "(scripts/install-deps.sh --for-tests installs it)"

    /// Every shell script of the repository: each file outside build folders that starts with a
    /// `sh` or `bash` line, so a script added later is checked without being listed.
    static let shellScripts: [String] = {
        let shells = ["#!/bin/sh\n", "#!/bin/bash\n", "#!/usr/bin/env sh\n", "#!/usr/bin/env bash\n"]
        var found: [String] = []
        let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
        while let file = files?.nextObject() as? URL {
            if [".build", ".git"].contains(file.lastPathComponent) {
                files?.skipDescendants()
                continue
            }
            guard let handle = try? FileHandle(forReadingFrom: file) else { continue }
            let start = (try? handle.read(upToCount: 24)) ?? Data()
            try? handle.close()
            if shells.contains(where: { start.starts(with: Data($0.utf8)) }) {
                found.append(String(file.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1)))
            }
        }
        return found.sorted()
    }()

    private func run(_ tool: String, _ arguments: [String]) throws -> ProcessResult {
        try runProcess(try #require(InstalledTool.path(tool)), arguments, in: Self.root)
    }

    /// `tool` refuses a copy of the repository's `path` with `original` replaced by `broken`:
    /// the check that passed the file bites.
    private func expectRefused(
        by tool: String, _ arguments: [String], copyOf path: String, replacing original: String, with broken: String
    ) throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
        #expect(text.contains(original), "\(path) no longer holds \(original)")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let copy = try folder.write(
            URL(fileURLWithPath: path).lastPathComponent, text.replacingOccurrences(of: original, with: broken))
        #expect(try run(tool, arguments + [copy.path]).status != 0)
    }

    @Test(.enabled(if: InstalledTool.path("shellcheck") != nil, "shellcheck is not installed \(install)"))
    func theShellScriptsPassShellcheck() throws {
        for script in ["scripts/release.sh", ".ci/run", "docs/examples/pre-commit", "scripts/compare-builds.sh"] {
            #expect(Self.shellScripts.contains(script), "\(script) was not found among \(Self.shellScripts)")
        }
        let result = try run("shellcheck", Self.shellScripts)
        #expect(result.status == 0, "\(result)")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let broken = try folder.write("broken.sh", "#!/bin/sh\nrm -rf $1/*\n")
        #expect(try run("shellcheck", [broken.path]).status != 0)
    }

    @Test(.enabled(if: InstalledTool.path("ruby") != nil, "ruby is not installed \(install)"))
    func theFormulaAndItsFilledInCopyAreRuby() throws {
        #expect(try run("ruby", ["-c", "Formula/linkwright.rb"]).status == 0)
        let filled = try run(
            "bash",
            ["scripts/fill-formula.sh", "Formula/linkwright.rb", "9.8.7", String(repeating: "ab", count: 32)])
        #expect(filled.status == 0, "\(filled)")
        #expect(
            filled.stdout.contains(#"url "https://github.com/linkwright/linkwright/archive/refs/tags/v9.8.7.tar.gz""#))
        #expect(filled.stdout.contains(#"sha256 "\#(String(repeating: "ab", count: 32))""#))
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let copy = try folder.write("linkwright.rb", filled.stdout)
        #expect(try run("ruby", ["-c", copy.path]).status == 0)
        let broken = try folder.write("broken.rb", filled.stdout.replacingOccurrences(of: "  end\nend", with: "end"))
        #expect(try run("ruby", ["-c", broken.path]).status != 0)
    }

    /// The formula builds from the tag of this version with its libraries as dependencies, and
    /// its test block runs linkwright.
    @Test func theFormulaBuildsThisVersionsTagWithItsLibraries() throws {
        let formula = try String(contentsOf: Self.root.appendingPathComponent("Formula/linkwright.rb"), encoding: .utf8)
        #expect(formula.contains("/archive/refs/tags/v\(LinkwrightCLI.version).tar.gz\""))
        for dependency in [#"depends_on "libgit2""#, #"depends_on "libyaml""#, #"uses_from_macos "curl""#] {
            #expect(formula.contains(dependency), "\(dependency)")
        }
        #expect(formula.contains("test do\n"))
        #expect(formula.contains(#"system bin/"linkwright", "build""#))
    }

    @Test(arguments: [["1.2", String(repeating: "a", count: 64)], ["1.2.3", "not-a-checksum"]])
    func fillFormulaRefusesWhatIsNotAVersionAndAChecksum(_ arguments: [String]) throws {
        let result = try runProcess(
            URL(fileURLWithPath: "/bin/bash"), ["scripts/fill-formula.sh", "Formula/linkwright.rb"] + arguments,
            in: Self.root)
        #expect(result.status == 2, "\(result)")
        #expect(result.stdout.isEmpty)
    }

    @Test(.enabled(if: InstalledTool.path("hadolint") != nil, "hadolint is not installed \(install)"))
    func theDockerfilePassesHadolint() throws {
        let result = try run("hadolint", ["Dockerfile"])
        #expect(result.status == 0, "\(result)")
        let dockerfile = try String(contentsOf: Self.root.appendingPathComponent("Dockerfile"), encoding: .utf8)
        // Non-root, the portable binary, linkwright as the entry point.
        #expect(dockerfile.contains("\nUSER 10001:10001\n"))
        #expect(dockerfile.contains("scripts/release.sh --build-only"))
        #expect(dockerfile.contains(#"ENTRYPOINT ["linkwright"]"#))
        try expectRefused(by: "hadolint", [], copyOf: "Dockerfile", replacing: "USER 10001:10001", with: "USER root")
    }

    @Test(.enabled(if: InstalledTool.path("check-jsonschema") != nil, "check-jsonschema is not installed \(install)"))
    func theGitLabExampleFollowsGitLabsSchema() throws {
        let result = try run(
            "check-jsonschema", ["--builtin-schema", "vendor.gitlab-ci", "docs/examples/gitlab-ci.yml"])
        #expect(result.status == 0, "\(result)")
        try expectRefused(
            by: "check-jsonschema", ["--builtin-schema", "vendor.gitlab-ci"], copyOf: "docs/examples/gitlab-ci.yml",
            replacing: "  script:\n", with: "  scripts:\n")
    }

    @Test(.enabled(if: InstalledTool.path("pre-commit") != nil, "pre-commit is not installed \(install)"))
    func theHookManifestAndTheExampleConfigurationArePreCommits() throws {
        #expect(try run("pre-commit", ["validate-manifest", ".pre-commit-hooks.yaml"]).status == 0)
        #expect(try run("pre-commit", ["validate-config", "docs/examples/pre-commit-config.yaml"]).status == 0)
        try expectRefused(
            by: "pre-commit", ["validate-manifest"], copyOf: ".pre-commit-hooks.yaml",
            replacing: "language: docker_image", with: "language: dockerimage")
    }

    /// Every file that names a release names this version's (the README: InstallSectionTests).
    @Test func theShippedFilesNameThisVersion() throws {
        let version = LinkwrightCLI.version
        let pins = [
            ".pre-commit-hooks.yaml": "ghcr.io/linkwright/linkwright:\(version) check --staged",
            "docs/examples/pre-commit-config.yaml": "rev: v\(version)\n",
            "docs/examples/gitlab-ci.yml": "LINKWRIGHT_VERSION: \"\(version)\"",
        ]
        for (path, pin) in pins {
            let text = try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
            #expect(text.contains(pin), "\(path) should hold \(pin)")
        }
    }
}
