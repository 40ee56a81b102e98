import Foundation
import LinkwrightCore

// Seeded configuration pairs (a base and a head one realistic change away) and the probe URLs
// both are decided on, for the behaviour diff's differential test. Everything here is built
// from the YAML format and the pattern syntax as documented (docs/configuration.md), not from
// the engine's own views, so the test compares the engine with something it did not derive.

// MARK: - Configuration model

/// Matching flags as written at one level; `nil` is "not written", inherited from above.
struct GeneratedFlags: Equatable {
    var caseSensitive: Bool?
    var percentEncoded: Bool?

    /// Whether a legacy `paths` entry can say the same: only `true` or nothing.
    var isPlain: Bool { caseSensitive != false && percentEncoded != false }
}

/// One item of a query dictionary.
struct GeneratedQueryItem: Equatable {
    var name: String
    var pattern: String
}

/// A rule's `query`: a pattern for the whole query string, or a dictionary of items.
enum GeneratedQuery: Equatable {
    case whole(String)
    case items([GeneratedQueryItem])
}

/// One rule of an applinks entry, as written in a domain file.
struct GeneratedRule: Equatable {
    var path: String?
    var query: GeneratedQuery?
    var fragment: String?
    var exclude = false
    var flags = GeneratedFlags()
    /// `environments:`; `nil` is every environment.
    var environments: [String]?

    /// Every pattern the rule holds: path, query (whole or each item's value) and fragment.
    var patterns: [String] {
        var patterns = [path, fragment].compactMap { $0 }
        switch query {
        case .whole(let pattern): patterns.append(pattern)
        case .items(let items): patterns += items.map(\.pattern)
        case nil: break
        }
        return patterns
    }

    /// Whether the rule translates exactly to a legacy path (what `emit.legacy_paths` needs).
    var isPlainPath: Bool {
        query == nil && fragment == nil && flags.isPlain && !(path ?? "").contains("$(")
    }
}

/// One `applinks` entry.
struct GeneratedEntry: Equatable {
    var apps: [String]
    var flags = GeneratedFlags()
    var androidSemantics = false
    var environments: [String]?
    var rules: [GeneratedRule]
}

/// A custom substitution variable.
struct GeneratedVariable: Equatable {
    var name: String
    var values: [String]
}

/// One domain file.
struct GeneratedDomain: Equatable {
    var name: String
    var flags = GeneratedFlags()
    var variables: [GeneratedVariable] = []
    var entries: [GeneratedEntry]
    var appclips: [String] = []
    var legacyPaths = false
    var androidDynamicRules = false
}

/// One app of an environment, with the platforms it ships on.
struct GeneratedApp: Equatable {
    var name: String
    var bundleID: String?
    /// The app's own team ID when it differs from the environment's.
    var teamID: String?
    var isAppClip = false
    var package: String?
    var fingerprint: String?
}

/// A `host: domain` pair of an environment.
struct GeneratedHostBinding: Equatable {
    var host: String
    var domain: String
}

/// One environment file.
struct GeneratedEnvironment: Equatable {
    var name: String
    var tier: String
    var teamID: String
    var developerMode = false
    var apps: [GeneratedApp]
    var hosts: [GeneratedHostBinding]
}

/// A whole configuration: what `PolicySnapshot.make` reads, as a model the edits change.
struct GeneratedConfiguration: Equatable {
    var environments: [GeneratedEnvironment]
    var domains: [GeneratedDomain]

    /// The files, path → YAML text.
    var files: [String: String] {
        var files: [String: String] = [:]
        for environment in environments { files["environments/\(environment.name).yaml"] = environment.yaml }
        for domain in domains { files["domains/\(domain.name).yaml"] = domain.yaml }
        return files
    }

    /// Whether some environment gives the app an Android build.
    func isAndroid(_ app: String) -> Bool {
        environments.contains { $0.apps.contains { $0.name == app && $0.package != nil } }
    }

    /// What would make the configuration fail to compile, as far as the generator's choices go
    /// (the compiler has the last word: the test fails on any configuration it rejects). Edits
    /// that break one of these are not applied.
    var problems: [String] {
        var problems: [String] = []
        let defined = Set(environments.flatMap { $0.apps.map(\.name) })
        for domain in domains {
            let variables = Set(domain.variables.map(\.name))
            for name in domain.entries.flatMap(\.apps) + domain.appclips where !defined.contains(name) {
                problems.append("\(domain.name) names \(name), defined nowhere")
            }
            for clip in domain.appclips
            where environments.contains(where: { $0.apps.contains { $0.name == clip && !$0.isAppClip } }) {
                problems.append("\(clip) is listed under appclips but is not an App Clip")
            }
            if domain.legacyPaths && !domain.flags.isPlain { problems.append("legacy paths with flags") }
            for entry in domain.entries {
                if entry.apps.isEmpty || entry.rules.isEmpty { problems.append("an entry without apps or rules") }
                if domain.legacyPaths && !entry.flags.isPlain { problems.append("legacy paths with entry flags") }
                let linksAndroid = entry.apps.contains(where: isAndroid)
                for rule in entry.rules {
                    if rule.path == nil && rule.query == nil && rule.fragment == nil { problems.append("empty rule") }
                    if case .items(let items)? = rule.query, items.isEmpty { problems.append("empty dictionary") }
                    if domain.legacyPaths && !rule.isPlainPath { problems.append("legacy paths with \(rule)") }
                    if domain.androidDynamicRules && linksAndroid, case .whole(let pattern)? = rule.query,
                        pattern != "*"
                    {
                        problems.append("a query string in dynamic rules")
                    }
                    for pattern in rule.patterns {
                        for case .variable(let name) in ProbePiece.pieces(of: pattern)
                        where !PatternVocabulary.predefined.contains(name) && !variables.contains(name) {
                            problems.append("$(\(name)) is not defined in \(domain.name)")
                        }
                    }
                }
            }
        }
        for environment in environments {
            for binding in environment.hosts where binding.host.hasPrefix("*.") {
                let root = String(binding.host.dropFirst(2))
                if let rootBinding = environment.hosts.first(where: { $0.host == root }),
                    rootBinding.domain != binding.domain
                {
                    problems.append("\(binding.host) and \(root) serve different domains")
                }
            }
        }
        return problems
    }
}

