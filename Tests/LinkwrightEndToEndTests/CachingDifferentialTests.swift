import Foundation
import LinkwrightCore
import LinkwrightTestSupport
import Testing

/// Caches never change an answer: on seeded histories, `changelog`, `check` and `test` write the
/// same bytes with every cache on and with every one off (`LINKWRIGHT_CACHES=off`: each
/// revision's files read and compiled afresh, no process memo, no contract kept per tree).
///
/// The histories are made to meet what the caches key on: each tag edits one or two domains'
/// rules (insertions at the top, which move every later rule, removals, moves, exclusions
/// flipped, a rule respelt from one Unicode form to the other, a `percent_encoded` or
/// `case_sensitive` default toggled), reverts to an earlier revision (a tree read before), or
/// changes a host (wildcards included), with untouched domains carried through many revisions.
/// What is kept across revisions by a rule's content must tell `café` spelt NFC from NFD.
@Suite struct CachingDifferentialTests {
    /// One domain's rules as a list the history edits.
    struct DomainState {
        var name: String
        var rules: [String]
        var decodes = true
        var caseSensitive = true

        var yaml: String {
            var text = ""
            if !decodes || !caseSensitive {
                text += "defaults:\n"
                if !decodes { text += "  percent_encoded: false\n" }
                if !caseSensitive { text += "  case_sensitive: false\n" }
            }
            text += "applinks:\n  - apps: [shop]\n    rules:\n"
            for rule in rules { text += rule }
            return text
                + "emit:\n  android_dynamic_rules: true\nexpectations:\n  - url: /\(name)/a\n    opens_web: true\n"
        }
    }

    static let words = ["shoes", "bags", "help", "news", "caf\u{E9}", "Sale", "tv"]

    static func rule(_ generator: inout SplitMix64, _ serial: Int) -> String {
        let word = words.randomElement(using: &generator)!
        let path =
            switch Int.random(in: 0..<6, using: &generator) {
            case 0: "/\(word)\(serial)*"
            case 1: "*/\(word)\(serial).html"
            case 2: "/\(word)/\(serial)/*"
            case 3: "/\(word)/item\(serial)?"
            case 4: "/\(word)%2F\(serial)"
            default: "/\(word)\(serial)"
            }
        var text = "      - path: \"\(path)\"\n"
        if Int.random(in: 0..<5, using: &generator) == 0 { text += "        exclude: true\n" }
        if Int.random(in: 0..<6, using: &generator) == 0 { text += "        query:\n          ref: \"?*\"\n" }
        return text
    }

    static let fingerprint =
        "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"

    static func environment(hosts: [String: String]) -> String {
        var text = "tier: production\nteam_id: ABCDE12345\napps:\n  shop:\n    ios: {bundle_id: com.example.shop}\n"
        text += "    android:\n      package: com.example.shop\n      fingerprints:\n"
        text += "        play-signing: \"\(fingerprint)\"\nhosts:\n"
        for host in hosts.keys.sorted() { text += "  \"\(host)\": \(hosts[host]!)\n" }
        return text
    }

