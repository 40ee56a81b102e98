import Foundation
import LinkwrightCore
import LinkwrightTestSupport
import Testing

/// `linkwright changelog` over tagged histories built in temporary repositories.
@Suite struct ChangelogCommandTests {
    static let golden = RepositoryPaths.root.appendingPathComponent("Tests/LinkwrightEndToEndTests/Golden/changelog")

    private func linkwright(_ arguments: [String], _ fixture: GitFixture) throws -> ProcessResult {
        try runLinkwright(
            arguments, in: URL(fileURLWithPath: fixture.repository),
            environment: ["HOME": fixture.folder, "XDG_CONFIG_HOME": fixture.folder])
    }

    /// v1.0 the shop; v1.1 adds offers; v1.2 touches only the README; v1.3 breaks the YAML;
    /// v1.10 fixes it and drops the Android app (tags sort as versions: v1.10 comes last).
    private func configurationHistory() throws -> GitFixture {
        let fixture = try GitFixture()
        try fixture.commit("Shop", ShopConfiguration.files())
        try fixture.git("tag", "-a", "v1.0", "-m", "v1.0")
        let offers = ShopConfiguration.domain.replacingOccurrences(
            of: "      - path: /products/*\n", with: "      - path: /products/*\n      - path: /offers/*\n")
        try fixture.commit("Offers", ["domains/shop.yaml": offers])
        try fixture.git("tag", "v1.1")
        try fixture.commit("Readme", ["README.md": "the shop\n"])
        try fixture.git("tag", "v1.2")
        try fixture.commit("Broken", ["domains/shop.yaml": offers + "  - url: [\n"])
        try fixture.git("tag", "v1.3")
        let production = ShopConfiguration.production.replacingOccurrences(
            of:
                "    android:\n      package: com.example.shop\n      fingerprints:\n        play-signing: \"\(ShopConfiguration.fingerprint)\"\n",
            with: "")
        try fixture.commit(
            "Fixed, iOS only", ["domains/shop.yaml": offers, "environments/production.yaml": production])
        try fixture.git("tag", "v1.10")
        return fixture
    }

    @Test(arguments: [("markdown", "md"), ("json", "json"), ("html", "html")])
    func matchesTheGoldenReleaseNotes(_ format: String, _ suffix: String) throws {
        let fixture = try configurationHistory()
        let result = try linkwright(["changelog", "--format", format], fixture)
        #expect(result.status == 0, "\(result)")
        if let mismatch = Golden.mismatch(
            result.stdout, golden: Self.golden.appendingPathComponent("configuration.\(suffix)"))
        {
            Issue.record(Comment(rawValue: mismatch))
        }
    }

    @Test func aRangeAndAGlobSelectTheReleases() throws {
        let fixture = try configurationHistory()
        /// "from..to" of each release, newest first, as the JSON lists them.
        func ranges(_ output: String) throws -> [String] {
            let root = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
            let releases = try #require(root["releases"] as? [[String: Any]])
            return releases.map { release in
                let (from, to) = (release["from"] as? [String: String], release["to"] as? [String: String])
                return "\(from?["name"] ?? "?")..\(to?["name"] ?? "?")"
            }
        }
        let range = try linkwright(["changelog", "v1.1..v1.10", "--format", "json"], fixture)
        #expect(try ranges(range.stdout) == ["v1.3..v1.10", "v1.2..v1.3", "v1.1..v1.2"])
        let glob = try linkwright(["changelog", "--tags", "v1.1*", "--format", "json"], fixture)
        #expect(try ranges(glob.stdout) == ["v1.1..v1.10"])
    }

