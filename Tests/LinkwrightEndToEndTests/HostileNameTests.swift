import Foundation
import LinkwrightCore
import LinkwrightTestSupport
import Testing

/// Configurations lint accepts whose names are hostile to generated code: keywords of both
/// languages as app, domain, environment, route and parameter names, names of what the routers
/// declare and use (`link`, `site`, `builds`, `companion`, `string`, `idText` beside `id`), names
/// starting with a digit, and query item names that are one text in two Unicode spellings (`café`
/// NFC and NFD, in one query dictionary). Their Swift routers compile in Swift 6 strict mode
/// with every warning an error, and decide as `match` does; the Kotlin ones are compiled and
/// compared in `KotlinRouterAgreementTests`' one kotlinc run.
///
/// CI runs `HostileNames.seeds` (one seed); `scripts/hostile-names.sh` runs more.
@Suite(.serialized) struct HostileNameTests {
    @Test(.enabled(if: SwiftCompiler.available, SwiftCompiler.missing))
    func hostileNamesMakeSwiftRoutersThatCompileAndAgreeWithMatch() throws {
        for seed in HostileNames.seeds {
            let folder = try TemporaryFolder()
            defer { folder.remove() }
            for (path, text) in HostileNames.configuration(seed: seed) { try folder.write(path, text) }
            let lint = try runLinkwright(["lint", "--config", folder.url.path])
            try #require(lint.status == 0, "seed \(seed): lint refuses the configuration:\n\(lint)")
            let comparison = try RouterComparison(configuration: folder.url, environmentScopes: false)
            let report = try comparison.run(urls: HostileNames.urls(comparison.samples, seed: seed))
            let written = HostileNames.configuration(seed: seed).map { "=== \($0.path)\n\($0.text)" }
            #expect(report.mismatches.isEmpty, "seed \(seed): \(report)\n\(written.joined(separator: "\n"))")
            #expect(report.opened > 20, "seed \(seed): \(report.opened) URLs open an app")
            // Both spellings of café reach the rule that names them, neither traps.
            #expect(report.destinationsSeen.count >= HostileNames.appsPerConfiguration, "seed \(seed): \(report)")
        }
    }

    /// The issue's case: NFC and NFD `café` in one query dictionary. lint accepts it, and the router
    /// compares item names scalar by scalar, as `match` does: each spelling reads its own item.
    @Test(.enabled(if: SwiftCompiler.available, SwiftCompiler.missing))
    func canonicallyEquivalentQueryNamesAreTwoNames() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        for (path, text) in HostileNames.configuration(seed: 7) { try folder.write(path, text) }
        let comparison = try RouterComparison(configuration: folder.url, environmentScopes: false)
        let scope = try #require(comparison.scopes.first)
        let host = try #require(comparison.configuration.environments.first?.hosts.first?.host.value)
        let urls = [
            "https://\(host)/q/1?caf\u{E9}=a", "https://\(host)/q/1?cafe\u{301}=xa",
            "https://\(host)/q/1?caf\u{E9}=a&cafe\u{301}=xa", "https://\(host)/q/1?caf\u{E9}=a&cafe\u{301}=a",
            "https://\(host)/q/1?caf%C3%A9=a&cafe%CC%81=xa", "https://\(host)/q/1?caf\u{E9}=xa",
        ]
        // Enough URLs first that the evaluator decides the rest with its rule index
        // (`LazyRuleIndex.triesPerRule`), which once took both spellings for one item.
        let filler = (0..<400).map { "https://\(host)/r1/\($0)" }
        let report = try comparison.run(urls: filler + urls)
        #expect(report.mismatches.isEmpty, "\(report)")
        let answers = urls.map { report.answers["\(scope.tag) \($0)"] ?? "missing" }
        #expect(answers[0] == "none" && answers[1] == "none" && answers[3] == "none", "\(answers)")
        #expect(answers[2] != "none" && answers[2] != "missing", "\(answers)")
        // The precomposed item alone satisfies both patterns, but the decomposed one is absent.
        #expect(answers[5] == "none", "\(answers)")
    }
}

