import Foundation
import LinkwrightCLI
import LinkwrightTestSupport
import Testing

/// The README's Install section: its release-binary line runs as written, against a local
/// release server in place of GitHub's and into a temporary folder in place of /usr/local/bin.
@Suite struct InstallSectionTests {
    static let releases = "https://github.com/linkwright/linkwright/releases/download"

    /// The section, between its markers.
    static func section() throws -> String {
        let readme = try String(contentsOf: RepositoryPaths.root.appendingPathComponent("README.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "<!-- install:begin -->"))
        let end = try #require(readme.range(of: "<!-- install:end -->"))
        return String(readme[start.upperBound..<end.lowerBound])
    }

    /// The one-line install of the release binary.
    static func releaseBinaryLine() throws -> String {
        let line = try #require(
            try section().split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.first {
                $0.hasPrefix("v=")
            })
        #expect(line.contains(releases))
        #expect(line.contains(#"sudo install "linkwright-$v-$a/bin/linkwright" /usr/local/bin/"#))
        return line
    }

    /// The line as run here: the fake release server, and a folder of our own for /usr/local/bin.
    private func run(_ line: String, github: FakeGitHub, in folder: TemporaryFolder) throws -> ProcessResult {
        let local =
            line
            .replacingOccurrences(of: Self.releases, with: github.downloadURL)
            .replacingOccurrences(of: "sudo install", with: "install")
            .replacingOccurrences(of: "/usr/local/bin/", with: folder.url.path + "/bin/")
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("bin"), withIntermediateDirectories: true)
        return try runProcess(URL(fileURLWithPath: "/bin/bash"), ["-euc", local], in: folder.url)
    }

    private var asset: String {
        var machine = utsname()
        uname(&machine)
        let architecture = withUnsafeBytes(of: machine.machine) {
            String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
        }
        return "linkwright-\(LinkwrightCLI.version)-linux-\(architecture)"
    }

    @Test(.enabled(if: InstalledTool.path("sha256sum") != nil, "sha256sum (GNU coreutils) is not installed"))
    func theReleaseBinaryLineInstallsACheckedBinary() throws {
        let github = try FakeGitHub()
        try github.publish(asset)
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let result = try run(try Self.releaseBinaryLine(), github: github, in: folder)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("\(asset).tar.gz: OK"), "\(result)")
        let installed = try runProcess(folder.url.appendingPathComponent("bin/linkwright"), ["--version"])
        #expect(installed.stdout == "linkwright \(LinkwrightCLI.version)\n", "\(installed)")
    }

    @Test(.enabled(if: InstalledTool.path("sha256sum") != nil, "sha256sum (GNU coreutils) is not installed"))
    func theReleaseBinaryLineRefusesABinaryWhoseChecksumDiffers() throws {
        let github = try FakeGitHub()
        try github.publish(asset, checksum: String(repeating: "0", count: 64))
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let result = try run(try Self.releaseBinaryLine(), github: github, in: folder)
        #expect(result.status != 0, "\(result)")
        #expect(result.stdout.contains("\(asset).tar.gz: FAILED"), "\(result)")
        #expect(!folder.exists("bin/linkwright"))
    }

    /// The section's commands name this version, and the Makefile's install target takes PREFIX.
    @Test func theSectionNamesThisVersionAndMakeInstallTakesAPrefix() throws {
        let section = try Self.section()
        #expect(section.contains("v=\(LinkwrightCLI.version) "))
        #expect(section.contains("ghcr.io/linkwright/linkwright:\(LinkwrightCLI.version) "))
        #expect(section.contains("make install PREFIX="))
        let makefile = try String(contentsOf: RepositoryPaths.root.appendingPathComponent("Makefile"), encoding: .utf8)
        #expect(makefile.contains("\ninstall: deps\n"))
        #expect(makefile.contains(#""$(DESTDIR)$(PREFIX)/bin/linkwright""#))
    }
}