    /// With a GitHub origin each release links to its comparison; --only-changed leaves out the
    /// releases that change nothing (v1.2 touched only the README, v1.3 did not compile).
    @Test func releasesLinkToTheForgeAndCanBeOnlyTheChangedOnes() throws {
        let fixture = try configurationHistory()
        try fixture.git("remote", "add", "origin", "git@github.com:acme/shop.git")
        let result = try linkwright(["changelog", "--only-changed"], fixture)
        #expect(result.status == 0, "\(result)")
        let headings = result.stdout.split(separator: "\n").filter { $0.hasPrefix("## ") }.map {
            $0.split(separator: " ")[1]
        }
        #expect(headings == ["v1.10", "v1.1"], "\(result.stdout)")
        #expect(
            result.stdout.contains(
                "Since v1.0 (2023-11-14, `a3e3fff`) · [Compare v1.0...v1.1](https://github.com/acme/shop/compare/v1.0...v1.1).\n"
            ), "\(result.stdout)")
        #expect(result.stdout.contains("### Links\n\n- Links to `/offers/example` now open shop"), "\(result.stdout)")
        let json = try linkwright(["changelog", "--format", "json"], fixture)
        #expect(json.stdout.contains(#""compare": "https://github.com/acme/shop/compare/v1.3...v1.10""#), "\(json)")
    }

    /// The page's structure, read by Python's html.parser: a heading per release, a section
    /// heading per host and platform, one list item per change with its URL as code, the
    /// forge's link, and every element closed.
    @Test func theHTMLPageHasTheStructureOfReleaseNotes() throws {
        let fixture = try configurationHistory()
        try fixture.git("remote", "add", "origin", "https://gitlab.com/acme/shop.git")
        let page = try linkwright(["changelog", "--format", "html"], fixture)
        #expect(page.status == 0, "\(page)")
        let script = """
            import json, sys
            from html.parser import HTMLParser
            class Page(HTMLParser):
                def __init__(self):
                    super().__init__()
                    self.open, self.text, self.tags, self.items, self.links, self.unclosed = [], {}, [], [], [], []
                def handle_starttag(self, tag, attrs):
                    if tag not in ("meta", "br"):
                        self.open.append(tag)
                    self.tags.append(tag)
                    attrs = dict(attrs)
                    if tag == "li":
                        self.items.append([attrs.get("class"), "", 0])
                    if tag == "code" and "li" in self.open:
                        self.items[-1][2] += 1
                    if tag == "a":
                        self.links.append(attrs.get("href"))
                def handle_endtag(self, tag):
                    if not self.open or self.open[-1] != tag:
                        self.unclosed.append(tag)
                    else:
                        self.open.pop()
                def handle_data(self, data):
                    for tag in ("h1", "h2", "h3", "title"):
                        if self.open and self.open[-1] == tag:
                            self.text.setdefault(tag, []).append(data)
                    if "li" in self.open:
                        self.items[-1][1] += data
            page = Page()
            page.feed(sys.stdin.read())
            print(json.dumps({"h1": page.text.get("h1"), "h2": len(page.text.get("h2", [])),
                              "h3": page.text.get("h3"), "items": page.items, "links": page.links,
                              "tables": page.tags.count("table"), "balanced": not page.unclosed and not page.open}))
            """
        let parsed = try runProcess(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script], input: Data(page.stdout.utf8))
        let dom = try #require(
            try JSONSerialization.jsonObject(with: Data(parsed.stdout.utf8)) as? [String: Any], "\(parsed)")
        #expect(dom["balanced"] as? Bool == true, "\(dom)")
        #expect(dom["h1"] as? [String] == ["Link changes"])
        // The contents list's heading, then one per release.
        #expect(dom["h2"] as? Int == 5)
        #expect(dom["h3"] as? [String] == ["Links", "Declarations", "Links", "Declarations"], "\(dom)")
        let items = try #require(dom["items"] as? [[Any]])
        // One entry per change, whatever platforms share it, with where it happens under it.
        #expect(
            items.contains {
                $0[0] as? String == "behaviour"
                    && $0[1] as? String == "Links to /offers/example now open shop (they stayed on the web)."
                    && $0[2] as? Int == 1
            }, "\(items)")
        #expect(items.contains { $0[1] as? String == "production: shop.example (iOS, Android)" }, "\(items)")
        #expect(items.filter { $0[0] as? String == "behaviour" }.count == 2, "\(items)")
        #expect(items.filter { $0[0] as? String == "structure" }.count == 2, "\(items)")
        #expect((dom["links"] as? [String])?.first == "#release-1")
        #expect((dom["links"] as? [String])?.contains("https://gitlab.com/acme/shop/-/compare/v1.3...v1.10") == true)
        #expect(dom["tables"] as? Int == 0)
    }

    @Test func needsTwoRevisions() throws {
        let fixture = try GitFixture()
        try fixture.commit("Shop", ShopConfiguration.files())
        let result = try linkwright(["changelog"], fixture)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("error: the changelog needs at least two revisions"))
    }

    /// A repository with only a hand-written AASA, renamed once, broken once.
    @Test func followsARawArtifactThroughRenamesAndBreakage() throws {
        let fixture = try GitFixture()
        let legacy =
            #"{"applinks": {"apps": [], "details": [{"appID": "ABCDE12345.com.example.shop", "paths": ["NOT /admin/*", "/products/*"]}]}}"#
        try fixture.commit("Legacy file", ["public/apple-app-site-association.json": legacy + "\n"])
        try fixture.git("tag", "v1")
        let modern =
            #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.shop"], "components": [{"/": "/admin/*", "exclude": true}, {"/": "/products/*"}, {"/": "/offers/*"}]}]}}"#
        try fixture.commit(
            "Move to .well-known, add offers",
            [
                "public/apple-app-site-association.json": nil,
                "public/.well-known/apple-app-site-association": modern + "\n",
            ])
        try fixture.git("tag", "v2")
        try fixture.commit("Oops", ["public/.well-known/apple-app-site-association": "{\"applinks\": \n"])
        try fixture.git("tag", "v3")
        try fixture.commit("Fixed", ["public/.well-known/apple-app-site-association": modern + "\n"])
        try fixture.git("tag", "v4")
        let arguments = [
            "changelog", "--artifact", "public/.well-known/apple-app-site-association", "--artifact",
            "public/apple-app-site-association.json", "--host", "shop.example",
        ]
        let result = try linkwright(arguments, fixture)
        #expect(result.status == 0, "\(result)")
        // Without the host, every URL would be shown on a made-up one.
        let hostless = try linkwright(Array(arguments.dropLast(2)), fixture)
        #expect(hostless.status == 2, "\(hostless)")
        #expect(hostless.stderr.hasPrefix("error: --artifact needs --host HOST"), "\(hostless)")
        if let mismatch = Golden.mismatch(result.stdout, golden: Self.golden.appendingPathComponent("artifact.md")) {
            Issue.record(Comment(rawValue: mismatch))
        }
        // The section names the host and platform; the example is one of the rule's own URLs.
        #expect(
            result.stdout.contains(
                "- Links to `/offers/example` now open ABCDE12345.com.example.shop (they stayed on the web).\n"
                    + "  - `shop.example` (iOS)\n"
            ), "\(result.stdout)")
        #expect(!result.stdout.contains("### artifact"))
        #expect(result.stdout.contains("is not valid JSON"))
    }

    /// A changelog carries what it made of each revision to the next (compiled rules by their
    /// text, lists and indexes as edits, keys hashed once): over seeded histories of mixed edits
    /// (rules inserted anywhere, removed, rewritten, moved, repeated, respelt between Unicode
    /// forms, exclusions toggled, variables, defaults and hosts changed), every release is the one a run
    /// comparing only its two tags finds.
    @Test(arguments: [UInt64(61), 62])
    func releasesAreThoseOfEachPairComparedAlone(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        var serial = 0
        func rule() -> [String] {
            serial += 1
            let word = ["shop", "caf\u{E9}", "news", "deals"].randomElement(using: &generator)!
            let path = [
                "/\(word)\(serial)", "/\(word)\(serial)/*", "/$(section)/\(word)\(serial)/*", "/*/\(word)\(serial)",
            ]
            .randomElement(using: &generator)!
            var lines = ["      - path: \"\(path)\""]
            switch Int.random(in: 0..<5, using: &generator) {
            case 0: lines.append("        query: {ref: \"?*\"}")
            case 1: lines.append("        exclude: true")
            default: break
            }
            return lines
        }
        var rules = [(0..<12).map { _ in rule() }, (0..<12).map { _ in rule() }]
        var sections = [["shop", "news"], ["blog"]]
        var caseInsensitive = [false, false]
        var hosts = [["a.shop.example": "shop", "b.shop.example": "news"], ["staging.shop.example": "shop"]]
        func files() -> [String: String?] {
            var files: [String: String?] = [:]
            for (index, name) in ["shop", "news"].enumerated() {
                files["domains/\(name).yaml"] =
                    "variables:\n  section: [\(sections[index].joined(separator: ", "))]\n"
                    + (caseInsensitive[index] ? "defaults:\n  case_sensitive: false\n" : "") + "applinks:\n"
                    + "  - apps: [shop]\n    rules:\n" + rules[index].flatMap { $0 }.map { $0 + "\n" }.joined()
                    + "emit:\n  android_dynamic_rules: true\n"
            }
            for (index, tier) in ["production", "staging"].enumerated() {
                let suffix = index == 0 ? "" : ".staging"
                files["environments/\(tier).yaml"] =
                    "tier: \(tier)\nteam_id: ABCDE1234\(index)\napps:\n  shop:\n    ios:\n"
                    + "      bundle_id: com.example.shop\(suffix)\n    android:\n      package: com.example.shop\(suffix)\n"
                    + "      fingerprints:\n        play-signing: \"\(ShopConfiguration.fingerprint)\"\nhosts:\n"
                    + hosts[index].sorted { $0.key < $1.key }.map { "  \($0.key): \($0.value)\n" }.joined()
            }
            return files
        }
        let fixture = try GitFixture()
        try fixture.commit("Start", files())
        try fixture.git("tag", "v1.0")
        let tags = 14
        for tag in 1...tags {
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                let domain = Int.random(in: 0..<2, using: &generator)
                let position = Int.random(in: 0..<rules[domain].count, using: &generator)
                switch Int.random(in: 0..<10, using: &generator) {
                case 0: rules[domain].insert(rule(), at: Int.random(in: 0...rules[domain].count, using: &generator))
                case 1 where rules[domain].count > 3: rules[domain].remove(at: position)
                case 2:
                    rules[domain][position][0] = rules[domain][position][0].replacingOccurrences(of: "/", with: "/x")
                case 3:
                    let moved = rules[domain].remove(at: position)
                    rules[domain].insert(moved, at: Int.random(in: 0...rules[domain].count, using: &generator))
                case 4: rules[domain].insert(rules[domain][position], at: position)
                case 5:
                    let excluded = rules[domain][position].contains("        exclude: true")
                    rules[domain][position] = [rules[domain][position][0]] + (excluded ? [] : ["        exclude: true"])
                case 6:
                    let text = rules[domain][position][0]
                    rules[domain][position][0] =
                        text.unicodeScalars.contains("\u{301}")
                        ? text.precomposedStringWithCanonicalMapping : text.decomposedStringWithCanonicalMapping
                case 8: caseInsensitive[domain].toggle()
                case 7:
                    if sections[domain].count > 1 {
                        sections[domain].removeLast()
                    } else {
                        sections[domain].append("caf\u{E9}")
                    }
                default:
                    let environment = Int.random(in: 0..<2, using: &generator)
                    let host =
                        "h\(Int.random(in: 0..<3, using: &generator)).\(environment == 0 ? "" : "staging.")shop.example"
                    hosts[environment][host] = hosts[environment][host] == nil ? ["shop", "news"][domain] : nil
                }
            }
            try fixture.commit("Edits \(tag)", files())
            try fixture.git("tag", "v1.\(tag)")
        }
        func releases(_ arguments: [String]) throws -> [[String: Any]] {
            let result = try linkwright(["changelog", "--format", "json"] + arguments, fixture)
            #expect(result.status == 0, "\(result.stderr)")
            let root = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            return try #require(root["releases"] as? [[String: Any]])
        }
        let walked = try releases([])
        #expect(walked.count == tags)
        // Compared as sorted-key JSON: Foundation on Linux does not compare nested values of
        // `Any` as `NSDictionary.isEqual` does on Apple platforms.
        func text(_ release: [String: Any]?) throws -> String {
            String(
                decoding: try JSONSerialization.data(withJSONObject: release ?? [:], options: .sortedKeys),
                as: UTF8.self)
        }
        var changes = 0
        for (index, release) in walked.enumerated() {
            let to = tags - index
            let alone = try releases(["v1.\(to - 1)..v1.\(to)"])
            #expect(alone.count == 1)
            #expect(try text(release) == text(alone.first), "v1.\(to - 1)..v1.\(to)")
            changes += (release["changes"] as? [Any])?.count ?? 0
        }
        #expect(changes > tags * 4, "the edits change what links do and declare")
    }

    /// Seventy tags are compared a window of revisions at a time (`ChangelogCommand.window`):
    /// each release still names its own rule, a broken revision at the end of a window is
    /// compared across the boundary with the last one that could be read, and a contract that
    /// comes back after the first window is compiled again, with the same result.
    @Test func releasesAcrossWindowsAreEachTheirOwn() throws {
        let fixture = try GitFixture()
        try fixture.commit("Shop", ShopConfiguration.files())
        try fixture.git("tag", "v1.0")
        var rules = ""
        for number in 1...70 {
            if number == 32 {
                try fixture.commit("Broken", ["domains/shop.yaml": ShopConfiguration.domain + "  - url: [\n"])
            } else if number == 50 {
                // The contract of v1.0 again: compiled again after its window was forgotten.
                try fixture.commit("Back to the start", ShopConfiguration.files())
                rules = ""
            } else {
                rules += "      - path: /p\(number)/*\n"
                let domain = ShopConfiguration.domain.replacingOccurrences(
                    of: "      - path: /products/*\n", with: rules + "      - path: /products/*\n")
                try fixture.commit("Rule \(number)", ["domains/shop.yaml": domain])
            }
            try fixture.git("tag", "v1.\(number)")
        }
        let result = try linkwright(["changelog", "--format", "json"], fixture)
        #expect(result.status == 0, "\(result.stderr)")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let releases = try #require(root["releases"] as? [[String: Any]])
        #expect(releases.count == 70)
        for release in releases {
            let to = try #require((release["to"] as? [String: String])?["name"])
            let number = try #require(Int(to.dropFirst(3)))
            let added = Set(
                (release["changes"] as? [[String: Any]] ?? []).filter {
                    $0["kind"] as? String == "rule_added" && $0["platform"] as? String == "ios"
                }
                .compactMap { $0["after"] as? String })
            let notes = (release["notes"] as? [String] ?? []).joined(separator: "\n")
            switch number {
            case 32: #expect(added.isEmpty && notes.contains("v1.32: the configuration does not compile"), "\(release)")
            case 33:
                // Compared with v1.31 across the window boundary (v1.32 never had its rule).
                #expect(added == ["/p33/*"], "\(release)")
                #expect(notes.contains("compared with v1.31, the last revision that could be read"), "\(notes)")
            case 50: #expect(added.isEmpty, "\(release)")
            case 51: #expect(added == ["/p51/*"], "\(release)")
            default: #expect(added == ["/p\(number)/*"], "v1.\(number): \(release)")
            }
        }
    }
}