/// The seeded generator of hostile configurations.
enum HostileNames {
    /// The seeds a run tries: `LINKWRIGHT_HOSTILE_SEEDS` (`1-40` or `3`), else one.
    static var seeds: [UInt64] {
        guard let text = ProcessInfo.processInfo.environment["LINKWRIGHT_HOSTILE_SEEDS"] else { return [1] }
        let bounds = text.split(separator: "-").compactMap { UInt64($0) }
        guard let first = bounds.first else { return [1] }
        return Array(first...(bounds.last ?? first))
    }

    static let appsPerConfiguration = 3

    /// Names lint accepts for apps, domains and environments (lowercase, digits, `-`, `_`).
    static let logicalNames = [
        "class", "fun", "default", "link", "string", "companion", "self", "in", "1st", "object", "when", "await",
        "site", "destination", "builds", "rule", "as", "museo", "museo-production", "is", "init", "typealias",
        "is-subdomain", "iso-language-codes", "list-of", "scheme", "host", "simple-glob", "url", "text",
    ]

    /// Route and parameter names: keywords of both languages, hard, soft, modifier and
    /// contextual, names the routers declare or use, and standard types' members.
    static let identifiers = [
        "as", "await", "fun", "companion", "string", "default", "self", "init", "some", "link", "destination",
        "hashValue", "copy", "it", "value", "data", "object", "when", "typeof", "val", "inout", "let", "var", "text",
        "wholeNumber", "number", "site", "rule", "query", "class", "in", "is", "super", "this", "null", "nil", "long",
        "int", "any", "unit", "nothing", "boolean", "claimsOf", "builds", "type", "protocol", "get", "set", "where",
        "import", "package", "internal", "public", "private", "operator", "throws", "try", "catch", "repeat",
        "switch", "case", "enum", "struct", "func", "subscript", "defer", "guard", "do", "else", "for", "while",
        "return", "break", "continue", "fallthrough", "static", "extension", "deinit", "associatedtype",
        "typealias", "rethrows", "open", "fileprivate", "sending", "consume", "each", "macro", "actor",
        "nonisolated", "borrowing", "consuming", "interface", "by", "constructor", "field", "file", "finally",
        "param", "property", "receiver", "setparam", "abstract", "actual", "annotation", "const", "crossinline",
        "expect", "external", "final", "infix", "inline", "inner", "lateinit", "noinline", "out", "override",
        "protected", "reified", "sealed", "suspend", "tailrec", "vararg", "idText", "id", "equals", "hashCode",
        "toString", "component1", "parse", "segment", "queryItem", "matches", "items", "scheme", "host", "path",
        "fragment", "exclude", "variables", "rules", "same", "folded", "percentDecoded", "string", "nonEmpty",
        "globTokens", "isoLanguageCodes", "latestApiLevel", "release", "claim", "claims", "decoded", "literal",
        "prefix", "simpleGlob", "advancedGlob", "javaSplit", "hexDigit", "withAppleSlashes", "globMatches",
    ]

    /// Query item names in URLs: `café` precomposed and decomposed, capitalised, `Å` as the
    /// Angstrom sign and as the letter (canonically equivalent), and plain words.
    static let itemNames = ["caf\u{E9}", "cafe\u{301}", "Caf\u{E9}", "id", "link", "text", "\u{212B}", "\u{C5}"]