// MARK: - YAML

/// A YAML double-quoted scalar.
private func quoted(_ text: String) -> String {
    "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
}

/// A YAML flow list of plain names.
private func flowList(_ names: [String]) -> String { "[" + names.joined(separator: ", ") + "]" }

extension GeneratedFlags {
    /// The `case_sensitive` and `percent_encoded` lines, indented by `indent`.
    func lines(_ indent: String) -> [String] {
        var lines: [String] = []
        if let caseSensitive { lines.append(indent + "case_sensitive: \(caseSensitive)") }
        if let percentEncoded { lines.append(indent + "percent_encoded: \(percentEncoded)") }
        return lines
    }
}

extension GeneratedEnvironment {
    /// The environment file.
    var yaml: String {
        var lines = ["tier: \(tier)", "team_id: \(teamID)"]
        if developerMode { lines.append("entitlements_mode: developer") }
        lines.append("apps:")
        for app in apps {
            lines.append("  \(app.name):")
            if let bundleID = app.bundleID {
                lines += ["    ios:", "      bundle_id: \(bundleID)"]
                if let team = app.teamID { lines.append("      team_id: \(team)") }
                if app.isAppClip { lines.append("      app_clip: true") }
            }
            if let package = app.package, let fingerprint = app.fingerprint {
                lines += [
                    "    android:", "      package: \(package)", "      fingerprints:",
                    "        play-signing: \(quoted(fingerprint))",
                ]
            }
        }
        lines.append("hosts:")
        for binding in hosts { lines.append("  \(quoted(binding.host)): \(binding.domain)") }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension GeneratedDomain {
    /// The domain file.
    var yaml: String {
        var lines: [String] = []
        let defaults = flags.lines("  ")
        if !defaults.isEmpty { lines += ["defaults:"] + defaults }
        if !variables.isEmpty {
            lines.append("variables:")
            for variable in variables {
                lines.append("  \(variable.name): [" + variable.values.map(quoted).joined(separator: ", ") + "]")
            }
        }
        lines.append("applinks:")
        for entry in entries {
            lines.append("  - apps: \(flowList(entry.apps))")
            let entryDefaults = entry.flags.lines("      ")
            if !entryDefaults.isEmpty { lines += ["    defaults:"] + entryDefaults }
            if entry.androidSemantics { lines.append("    android_semantics: true") }
            if let environments = entry.environments { lines.append("    environments: \(flowList(environments))") }
            lines.append("    rules:")
            for rule in entry.rules { lines += rule.lines }
        }
        if !appclips.isEmpty { lines.append("appclips: \(flowList(appclips))") }
        if legacyPaths || androidDynamicRules {
            lines.append("emit:")
            if legacyPaths { lines.append("  legacy_paths: true") }
            if androidDynamicRules { lines.append("  android_dynamic_rules: true") }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension GeneratedRule {
    /// The rule as an item of an entry's `rules:` list.
    var lines: [String] {
        var fields: [String] = []
        if let path { fields.append("path: \(quoted(path))") }
        switch query {
        case .whole(let pattern): fields.append("query: \(quoted(pattern))")
        case .items(let items): fields += ["query:"] + items.map { "  \(quoted($0.name)): \(quoted($0.pattern))" }
        case nil: break
        }
        if let fragment { fields.append("fragment: \(quoted(fragment))") }
        if exclude { fields.append("exclude: true") }
        fields += flags.lines("")
        if let environments { fields.append("environments: \(flowList(environments))") }
        return fields.enumerated().map { ($0.offset == 0 ? "      - " : "        ") + $0.element }
    }
}

// MARK: - Vocabulary

/// The pieces generated patterns are made of. A small vocabulary on purpose: rules that share
/// pieces overlap, and overlapping rules are where orderings and edits change behaviour.
enum PatternVocabulary {
    /// Path segments: plain, upper-case (for `case_sensitive: false`), an escape and its decoded
    /// form (for `percent_encoded: false`), a dot, and `x`, which is also a probe filler.
    static let segments = ["p", "product", "a", "detail", "sale", "Shop", "café", "caf%C3%A9", "en", "x", "item.pdf"]
    static let itemNames = ["id", "ref", "q", "utm"]
    /// Query item values: required, optional, literal, a variable, a prefix, and empty.
    static let itemValues = ["?*", "*", "v1", "$(lang)", "a*", "", "x?", "V1"]
    /// Whole-query patterns; none of them is `*`, which the compiler treats as no query.
    static let wholeQueries = ["id=*", "ref=?*", "*id=?*", "q=$(lang)", "?*", "a=1&b=*", "*utm*"]
    static let fragments = ["top", "sec*", "?*", "", "$(lang)", "*x", "Top"]
    /// Values of the custom variable; Apple allows `*` and `?` in them.
    static let customValues = ["news", "blog", "v?", "x*", "Sale"]
    static let customName = "section"
    /// Apple's predefined substitution variables.
    static let predefined: Set<String> = ["alpha", "upper", "lower", "alnum", "digit", "xdigit", "region", "lang"]
}

// MARK: - Generator

/// What a rule may hold where it is written: legacy paths allow plain paths only, and a query
/// string cannot be translated into Android dynamic rules.
struct RuleProfile {
    /// Legacy paths: a path without variables, and no query, fragment or `false` flag.
    var plainOnly: Bool
    /// No Android app reads the entry's rules as dynamic rules.
    var allowsWholeQuery: Bool
    /// Custom variables the domain defines.
    var customVariables: [String]
}

/// Pairs of configurations from a seed: a base with several domains, entries and apps, and a
/// head one to three realistic edits away. The same seed gives the same pair on every machine.
struct DifferentialGenerator {
    private var random: SplitMix64

    /// The production environment's Apple team.
    static let teamID = "ABCDE12345"
    /// The partner app's own team.
    static let partnerTeamID = "PQRST67890"

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    /// A seed's pair, with the edits that lead from base to head, in words.
    static func pair(seed: UInt64) -> (base: GeneratedConfiguration, head: GeneratedConfiguration, edits: [String]) {
        var generator = DifferentialGenerator(seed: seed)
        let base = generator.configuration()
        var head = base
        var edits: [String] = []
        let count = generator.pick([1, 1, 1, 2, 2, 3])
        var attempts = 0
        while edits.count < count && attempts < 200 {
            attempts += 1
            var candidate = head
            guard let edit = generator.edit(&candidate), candidate.problems.isEmpty else { continue }
            head = candidate
            edits.append(edit)
        }
        if generator.chance(0.5) { generator.shuffleQueryItems(&head) }
        return (base, head, edits)
    }

    // MARK: Random choices

    /// True with `probability`.
    mutating func chance(_ probability: Double) -> Bool { Double.random(in: 0..<1, using: &random) < probability }
    /// One of `choices`, which must not be empty.
    mutating func pick<Element>(_ choices: [Element]) -> Element { choices.randomElement(using: &random)! }
    /// A number in `range`.
    mutating func number(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }

    /// A valid Android signing fingerprint: 32 upper-case hex bytes joined by colons.
    mutating func fingerprint() -> String {
        (0..<32).map { _ in
            let byte = String(UInt8.random(in: 0...255, using: &random), radix: 16, uppercase: true)
            return byte.count == 1 ? "0" + byte : byte
        }.joined(separator: ":")
    }

    // MARK: Base configuration

    /// A base configuration: production with four apps (one shipping on both platforms, an iOS
    /// app of another team, an App Clip, an Android-only app) and staging with some of them;
    /// a shop domain, sometimes with a wildcard host, and sometimes a blog domain beside it or
    /// nested under the shop's wildcard.
    mutating func configuration() -> GeneratedConfiguration {
        let wildcard = chance(0.5)
        let blog = chance(0.45)
        let nestedBlog = blog && wildcard && chance(0.35)
        var production = GeneratedEnvironment(
            name: "production", tier: "production", teamID: Self.teamID,
            apps: [
                GeneratedApp(
                    name: "shop", bundleID: "com.example.shop", package: "com.example.shop",
                    fingerprint: fingerprint()),
                GeneratedApp(name: "partner", bundleID: "com.example.partner", teamID: Self.partnerTeamID),
                GeneratedApp(name: "clip", bundleID: "com.example.shop.Clip", isAppClip: true),
                GeneratedApp(name: "droid", package: "com.example.droid", fingerprint: fingerprint()),
            ],
            hosts: [GeneratedHostBinding(host: "shop.example", domain: "shop")])
        if wildcard { production.hosts.append(GeneratedHostBinding(host: "*.shop.example", domain: "shop")) }
        if blog {
            production.hosts.append(
                GeneratedHostBinding(host: nestedBlog ? "blog.shop.example" : "blog.example", domain: "blog"))
        }
        var staging = GeneratedEnvironment(
            name: "staging", tier: "staging", teamID: Self.teamID, developerMode: true,
            apps: [
                GeneratedApp(
                    name: "shop", bundleID: "com.example.shop.staging", package: "com.example.shop.staging",
                    fingerprint: fingerprint())
            ],
            hosts: [GeneratedHostBinding(host: "staging.shop.example", domain: "shop")])
        if chance(0.5) {
            staging.apps.append(GeneratedApp(name: "partner", bundleID: "com.example.partner.staging"))
        }
        if chance(0.5) {
            staging.apps.append(
                GeneratedApp(name: "droid", package: "com.example.droid.staging", fingerprint: fingerprint()))
        }
        if blog { staging.hosts.append(GeneratedHostBinding(host: "staging.blog.example", domain: "blog")) }

        var configuration = GeneratedConfiguration(environments: [production, staging], domains: [])
        var rulesLeft = number(4...12)
        let shopRules = blog ? max(2, rulesLeft * 2 / 3) : rulesLeft
        configuration.domains.append(domain("shop", rules: shopRules, in: configuration))
        rulesLeft -= shopRules
        if blog { configuration.domains.append(domain("blog", rules: max(1, rulesLeft), in: configuration)) }
        return configuration
    }

    /// A domain with about `rules` rules spread over its entries: a main entry, and sometimes an
    /// App Clip entry in front, an iOS-only partner entry, and an Android-only entry written
    /// with Android's semantics.
    mutating func domain(_ name: String, rules: Int, in configuration: GeneratedConfiguration) -> GeneratedDomain {
        var domain = GeneratedDomain(name: name, entries: [])
        domain.legacyPaths = chance(0.15)
        domain.androidDynamicRules = chance(0.65)
        if !domain.legacyPaths {
            if chance(0.4) {
                let values = Array(PatternVocabulary.customValues.shuffled(using: &random).prefix(number(2...3)))
                domain.variables = [GeneratedVariable(name: PatternVocabulary.customName, values: values)]
            }
            if chance(0.2) { domain.flags = randomFlags() }
        }
        var entries: [GeneratedEntry] = []
        if chance(0.35) {
            entries.append(GeneratedEntry(apps: ["clip"], rules: []))
            domain.appclips = ["clip"]
        }
        var mainApps = ["shop"]
        if chance(0.4) { mainApps.append("partner") }
        if chance(0.3) { mainApps.append("droid") }
        entries.append(GeneratedEntry(apps: mainApps.shuffled(using: &random), rules: []))
        if !mainApps.contains("partner") && chance(0.4) { entries.append(GeneratedEntry(apps: ["partner"], rules: [])) }
        if !mainApps.contains("droid") && chance(0.4) {
            entries.append(GeneratedEntry(apps: ["droid"], androidSemantics: true, rules: []))
        }
        if !domain.legacyPaths && chance(0.2) { entries[entries.count - 1].flags = randomFlags() }
        domain.entries = entries
        // Every entry gets a rule; the rest go to random entries.
        for index in 0..<max(rules, entries.count) {
            let entry = index < entries.count ? index : number(0...(entries.count - 1))
            let profile = self.profile(domain, entry: domain.entries[entry], in: configuration)
            domain.entries[entry].rules.append(rule(profile))
        }
        return domain
    }

    /// What a rule of `entry` in `domain` may hold.
    func profile(_ domain: GeneratedDomain, entry: GeneratedEntry, in configuration: GeneratedConfiguration)
        -> RuleProfile
    {
        let linksAndroid = entry.apps.contains(where: configuration.isAndroid)
        return RuleProfile(
            plainOnly: domain.legacyPaths, allowsWholeQuery: !(domain.androidDynamicRules && linksAndroid),
            customVariables: domain.variables.map(\.name))
    }

    /// Flags at one level: each written or not, mostly `false` when written (`true` is the default).
    mutating func randomFlags() -> GeneratedFlags {
        GeneratedFlags(
            caseSensitive: chance(0.6) ? chance(0.3) : nil, percentEncoded: chance(0.6) ? chance(0.3) : nil)
    }

    // MARK: Rules

    /// A path pattern of one of the shapes the diff must handle.
    mutating func pathPattern(_ profile: RuleProfile) -> String {
        let first = pick(PatternVocabulary.segments)
        let second = pick(PatternVocabulary.segments)
        var shapes = [
            "/" + first,
            "/" + first + "/" + second,
            "/" + first + "/",
            "/" + first + "/*",
            "/" + first + "/" + second + "/*",
            "*/" + first,
            "*.pdf",
            "/*/" + first + "/*",
            "/" + first + "/*/" + second + "/" + String(repeating: "?", count: number(1...4)),
            "/" + first + "/" + String(repeating: "?", count: number(1...3)),
            "/" + first + "/?*",
            "/" + first + "?*",
            "/" + first + "/**",
            "*",
            "/*",
        ]
        if !profile.plainOnly {
            shapes += [
                "/$(lang)/" + first + "/*",
                "/$(region)/*",
                "/v$(digit)/*",
                "/$(lang)_$(region)/" + first,
            ]
            for name in profile.customVariables {
                shapes += ["/$(\(name))/" + first, "/" + first + "/$(\(name))*"]
            }
        }
        return pick(shapes)
    }

    /// A query dictionary of one to three items.
    mutating func queryItems(_ profile: RuleProfile) -> [GeneratedQueryItem] {
        let names = PatternVocabulary.itemNames.shuffled(using: &random).prefix(number(1...3))
        let values = PatternVocabulary.itemValues + profile.customVariables.map { "$(\($0))" }
        return names.map { GeneratedQueryItem(name: $0, pattern: pick(values)) }
    }

    /// A fragment pattern, the domain's custom variables included.
    mutating func fragmentPattern(_ profile: RuleProfile) -> String {
        pick(PatternVocabulary.fragments + profile.customVariables.map { "$(\($0))" })
    }

    /// A new rule: a path, sometimes a query or fragment (or only those), sometimes an
    /// exclusion, sometimes its own flags.
    mutating func rule(_ profile: RuleProfile) -> GeneratedRule {
        var rule = GeneratedRule(path: pathPattern(profile))
        if !profile.plainOnly {
            if chance(0.3) {
                rule.query =
                    profile.allowsWholeQuery && chance(0.35)
                    ? .whole(pick(PatternVocabulary.wholeQueries)) : .items(queryItems(profile))
            }
            if chance(0.2) { rule.fragment = fragmentPattern(profile) }
            if (rule.query != nil || rule.fragment != nil) && chance(0.2) { rule.path = nil }
            if chance(0.15) { rule.flags.caseSensitive = chance(0.7) ? false : true }
            if chance(0.15) { rule.flags.percentEncoded = chance(0.7) ? false : true }
        }
        rule.exclude = chance(0.3)
        if chance(0.08) { rule.environments = [pick(["production", "staging"])] }
        return rule
    }

    // MARK: Edits

    /// Where a rule is: domain, entry and rule index.
    struct RulePosition {
        var domain: Int
        var entry: Int
        var rule: Int
    }

    /// Every rule of `configuration`, in file order.
    func rulePositions(_ configuration: GeneratedConfiguration) -> [RulePosition] {
        configuration.domains.indices.flatMap { domain in
            configuration.domains[domain].entries.indices.flatMap { entry in
                configuration.domains[domain].entries[entry].rules.indices.map {
                    RulePosition(domain: domain, entry: entry, rule: $0)
                }
            }
        }
    }

    /// One random edit applied to `configuration`, described; `nil` when the edit drawn does
    /// not apply to it (the caller draws again).
    mutating func edit(_ configuration: inout GeneratedConfiguration) -> String? {
        let positions = rulePositions(configuration)
        let position = pick(positions)
        let domain = configuration.domains[position.domain]
        let entry = domain.entries[position.entry]
        let rule = entry.rules[position.rule]
        let profile = self.profile(domain, entry: entry, in: configuration)
        let at = "\(domain.name) entry \(position.entry) rule \(position.rule)"
        func update(_ change: (inout GeneratedRule) -> Void) {
            change(&configuration.domains[position.domain].entries[position.entry].rules[position.rule])
        }
        func updateEntry(_ change: (inout GeneratedEntry) -> Void) {
            change(&configuration.domains[position.domain].entries[position.entry])
        }
        // Hand-overs (13, 14) twice as often: they are the edits where one app loses what another gains.
        switch pick(Array(0...15) + [13, 14]) {
        case 0:
            // An exclusion moves down by k, or to the end of its entry.
            guard rule.exclude, position.rule < entry.rules.count - 1 else { return nil }
            let target = chance(0.5) ? entry.rules.count - 1 : min(entry.rules.count - 1, position.rule + number(1...3))
            updateEntry { $0.rules.insert($0.rules.remove(at: position.rule), at: target) }
            return "move the exclusion at \(at) to position \(target)"
        case 1:
            guard position.rule < entry.rules.count - 1 else { return nil }
            updateEntry { $0.rules.swapAt(position.rule, position.rule + 1) }
            return "swap \(at) with the next rule"
        case 2:
            guard entry.rules.count > 1 else { return nil }
            updateEntry { $0.rules.remove(at: position.rule) }
            return "delete \(at)"
        case 3:
            let new = self.rule(profile)
            let index = number(0...entry.rules.count)
            updateEntry { $0.rules.insert(new, at: index) }
            return "add a rule at \(domain.name) entry \(position.entry) position \(index)"
        case 4:
            let path = changedPath(rule.path, profile)
            guard path != rule.path, path != nil || rule.query != nil || rule.fragment != nil else { return nil }
            update { $0.path = path }
            return "change the path of \(at) to \(path ?? "none")"
        case 5:
            guard !profile.plainOnly, let query = changedQuery(rule.query, profile), query != rule.query else {
                return nil
            }
            update { $0.query = query }
            return "change the query of \(at)"
        case 6:
            guard !profile.plainOnly else { return nil }
            let fragment: String? = rule.fragment != nil && chance(0.4) ? nil : fragmentPattern(profile)
            guard fragment != rule.fragment, fragment != nil || rule.path != nil || rule.query != nil else {
                return nil
            }
            update { $0.fragment = fragment }
            return "change the fragment of \(at) to \(fragment ?? "none")"
        case 7:
            update { $0.exclude.toggle() }
            return "toggle exclude on \(at)"
        case 8:
            guard !profile.plainOnly else { return nil }
            let flags = randomFlags()
            switch number(0...2) {
            case 0: update { $0.flags = flags }
            case 1: updateEntry { $0.flags = flags }
            default: configuration.domains[position.domain].flags = flags
            }
            return "change the flags of \(at), its entry or its domain to \(flags)"
        case 9:
            guard entry.apps.count > 1 else { return nil }
            let app = pick(entry.apps)
            updateEntry { $0.apps.removeAll { $0 == app } }
            return "drop \(app) from \(domain.name) entry \(position.entry)"
        case 10:
            guard !entry.androidSemantics else { return nil }
            let candidates = ["shop", "partner", "droid"].filter { !entry.apps.contains($0) }
            guard !candidates.isEmpty else { return nil }
            let app = pick(candidates)
            updateEntry { $0.apps.insert(app, at: number(0...$0.apps.count)) }
            return "add \(app) to \(domain.name) entry \(position.entry)"
        case 11:
            // An app leaves one environment; it stays defined in the other.
            let environment = number(0...(configuration.environments.count - 1))
            let apps = configuration.environments[environment].apps
            let name = pick(apps).name
            let elsewhere = configuration.environments.indices.contains {
                $0 != environment && configuration.environments[$0].apps.contains { $0.name == name }
            }
            guard apps.count > 1, elsewhere else { return nil }
            configuration.environments[environment].apps.removeAll { $0.name == name }
            return "drop \(name) from \(configuration.environments[environment].name)"
        case 12:
            // Promote a rule limited to one environment, or limit one.
            let environments: [String]? = rule.environments == nil ? [pick(["production", "staging"])] : nil
            update { $0.environments = environments }
            return "set the environments of \(at) to \(environments ?? ["all"])"
        case 13:
            // An entry is handed over to another app: the one leaving loses what the other gains.
            guard !entry.androidSemantics else { return nil }
            let candidates = ["shop", "partner", "droid", "clip"].filter { !entry.apps.contains($0) }
            guard !candidates.isEmpty else { return nil }
            let leaving = pick(entry.apps)
            let arriving = pick(candidates)
            updateEntry { $0.apps = $0.apps.map { $0 == leaving ? arriving : $0 } }
            return "hand \(domain.name) entry \(position.entry) from \(leaving) to \(arriving)"
        case 14:
            // A rule moves to another entry, so it opens other apps.
            let others = domain.entries.indices.filter { $0 != position.entry }
            guard entry.rules.count > 1, let target = others.randomElement(using: &random) else { return nil }
            let index = number(0...domain.entries[target].rules.count)
            updateEntry { $0.rules.remove(at: position.rule) }
            configuration.domains[position.domain].entries[target].rules.insert(rule, at: index)
            return "move \(at) to entry \(target) position \(index)"
        default:
            return hostOrEmitEdit(&configuration, domain: position.domain)
        }
    }

    /// A path pattern one change away: another shape, a segment replaced, a star added or
    /// taken away, a slash toggled, a letter's case changed, or no path at all (the rule then
    /// reads its query or fragment alone).
    mutating func changedPath(_ path: String?, _ profile: RuleProfile) -> String? {
        guard let path else { return pathPattern(profile) }
        switch number(0...6) {
        case 0: return pathPattern(profile)
        case 6: return nil
        case 1:
            let segments = PatternVocabulary.segments
            guard let old = segments.first(where: { path.contains($0) }) else { return path + "/*" }
            return path.replacingOccurrences(of: old, with: pick(segments))
        case 2: return path.hasSuffix("/*") ? String(path.dropLast(2)) : path + "/*"
        case 3: return path.replacingOccurrences(of: "/*", with: "/?*")
        case 4: return path.hasSuffix("/") ? String(path.dropLast()) : path + "/"
        default: return path.lowercased() == path ? path.capitalized : path.lowercased()
        }
    }

    /// A query one change away: an item's value, name, an item added or removed, or the query
    /// replaced (a string where the profile allows it) or removed.
    mutating func changedQuery(_ query: GeneratedQuery?, _ profile: RuleProfile) -> GeneratedQuery? {
        guard case .items(var items)? = query else {
            return profile.allowsWholeQuery && chance(0.4)
                ? .whole(pick(PatternVocabulary.wholeQueries)) : .items(queryItems(profile))
        }
        let index = number(0...(items.count - 1))
        switch number(0...3) {
        case 0: items[index].pattern = pick(PatternVocabulary.itemValues)
        case 1:
            let names = PatternVocabulary.itemNames.filter { name in !items.contains { $0.name == name } }
            guard let name = names.randomElement(using: &random) else { return nil }
            items[index].name = name
        case 2:
            let names = PatternVocabulary.itemNames.filter { name in !items.contains { $0.name == name } }
            guard let name = names.randomElement(using: &random) else { return nil }
            items.insert(
                GeneratedQueryItem(name: name, pattern: pick(PatternVocabulary.itemValues)),
                at: number(0...items.count))
        default:
            guard items.count > 1 else { return nil }
            items.remove(at: index)
        }
        return .items(items)
    }

    /// The wildcard host comes or goes, or a domain's Android dynamic rules are switched.
    mutating func hostOrEmitEdit(_ configuration: inout GeneratedConfiguration, domain: Int) -> String? {
        if chance(0.5) {
            configuration.domains[domain].androidDynamicRules.toggle()
            let state = configuration.domains[domain].androidDynamicRules ? "on" : "off"
            return "switch Android dynamic rules \(state) for \(configuration.domains[domain].name)"
        }
        let wildcard = GeneratedHostBinding(host: "*.shop.example", domain: "shop")
        if let index = configuration.environments[0].hosts.firstIndex(of: wildcard) {
            // A nested host stays served by its own domain.
            configuration.environments[0].hosts.remove(at: index)
            return "stop serving *.shop.example"
        }
        configuration.environments[0].hosts.insert(wildcard, at: 1)
        return "serve *.shop.example"
    }

    /// Reorders the items of every query dictionary: item order means nothing, so the diff must
    /// not see a change in it.
    mutating func shuffleQueryItems(_ configuration: inout GeneratedConfiguration) {
        for position in rulePositions(configuration) {
            let path = \GeneratedConfiguration.domains[position.domain].entries[position.entry].rules[position.rule]
            if case .items(let items)? = configuration[keyPath: path].query {
                configuration[keyPath: path].query = .items(items.shuffled(using: &random))
            }
        }
    }
}

// MARK: - Probes

/// A piece of a pattern as the documented syntax reads it: literal text, `*`, `?`, `$(name)`.
enum ProbePiece: Equatable {
    case literal(String)
    case star
    case one
    case variable(String)

    /// The pieces of `pattern`; a `$(` without `)` is literal text.
    static func pieces(of pattern: String) -> [ProbePiece] {
        var pieces: [ProbePiece] = []
        var literal = ""
        var rest = Substring(pattern)
        func flush() {
            if !literal.isEmpty { pieces.append(.literal(literal)) }
            literal = ""
        }
        while let first = rest.first {
            if first == "*" || first == "?" {
                flush()
                pieces.append(first == "*" ? .star : .one)
                rest = rest.dropFirst()
            } else if rest.hasPrefix("$("), let close = rest.firstIndex(of: ")") {
                flush()
                pieces.append(.variable(String(rest[rest.index(rest.startIndex, offsetBy: 2)..<close])))
                rest = rest[rest.index(after: close)...]
            } else {
                literal.append(first)
                rest = rest.dropFirst()
            }
        }
        flush()
        return pieces
    }
}

/// The URLs a pair is decided on, as path, query and fragment without scheme and host. Built
/// from every rule's literal pieces, crossed: each pattern of either side instantiated with
/// several fillers (empty, `x`, `x/y`, other rules' pieces, variable values, ISO codes), the
/// prefixes of one crossed with the suffixes of another, then trailing- and double-slash,
/// case and percent-encoding variants; queries and fragments likewise from the rules' items
/// and patterns; then path × query × fragment, most telling combinations first, up to `limit`.
struct DifferentialProbes {
    /// `path?query#fragment` texts, each once.
    private(set) var suffixes: [String] = []
    /// `suffixes` as a set, so each probe is added once.
    private var seen: Set<String> = []
    private var random: SplitMix64
    /// What each variable may stand for in an instance: values, and texts that are none.
    private let variables: [String: [String]]
    /// Literal text of every pattern, whole and split at `/`.
    private let literals: [String]

    init(_ configurations: [GeneratedConfiguration], seed: UInt64, limit: Int) {
        random = SplitMix64(seed: seed ^ 0x5EED_0F_960B_E5)
        let rules = configurations.flatMap { $0.domains.flatMap { $0.entries.flatMap(\.rules) } }
        var variables: [String: [String]] = [
            "lang": ["en", "fr", "EN", "zz"], "region": ["US", "FR", "us", "ZZ"], "digit": ["7", "0", "x"],
            "alpha": ["a", "Z", "5"], "upper": ["A", "a"], "lower": ["a", "A"], "alnum": ["a", "5", "-"],
            "xdigit": ["f", "G"],
        ]
        // A custom variable's values, and a text that is none of them.
        for variable in configurations.flatMap({ $0.domains.flatMap(\.variables) }) {
            variables[variable.name] = ((variables[variable.name] ?? ["nope"]) + variable.values).uniqued()
        }
        self.variables = variables
        var literals: [String] = []
        for pattern in rules.flatMap(\.patterns) {
            for case .literal(let text) in ProbePiece.pieces(of: pattern) {
                for piece in [text] + text.split(separator: "/").map(String.init) where !literals.contains(piece) {
                    literals.append(piece)
                }
            }
        }
        self.literals = literals
        build(rules: rules, limit: limit)
    }

    /// Adds `path?query#fragment` (`nil`: no `?` or `#`) unless it is there already.
    private mutating func add(_ path: String, _ query: String?, _ fragment: String?) {
        let text = path + (query.map { "?" + $0 } ?? "") + (fragment.map { "#" + $0 } ?? "")
        if seen.insert(text).inserted { suffixes.append(text) }
    }

    // MARK: Instances

    /// What a `*` may stand for.
    private var starFillers: [String] { ["", "x", "x/y", "/", "é", "en", "US"] + literals }
    /// What a `?` may stand for: one scalar.
    private static let oneFillers = ["x", "1", "A", "é", "/", "%"]

    /// Texts matching `pattern` (and some nearly matching it): systematic fillers first, one
    /// instance per value of each variable, then random fillers.
    private mutating func instances(of pattern: String, random count: Int) -> [String] {
        let pieces = ProbePiece.pieces(of: pattern)
        var results: [String] = []
        func append(_ text: String) { if !results.contains(text) { results.append(text) } }
        let stars = starFillers
        for choice in 0..<3 {
            append(
                instance(pieces) { piece in
                    switch piece {
                    case .star: return ["", "x", "x/y"][choice]
                    case .one: return Self.oneFillers[choice]
                    case .variable(let name):
                        let values = variables[name] ?? ["x"]
                        return values[min(choice, values.count - 1)]
                    case .literal(let text): return text
                    }
                })
        }
        for case .variable(let name) in pieces {
            for value in variables[name] ?? [] {
                append(
                    instance(pieces) { piece in
                        if case .variable(name) = piece { return value }
                        if case .literal(let text) = piece { return text }
                        return piece == .star ? "" : "x"
                    })
            }
        }
        for _ in 0..<count {
            var generator = random
            append(
                instance(pieces) { piece in
                    switch piece {
                    case .star: return stars.randomElement(using: &generator)!
                    case .one: return Self.oneFillers.randomElement(using: &generator)!
                    case .variable(let name): return (variables[name] ?? ["x"]).randomElement(using: &generator)!
                    case .literal(let text): return text
                    }
                })
            random = generator
        }
        return results
    }

    /// `pieces` with each wildcard replaced by `filler`'s choice; a variable's value may hold
    /// `*` and `?` itself, which are filled in turn.
    private func instance(_ pieces: [ProbePiece], _ filler: (ProbePiece) -> String) -> String {
        pieces.map { piece in
            let text = filler(piece)
            guard case .variable = piece else { return text }
            return ProbePiece.pieces(of: text).map { inner in
                switch inner {
                case .literal(let literal): literal
                case .star: ""
                case .one, .variable: "x"
                }
            }.joined()
        }.joined()
    }

    // MARK: Paths

    /// A path as a URL holds it: starting with `/`, without `?` or `#` (which would end it).
    private static func asPath(_ text: String) -> String {
        let cleaned = text.replacingOccurrences(of: "?", with: "%3F").replacingOccurrences(of: "#", with: "%23")
        return cleaned.isEmpty || cleaned.hasPrefix("/") ? cleaned : "/" + cleaned
    }

    /// Spellings a device may meet for the same or a neighbouring path: trailing and doubled
    /// slashes, other cases, one character percent-encoded (ASCII, `/`, non-ASCII, lower-case
    /// hex), escapes decoded, and broken escapes.
    private mutating func variants(of path: String) -> [String] {
        var variants = [
            path.hasSuffix("/") ? String(path.dropLast()) : path + "/",
            path + "//",
            "/" + path,
            path.uppercased(),
            path.lowercased(),
            path.replacingOccurrences(of: "%C3%A9", with: "é").replacingOccurrences(of: "%2F", with: "/"),
            path.replacingOccurrences(of: "é", with: "%C3%A9"),
            path.replacingOccurrences(of: "é", with: "%c3%a9"),
            path + "%",
            path + "%C3",
        ]
        let scalars = Array(path.unicodeScalars)
        if !scalars.isEmpty {
            let position = Int.random(in: 0..<scalars.count, using: &random)
            let encoded = String(scalars[position]).utf8.map { "%" + String($0, radix: 16, uppercase: true) }.joined()
            var prefix = String.UnicodeScalarView(scalars[..<position])
            prefix.append(contentsOf: encoded.unicodeScalars)
            prefix.append(contentsOf: scalars[(position + 1)...])
            variants.append(String(prefix))
            if let slash = scalars.lastIndex(of: "/") {
                variants.append(
                    String(String.UnicodeScalarView(scalars[..<slash])) + "%2F"
                        + String(
                            String.UnicodeScalarView(scalars[(slash + 1)...])))
            }
            if let letter = scalars.firstIndex(where: { $0.properties.isLowercase }) {
                var upper = scalars
                upper[letter] = String(scalars[letter]).uppercased().unicodeScalars.first!
                variants.append(String(String.UnicodeScalarView(upper)))
            }
        }
        return variants.map(Self.asPath)
    }

    /// Paths, the most telling first: a few fixed ones and each rule's instances, then the
    /// literal pieces, the crosses, and the variants of all of them, taken in turns.
    private mutating func paths(rules: [GeneratedRule]) -> (all: [String], byRule: [[String]]) {
        let fixed = ["", "/", "//", "/x", "/x/y", "/%41", "/%2F"]
        var byRule: [[String]] = []
        for rule in rules { byRule.append(instances(of: rule.path ?? "*", random: 4).map(Self.asPath)) }
        let own = interleaved(byRule)
        let pieces = literals.map(Self.asPath)
        // Prefixes of one rule's instance crossed with suffixes of another's.
        var crosses: [String] = []
        if !own.isEmpty {
            for _ in 0..<(own.count * 2) {
                let head = own.randomElement(using: &random)!.split(separator: "/", omittingEmptySubsequences: false)
                let tail = own.randomElement(using: &random)!.split(separator: "/", omittingEmptySubsequences: false)
                let cut = Int.random(in: 0...head.count, using: &random)
                let from = Int.random(in: 0...tail.count, using: &random)
                crosses.append(Self.asPath((head[..<cut] + tail[from...]).joined(separator: "/")))
            }
        }
        var ownVariants: [[String]] = []
        for path in own { ownVariants.append(variants(of: path)) }
        var otherVariants: [[String]] = []
        for path in pieces + crosses { otherVariants.append(variants(of: path)) }
        let all = interleaved([
            fixed + own, pieces, crosses, interleaved(ownVariants), interleaved(otherVariants),
        ])
        return (all.uniqued(), byRule)
    }

    // MARK: Queries and fragments

    /// Queries telling each rule's dictionary apart: each item empty, matched, valueless,
    /// repeated, re-cased, with an escaped name; the whole dictionary in both orders, with an
    /// extra item, without one item; instances of query strings.
    private mutating func queries(rules: [GeneratedRule]) -> (all: [String?], byRule: [[String?]]) {
        var all: [String?] = [nil, "", "x", "x=1"]
        var byRule: [[String?]] = []
        for rule in rules {
            var own: [String?] = []
            switch rule.query {
            case .items(let items):
                var matched: [String] = []
                for item in items {
                    let values = instances(of: item.pattern, random: 2)
                    let value = values.first ?? ""
                    matched.append("\(item.name)=\(value)")
                    own += values.map { "\(item.name)=\($0)" }
                    own += [
                        "\(item.name)=", item.name, "\(item.name)=\(value)&\(item.name)=",
                        "\(item.name)=\(value)&\(item.name)=\(values.last ?? "")", "\(item.name)=\(value.uppercased())",
                        "%" + String(item.name.utf8.first!, radix: 16, uppercase: true) + item.name.dropFirst()
                            + "=\(value)",
                    ]
                }
                own += [
                    matched.joined(separator: "&"), matched.reversed().joined(separator: "&"),
                    matched.joined(separator: "&") + "&extra=1", matched.dropFirst().joined(separator: "&"),
                ]
            case .whole(let pattern):
                let values = instances(of: pattern, random: 4)
                own += values + values.map { $0.uppercased() }
            case nil:
                break
            }
            own = own.map { $0.map { $0.replacingOccurrences(of: "#", with: "%23") } }
            byRule.append(own)
            all += own
        }
        return (all.uniqued(), byRule)
    }

    /// Fragments: none, empty, and each fragment pattern's instances as written, upper-cased and
    /// behind an escape.
    private mutating func fragments(rules: [GeneratedRule]) -> (all: [String?], byRule: [[String?]]) {
        var all: [String?] = [nil, "", "x"]
        var byRule: [[String?]] = []
        for rule in rules {
            guard let fragment = rule.fragment else {
                byRule.append([])
                continue
            }
            let values = instances(of: fragment, random: 3)
            let own: [String?] = values + values.map { $0.uppercased() } + values.map { "%41" + $0 }
            byRule.append(own)
            all += own
        }
        return (all.uniqued(), byRule)
    }

    // MARK: Crossing

    /// Path × query × fragment up to `limit`, taking in turns from: each rule's own path
    /// instances with its own queries and fragments; every path alone; every query, and every
    /// fragment, on the paths of the rules that read them; random combinations.
    private mutating func build(rules: [GeneratedRule], limit: Int) {
        typealias Probe = (path: String, query: String?, fragment: String?)
        let (paths, rulePaths) = self.paths(rules: rules)
        let (queries, ruleQueries) = self.queries(rules: rules)
        let (fragments, ruleFragments) = self.fragments(rules: rules)
        var anchors = ["", "/"]
        var own: [[Probe]] = []
        for (index, rule) in rules.enumerated() where rule.query != nil || rule.fragment != nil {
            anchors += rulePaths[index].prefix(2)
            var probes: [Probe] = []
            for query in [nil] + ruleQueries[index] {
                for fragment in [nil] + ruleFragments[index] {
                    for path in rulePaths[index].prefix(3) { probes.append((path, query, fragment)) }
                }
            }
            own.append(probes)
        }
        anchors = anchors.uniqued()
        let alone: [Probe] = paths.map { ($0, nil, nil) }
        let withQueries: [Probe] = queries.flatMap { query in anchors.map { ($0, query, nil) } }
        let withFragments: [Probe] = fragments.flatMap { fragment in anchors.map { ($0, nil, fragment) } }
        var randomly: [Probe] = []
        for _ in 0..<limit {
            randomly.append(
                (
                    paths.randomElement(using: &random)!, queries.randomElement(using: &random)!,
                    fragments.randomElement(using: &random)!
                ))
        }
        for probe in interleaved([interleaved(own), alone, withQueries, withFragments, randomly]) {
            guard suffixes.count < limit else { break }
            add(probe.path, probe.query, probe.fragment)
        }
    }
}

/// The elements of `streams` taken in turns, one from each stream that still has some.
private func interleaved<Element>(_ streams: [[Element]]) -> [Element] {
    var result: [Element] = []
    let longest = streams.map(\.count).max() ?? 0
    for position in 0..<longest {
        for stream in streams where position < stream.count { result.append(stream[position]) }
    }
    return result
}

extension Array where Element: Hashable {
    /// The elements in order, each once.
    fileprivate func uniqued() -> [Element] {
        var seen: Set<Element> = []
        return filter { seen.insert($0).inserted }
    }
}