/// Release notes of four small releases of the example configuration, as a person reads them:
/// one entry per change with where it happens under it (production first), apps by their
/// names, no Android translation, counts per release; the HTML page with its contents list,
/// laid out and read back by a real browser.
@Suite struct ReleaseNotesTests {
    let fixture: GitFixture

    /// v1 the example; v2 opens /alerta/ on the museum's hosts; v3 drops the museum's upload
    /// key in production; v4 opens /avisos/ on the emergency app's hosts; v5 touches the README.
    init() throws {
        fixture = try GitFixture()
        try fixture.commit("The example", try GitFixture.exampleFiles())
        try fixture.git("tag", "v1")
        let museo = try read("domains/museo.yaml").replacingOccurrences(
            of: "        comment: The staff back office stays on the web\n",
            with: "        comment: The staff back office stays on the web\n      - path: /alerta/*\n"
                + "        route: none\n        reason: alerts open the home screen\n")
        try fixture.commit("Alerts", ["domains/museo.yaml": museo])
        try fixture.git("tag", "v2")
        let production = try read("environments/production.yaml").replacingOccurrences(
            of:
                "        upload: \"36:06:B0:78:5E:91:56:8D:37:DD:55:02:23:50:18:E9:66:B5:9B:47:17:79:16:2F:08:32:8F:33:4F:ED:69:CA\"\n",
            with: "")
        try fixture.commit("Upload key retired", ["environments/production.yaml": production])
        try fixture.git("tag", "v3")
        let emergencias = try read("domains/emergencias.yaml").replacingOccurrences(
            of: "emit:\n",
            with: "      - path: /avisos/*\n        route: none\n        reason: notices open the home screen\nemit:\n")
        try fixture.commit("Notices", ["domains/emergencias.yaml": emergencias])
        try fixture.git("tag", "v4")
        try fixture.commit("Readme", ["README.md": "links\n"])
        try fixture.git("tag", "v5")
    }