    /// A history of `tags` tagged revisions from `seed`.
    static func history(seed: UInt64, tags: Int) throws -> GitFixture {
        var generator = SplitMix64(seed: seed)
        var serial = 0
        var domains = ["alpha", "beta", "gamma"].map { name in
            DomainState(
                name: name,
                rules: (0..<12).map { _ in
                    serial += 1
                    return rule(&generator, serial)
                })
        }
        var hosts = ["alpha.example": "alpha", "beta.example": "beta", "*.gamma.example": "gamma"]
        var revisions: [[String: String?]] = []
        let fixture = try GitFixture()
        func files() -> [String: String?] {
            var files: [String: String?] = ["environments/production.yaml": environment(hosts: hosts)]
            for domain in domains { files["domains/\(domain.name).yaml"] = domain.yaml }
            return files
        }
        for tag in 1...tags {
            let edits = Int.random(in: 1...2, using: &generator)
            for _ in 0..<edits {
                let index = Int.random(in: 0..<domains.count, using: &generator)
                let count = domains[index].rules.count
                switch Int.random(in: 0..<10, using: &generator) {
                case 0, 1:
                    serial += 1
                    domains[index].rules.insert(rule(&generator, serial), at: 0)
                case 2 where count > 2:
                    domains[index].rules.remove(at: Int.random(in: 0..<count, using: &generator))
                case 3 where count > 2:
                    let moved = domains[index].rules.remove(at: Int.random(in: 0..<count, using: &generator))
                    domains[index].rules.insert(moved, at: Int.random(in: 0..<count, using: &generator))
                case 4:
                    let position = Int.random(in: 0..<count, using: &generator)
                    let rule = domains[index].rules[position]
                    let firstLine = rule.prefix { $0 != "\n" } + "\n"
                    domains[index].rules[position] =
                        rule.contains("exclude: true\n")
                        ? rule.replacingOccurrences(of: "        exclude: true\n", with: "")
                        : firstLine + "        exclude: true\n" + rule.dropFirst(firstLine.count)
                case 5: domains[index].decodes.toggle()
                case 6: domains[index].caseSensitive.toggle()
                case 7:
                    // A wildcard host, a host under another domain's wildcard, and a plain one.
                    let (host, domain) = [
                        ("*.beta.example", "beta"), ("shop.gamma.example", "alpha"), ("www.alpha.example", "gamma"),
                    ].randomElement(using: &generator)!
                    hosts[host] = hosts[host] == nil ? domain : nil
                case 8:
                    // NFC and NFD are equal `String`s: only a key reading the scalars tells them apart.
                    guard let position = domains[index].rules.firstIndex(where: { $0.contains("caf") }) else { break }
                    let rule = domains[index].rules[position]
                    domains[index].rules[position] =
                        rule.unicodeScalars.contains("\u{301}")
                        ? rule.precomposedStringWithCanonicalMapping : rule.decomposedStringWithCanonicalMapping
                default:
                    if let earlier = revisions.randomElement(using: &generator) {
                        try fixture.commit("revert to an earlier revision", earlier)
                    }
                }
            }
            revisions.append(files())
            try fixture.commit("revision \(tag)", files())
            try fixture.git("tag", "v1.\(tag).0")
        }
        return fixture
    }

    /// Runs `arguments` in the fixture's repository with caches on and off.
    static func bothWays(_ arguments: [String], in fixture: GitFixture) throws -> (
        on: ProcessResult, off: ProcessResult
    ) {
        let folder = URL(fileURLWithPath: fixture.repository)
        let on = try runLinkwright(arguments, in: folder)
        let off = try runLinkwright(arguments, in: folder, environment: ["LINKWRIGHT_CACHES": "off"])
        return (on, off)
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func changelogCheckAndTestWriteTheSameBytesWithCachesOnAndOff(seed: UInt64) throws {
        let fixture = try Self.history(seed: seed, tags: 8)
        var commands: [[String]] = [
            ["changelog", "--format", "json"], ["changelog"], ["test", "--format", "json"],
        ]
        for tag in 1..<8 {
            commands.append([
                "check", "--against", "v1.\(tag).0", "--head", "v1.\(tag + 1).0", "--no-merge-base", "--format", "json",
            ])
        }
        commands.append(["check", "--against", "v1.1.0", "--no-merge-base", "--format", "text"])
        commands += [["diff", "v1.1.0", "v1.8.0", "--format", "json"], ["diff", "v1.4.0", "v1.5.0"]]
        var changes = 0
        for arguments in commands {
            let (on, off) = try Self.bothWays(arguments, in: fixture)
            #expect([0, 1].contains(on.status), "\(arguments): \(on)")
            #expect(on.status == off.status, "\(arguments)")
            #expect(on.stdout == off.stdout, "\(arguments): the outputs differ")
            #expect(on.stderr == off.stderr, "\(arguments): the messages differ")
            if arguments[0] != "changelog" && on.stdout.contains("\"kind\"") { changes += 1 }
        }
        // The histories must exercise the diff, not compare empty reports.
        #expect(changes > 0)
    }
}