    /// A configuration of `appsPerConfiguration` apps on iOS and Android in two environments,
    /// each served by its own domain with routes, parameters and query items drawn from the lists.
    static func configuration(seed: UInt64) -> [(path: String, text: String)] {
        var generator = SplitMix64(seed: seed)
        func pick<T>(_ list: [T]) -> T { list[Int(generator.next() % UInt64(list.count))] }
        func distinct(_ count: Int, from list: [String], avoiding: Set<String> = []) -> [String] {
            var chosen: [String] = []
            var folded = avoiding
            while chosen.count < count {
                let name = pick(list)
                guard folded.insert(name.lowercased()).inserted else { continue }
                chosen.append(name)
            }
            return chosen
        }
        func quoted(_ text: String) -> String {
            "\""
                + text.unicodeScalars.map { $0.isASCII ? String($0) : "\\u\(String(format: "%04X", $0.value))" }
                .joined() + "\""
        }
        let environments = distinct(2, from: logicalNames)
        let apps = distinct(appsPerConfiguration, from: logicalNames)
        let domains = distinct(appsPerConfiguration, from: logicalNames)
        var routesTaken: Set<String> = []
        var files: [(path: String, text: String)] = []
        for (index, environment) in environments.enumerated() {
            var text = "tier: \(index == 0 ? "production" : "staging")\nteam_id: A1B2C3D4E5\napps:\n"
            for (number, app) in apps.enumerated() {
                let id = "com.example.app\(number)" + (index == 0 ? "" : ".staging")
                text += "  \(quoted(app)):\n    ios: {bundle_id: \(id)}\n    android:\n      package: \(id)\n"
                text += "      fingerprints: {play-signing: \"\(fingerprint)\"}\n"
            }
            text += "hosts:\n"
            for (number, domain) in domains.enumerated() {
                text += "  h\(number)-\(index).example: \(quoted(domain))\n"
                text += "  \"*.h\(number)-\(index).example\": \(quoted(domain))\n"
            }
            files.append(("environments/\(environment).yaml", text))
        }
        for (number, domain) in domains.enumerated() {
            var text = "applinks:\n  - apps: [\(quoted(apps[number]))]\n    rules:\n"
            text += "      - path: /admin/*\n        exclude: true\n"
            for rule in 0..<4 {
                let route = distinct(1, from: identifiers, avoiding: routesTaken)[0]
                routesTaken.insert(route.lowercased())
                let parameters = distinct(3, from: identifiers)
                let item = pick(itemNames)
                var path = "/r\(rule)/*"
                var query = ""
                var params = [
                    "\(quoted(parameters[0])): segment 1",
                    "\(quoted(parameters[1] + "?")): \(quoted("segment 2" + (rule % 2 == 0 ? " as int" : "")))",
                    "\(quoted(parameters[2] + "?")): \(quoted("query " + item))",
                ]
                if rule == 1 {
                    // The issue's names: `link` is the routers' own, and `id?` as int beside `idText?`
                    // once declared `idText` twice in Kotlin.
                    params = [
                        "link: segment 1", "\"id?\": \"segment 2 as int\"", "\"idText?\": \"query \(item)\"",
                    ]
                }
                if rule == 0 {
                    // The issue's trap: one name in two spellings in one query dictionary.
                    path = "/q/*"
                    query = "        query: {\"caf\\u00E9\": \"?*\", \"cafe\\u0301\": \"x*\"}\n"
                    params[2] = "\(quoted(parameters[2])): \(quoted("query caf\u{E9}"))"
                }
                text += "      - path: \(path)\n" + query + "        route: \(quoted(route))\n"
                text += "        params: {\(params.joined(separator: ", "))}\n"
            }
            text += "      - path: /home\n        route: none\n        reason: the start screen\n"
            text += "emit: {android_dynamic_rules: true}\n"
            files.append(("domains/\(domain).yaml", text))
        }
        return files
    }

    private static let fingerprint =
        "2C:F0:D7:85:52:59:58:D7:4E:29:8E:E9:82:0F:06:5C:08:56:41:90:23:7B:F9:05:05:E1:75:E1:0B:95:F2:28"

    /// The rules' own samples and random URLs, and URLs carrying every item name in each spelling,
    /// as written and percent-encoded.
    static func urls(_ samples: RouterSampleURLs, seed: UInt64) -> [String] {
        var generator = SplitMix64(seed: seed &+ 1000)
        var urls = samples.ruleSamples() + samples.randomURLs(count: 300, using: &generator)
        let encoded = itemNames.map { name in
            name.utf8.map { $0 < 0x80 ? String(UnicodeScalar($0)) : String(format: "%%%02X", $0) }.joined()
        }
        // Not `uniqued()`: it would take the two spellings of café for one.
        var names: [String] = []
        for name in itemNames + encoded
        where !names.contains(where: { $0.unicodeScalars.elementsEqual(name.unicodeScalars) }) {
            names.append(name)
        }
        for host in samples.hosts {
            for rule in 0..<4 {
                let path = rule == 0 ? "/q/7" : "/r\(rule)/7"
                urls += names.map { "https://\(host)\(path)?\($0)=x\($0)" }
                urls.append("https://\(host)\(path)?" + names.map { "\($0)=x1" }.joined(separator: "&"))
            }
        }
        return urls
    }
}