    private func read(_ path: String) throws -> String {
        try String(contentsOfFile: fixture.repository + "/" + path, encoding: .utf8)
    }

    private func changelog(_ format: String) throws -> String {
        let result = try runLinkwright(
            ["changelog", "--format", format], in: URL(fileURLWithPath: fixture.repository),
            environment: ["HOME": fixture.folder, "XDG_CONFIG_HOME": fixture.folder])
        #expect(result.status == 0, "\(result)")
        return result.stdout
    }

    @Test func oneEntryPerChangeProductionFirstNoInternals() throws {
        let notes = try changelog("markdown")
        let releases = notes.components(separatedBy: "\n## ").dropFirst()
        #expect(releases.count == 4, "\(notes)")
        let v2 = try #require(releases.first { $0.hasPrefix("v2 ") })
        // The rule opens /alerta/ on every host of production and staging, on both platforms:
        // one entry, told once, production listed first, the app by its name.
        #expect(
            v2.contains(
                "- Links to `/alerta/example` now open museo with no destination (route: `none`) instead of the web.\n"
                    + "  - production: `museo.example`, `*.museo.example`, `entradas.museo.example` (iOS, Android); "
                    + "staging: `staging.museo.example` (iOS, Android)\n"), "\(v2)")
        #expect(v2.components(separatedBy: "`/alerta/example`").count == 2, "told once: \(v2)")
        #expect(v2.contains("**1 link starts opening an app, 0 stop,"), "\(v2)")
        #expect(v2.contains("- Rule added for museo: `/alerta/*`\n  - production: "), "\(v2)")
        let v3 = try #require(releases.first { $0.hasPrefix("v3 ") })
        #expect(v3.contains("0 links start opening an app, 0 stop, 0 change destination"), "\(v3)")
        #expect(v3.contains("museo"), "\(v3)")
        let v4 = try #require(releases.first { $0.hasPrefix("v4 ") })
        #expect(
            v4.contains("  - production: `app.emergencias.example` (iOS, Android); staging: "),
            "production first: \(v4)")
        #expect(releases.first { $0.hasPrefix("v5 ") }?.contains("No change in which URLs open which app.") == true)
        // No Android internals, no app IDs where the configuration has names, no identifier
        // capitalised as if it started a sentence.
        #expect(!notes.contains("android:"), "\(notes)")
        #expect(!notes.contains("now open A1B2C3D4E5.") && !notes.contains("now open com.example."), "\(notes)")
        #expect(!notes.contains("Com.example") && !notes.contains("Other links may change too"), "\(notes)")
    }

    /// The page a browser shows: a contents list linking every release with its counts, each
    /// release with its summary and entries. Skipped, saying so, where chromium is missing.
    @Test(.enabled(if: BrowserCheck.chromium != nil, Comment(rawValue: BrowserCheck.missing)))
    func theHTMLPageHasContentsAndCountsInABrowser() throws {
        let page = try changelog("html")
        let probe = """
            <script>
            const links = [...document.querySelectorAll("nav ol.contents li a")];
            document.body.setAttribute("data-check", JSON.stringify({
              contents: links.length,
              targets: links.filter(a => document.querySelector(a.getAttribute("href"))).length,
              counts: document.querySelectorAll("nav .counts").length,
              summaries: document.querySelectorAll("section .summary").length,
              entries: document.querySelectorAll("section li.behaviour").length,
              where: document.querySelectorAll("section ul.where").length,
              first: links.length ? links[0].textContent : ""
            }));
            </script>
            """
        let dom = try BrowserCheck.dumpDOM(
            html: page.replacingOccurrences(of: "</body>", with: probe + "</body>"), width: 1000)
        let match = try #require(dom.firstMatch(of: /data-check="([^"]*)"/))
        let json = String(match.output.1).replacingOccurrences(of: "&quot;", with: "\"")
        let check = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(check["contents"] as? Int == 4, "\(check)")
        #expect(check["targets"] as? Int == 4, "every contents link reaches its release: \(check)")
        #expect(check["counts"] as? Int == 4)
        #expect(check["summaries"] as? Int == 3, "the three releases with changes: \(check)")
        #expect(check["first"] as? String == "v5", "newest first: \(check)")
        #expect((check["entries"] as? Int ?? 0) >= 2 && (check["where"] as? Int ?? 0) >= 3, "\(check)")
        let png = try BrowserCheck.screenshot(html: page, width: 1000, height: 1400)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]) && png.count > 10_000, "a drawn page")
    }
}
