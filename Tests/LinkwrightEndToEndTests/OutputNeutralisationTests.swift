import Foundation
import LinkwrightTestSupport
import Testing

/// What untrusted input (a pull request's YAML, anyone's association file, a server's headers)
/// can make linkwright print: never a line of its own, a workflow command, a terminal escape, or
/// more than a short excerpt of a value.
@Suite struct OutputNeutralisationTests {
    /// A workflow command to mask a value, then a forged error annotation, then an OSC 8 hyperlink.
    static let forgedYAML = #"\n::add-mask::secret\n::error file=x::forged\e]8;;http://evil\a"#
    /// How it is printed: escaped, and in a host key cut before the OSC by the 60-character excerpt.
    static let forgedEscaped = #"\n::add-mask::secret\n::error file=x::forged"#

    /// Lines that start a workflow command linkwright did not write. Ours always carry a title.
    static func forgedCommands(_ output: String) -> [Substring] {
        let ours =
            /::(error|warning|notice) (file=[^,:]*,line=\d+,col=\d+,)?title=([A-Z_]+( \(\d+ findings\))?|behaviour changes|more findings)::.*/
        return output.split(separator: "\n").filter { $0.hasPrefix("::") && $0.wholeMatch(of: ours) == nil }
    }

    /// Control characters, C1 controls or bidi controls that reached the output raw.
    static func rawControls(_ output: String) -> [Unicode.Scalar] {
        output.unicodeScalars.filter {
            ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value)
                || (0x2028...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value)
        }
    }

    static func production(hosts: String = "  shop.example: shop\n") -> String {
        ShopConfiguration.production.replacingOccurrences(of: "  shop.example: shop\n", with: hosts)
    }

    @Test func aHostKeyCannotForgeWorkflowCommandsInLint() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write(
            "environments/production.yaml",
            Self.production(hosts: "  shop.example: shop\n  \"evil.example\(Self.forgedYAML)\": shop\n"))
        try folder.write("domains/shop.yaml", ShopConfiguration.domain)
        let result = try runLinkwright(["lint"], in: folder.url)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("error: \"evil.example\(Self.forgedEscaped)"), "\(result.stderr)")
        #expect(Self.forgedCommands(result.stdout + result.stderr).isEmpty, "\(result)")
        #expect(Self.rawControls(result.stdout + result.stderr).isEmpty)
        // JSON keeps the message as made: a bounded, escaped excerpt.
        let json = try runLinkwright(["lint", "--format", "json"], in: folder.url)
        let diagnostics = try #require(
            try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        let message = try #require(diagnostics.compactMap { $0["message"] as? String }.first)
        #expect(message.hasPrefix("\"evil.example\(Self.forgedEscaped)"), "\(message)")
        #expect(Self.rawControls(message).isEmpty && !message.contains("\n"))
    }

    @Test func checkForGitHubPrintsOnlyItsOwnCommands() throws {
        let fixture = try GitFixture()
        try fixture.commit("Shop links", ShopConfiguration.files())
        let environment = ["HOME": fixture.folder, "XDG_CONFIG_HOME": fixture.folder, "GIT_CONFIG_NOSYSTEM": "1"]
        let repository = URL(fileURLWithPath: fixture.repository)
        // A rule pattern is free text, so it reaches the annotations' messages.
        try fixture.write([
            "domains/shop.yaml": """
            applinks:
              - apps: [shop]
                rules:
                  - path: "/*"
                  - path: "/admin/*\(Self.forgedYAML)"

            """
        ])
        let annotated = try runLinkwright(
            ["check", "--against", "main", "--format", "github"], in: repository, environment: environment)
        #expect(annotated.status == 1, "\(annotated)")
        #expect(annotated.stdout.contains("::error file=domains/shop.yaml,line=5,col=9,title=UNREACHABLE_RULE::"))
        #expect(annotated.stdout.contains("rule \"/admin/*\(Self.forgedEscaped)\\u{1B}]…\""), "\(annotated.stdout)")
        #expect(Self.forgedCommands(annotated.stdout + annotated.stderr).isEmpty, "\(annotated)")
        #expect(Self.rawControls(annotated.stdout + annotated.stderr).isEmpty)
        // A host key makes the configuration unusable: the diagnostics are annotations too.
        try fixture.write([
            "environments/production.yaml": Self.production(
                hosts: "  shop.example: shop\n  \"evil.example\(Self.forgedYAML)\": shop\n")
        ])
        let unusable = try runLinkwright(
            ["check", "--against", "main", "--format", "github"], in: repository, environment: environment)
        #expect(unusable.status == 2, "\(unusable)")
        #expect(unusable.stdout.hasPrefix("::error file=environments/production.yaml,line="), "\(unusable.stdout)")
        #expect(unusable.stdout.contains("\"evil.example\(Self.forgedEscaped)"), "\(unusable.stdout)")
        #expect(Self.forgedCommands(unusable.stdout + unusable.stderr).isEmpty, "\(unusable)")
        #expect(Self.rawControls(unusable.stdout + unusable.stderr).isEmpty)
    }

    @Test func escapesInNamesAndPatternsReachNoTerminal() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let osc = #"\e]8;;http://evil\a"#
        try folder.write("environments/production.yaml", Self.production())
        try folder.write(
            "domains/shop.yaml",
            ShopConfiguration.domain.replacingOccurrences(of: "- path: /products/*", with: "- path: \"/p\(osc)*\""))
        let explained = try runLinkwright(["explain", "https://shop.example/products/1"], in: folder.url)
        #expect(explained.status == 0, "\(explained)")
        #expect(explained.stdout.contains(#""/p\u{1B}]8;;http://evil\u{7}*" vs "/products/1/""#), "\(explained)")
        #expect(Self.rawControls(explained.stdout + explained.stderr).isEmpty)

        // An app name is checked, and its diagnostic quotes it escaped.
        try folder.write(
            "environments/production.yaml",
            Self.production().replacingOccurrences(of: "  shop:\n", with: "  \"shop\(osc)\":\n"))
        let linted = try runLinkwright(["lint"], in: folder.url)
        #expect(linted.status == 2)
        #expect(linted.stderr.contains(#""shop\u{1B}]8;;http://evil\u{7}" is not a valid app name"#), "\(linted)")
        #expect(Self.rawControls(linted.stdout + linted.stderr).isEmpty)

        // Anyone's association file: app IDs and patterns are printed by match and explain.
        let appID = #"ABCDE12345.com.example.shop\u001b]8;;http://evil\u0007"#
        try folder.write(
            "aasa.json",
            #"{"applinks": {"details": [{"appIDs": [""# + appID + #""], "components": [{"/": "/p\u001b[2J*"}]}]}}"#)
        let matched = try runLinkwright(
            ["match", "--aasa", "aasa.json", "--host", "shop.example", "/products/1", "/x\u{1B}[2J"], in: folder.url)
        #expect(
            matched.stdout.contains(
                "no_match\tABCDE12345.com.example.shop\\u{1B}]8;;http://evil\\u{7}\t/products/1\n"),
            "\(matched)")
        #expect((matched.stdout + matched.stderr).contains(#"/x\u{1B}[2J"#), "\(matched)")
        #expect(Self.rawControls(matched.stdout.replacingOccurrences(of: "\t", with: " ") + matched.stderr).isEmpty)
        let explainedFile = try runLinkwright(
            ["explain", "--aasa", "aasa.json", "https://shop.example/products/1"], in: folder.url)
        #expect(explainedFile.stdout.contains(#"  ios ABCDE12345.com.example.shop\u{1B}]8;;http://evil\u{7}"#))
        #expect(explainedFile.stdout.contains(#""/p\u{1B}[2J*" vs "/products/1/""#), "\(explainedFile)")
        #expect(Self.rawControls(explainedFile.stdout + explainedFile.stderr).isEmpty)
    }

    @Test func quotedValuesAreShortExcerpts() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let credentials = "https://alice:ghp_" + String(repeating: "0123456789abcdef", count: 4) + "@github.com"
        let passwd = (0..<30).map { "user\($0):x:\(1000 + $0):\(1000 + $0)::/home/user\($0):/bin/sh" }
        try folder.write("environments/production.yaml", Self.production())
        // A value in place of a list, a block of text in place of rules, and files that are no
        // configuration at all.
        try folder.write("domains/shop.yaml", "applinks: \"\(credentials)\"\n")
        try folder.write(
            "domains/notes.yaml", "applinks:\n  - apps: |\n" + passwd.map { "      \($0)\n" }.joined())
        try folder.write("domains/credentials.yaml", credentials + "\n")
        try folder.write("domains/passwd.yaml", passwd.joined(separator: "\n") + "\n")
        let result = try runLinkwright(["lint", "--format", "json"], in: folder.url)
        #expect(result.status == 2, "\(result)")
        let diagnostics = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        var messages: [String: String] = [:]
        for diagnostic in diagnostics {
            messages[diagnostic["file"] as? String ?? "", default: ""] += diagnostic["message"] as? String ?? ""
        }
        for message in messages.values {
            #expect(!message.contains("\n") && !message.contains(credentials.dropFirst(18)), "\(message)")
            #expect(!message.contains("user3:"), "\(message)")
        }
        // Quoted values are cut at 60 characters, the ellipsis included.
        let excerpts = messages.values.compactMap { message -> Substring? in
            guard let start = message.firstRange(of: "found the string \"")?.upperBound else { return nil }
            return message[start...].prefix { $0 != "\"" }
        }
        #expect(excerpts.count == 2, "\(messages)")
        for excerpt in excerpts {
            #expect(excerpt.unicodeScalars.count == 60 && excerpt.hasSuffix("…"), "\(excerpt)")
        }
        #expect(messages["domains/notes.yaml"]?.contains(#""user0:x:1000:1000::/home/user0:/bin/sh\nuser1:"#) == true)
        #expect(messages["domains/credentials.yaml"] == "expected a mapping (a domain), found a string")
        #expect(messages["domains/passwd.yaml"] == "expected a mapping (a domain), found a string")
        // Text output prints the same messages, one line each.
        let text = try runLinkwright(["lint"], in: folder.url)
        #expect(!text.stderr.contains("user3:") && !text.stderr.contains(credentials.dropFirst(18)))
    }

    /// A server chooses its headers: Content-Type and Apple's CDN headers are shown escaped and cut.
    @Test func serverHeadersReachNoTerminal() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("environments/production.yaml", Self.production())
        try folder.write("domains/shop.yaml", ShopConfiguration.domain)
        let build = try runLinkwright(["build"], in: folder.url)
        #expect(build.status == 0, "\(build)")
        let wellKnown = folder.url.appendingPathComponent("dist/production/shop.example/.well-known")
        let aasa = Array(try Data(contentsOf: wellKnown.appendingPathComponent("apple-app-site-association")))
        let assetLinks = Array(try Data(contentsOf: wellKnown.appendingPathComponent("assetlinks.json")))
        let osc = "\u{1B}]8;;http://evil\u{7}"
        let sites = [
            TestSite(
                ["shop.example"],
                routes: [
                    .file("/.well-known/apple-app-site-association", aasa, contentType: "text/html\(osc)"),
                    .file("/.well-known/assetlinks.json", assetLinks, contentType: "application/json"),
                ]),
            TestSite(
                ["cdn.test"],
                routes: [
                    .file(
                        "/a/v1/shop.example", aasa, contentType: "application/json",
                        headers: [("Apple-Failure-Reason", osc + String(repeating: "A", count: 200))])
                ]),
        ]
        try withNginx(serving: sites, standardPort: true) { server in
            let arguments =
                ["verify", "--cdn", "--cdn-base", "https://cdn.test/a/v1", "--timeout", "2"]
                + server.resolveOverrides.flatMap { ["--resolve", $0.description] }
                + ["--cacert", server.certificates.trustedAuthority.certificate.path]
            let text = try runLinkwright(arguments, in: folder.url)
            #expect(text.status == 0, "\(text)")
            #expect(
                text.stdout.contains(
                    #"Content-Type text/html\u{1B}]8;;http://evil\u{7}; application/json is recommended"#),
                "\(text)")
            #expect(text.stdout.contains(#"CDN ok (Apple-Failure-Reason: \u{1B}]8;;http://evil\u{7}AAA"#))
            #expect(!text.stdout.contains(String(repeating: "A", count: 60)))
            #expect(Self.rawControls(text.stdout + text.stderr).isEmpty)
            for format in ["json", "github", "junit"] {
                let result = try runLinkwright(arguments + ["--format", format], in: folder.url)
                #expect(result.stdout.contains("text/html"), "\(format): \(result)")
                #expect(Self.rawControls(result.stdout + result.stderr).isEmpty, "\(format)")
                #expect(Self.forgedCommands(result.stdout).isEmpty, "\(format)")
            }
        }
    }

    /// Imported YAML escapes what YAML cannot hold raw (DEL, C1) and what would reorder or end a
    /// line, in values and in the header that names the source files.
    @Test func importWritesControlsAsYAMLEscapes() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let name = "a\n::error::b.json"
        try folder.write(
            name,
            #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.shop"], "components": "#
                + #"[{"/": "/p\u009b*", "comment": "\u001b[2J\u202e"}]}]}}"#)
        let arguments = ["import", "--aasa", name, "--host", "shop.example", "--env", "production"]
        let dryRun = try runLinkwright(arguments + ["--dry-run"], in: folder.url)
        #expect(dryRun.status == 0, "\(dryRun)")
        #expect(Self.rawControls(dryRun.stdout + dryRun.stderr).isEmpty, "\(dryRun)")
        #expect(dryRun.stdout.contains(#"# Imported by linkwright import from a\n::error::b.json."#), "\(dryRun)")
        #expect(dryRun.stdout.contains(#""/p\x9b*""#) && dryRun.stdout.contains(#""\x1b[2J\u202e""#))
        #expect(Self.forgedCommands(dryRun.stdout + dryRun.stderr).isEmpty)
        // The YAML reads back as the same values: the imported configuration lints.
        let imported = try runLinkwright(arguments, in: folder.url)
        #expect(imported.status == 0, "\(imported)")
        let lint = try runLinkwright(["lint"], in: folder.url)
        #expect(lint.status == 0, "\(lint)")
    }
}
