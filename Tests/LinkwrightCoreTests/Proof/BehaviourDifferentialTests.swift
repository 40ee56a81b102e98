import Foundation
import Testing

@testable import LinkwrightCore

// The behaviour diff claims to be exact: every way two revisions decide some URL differently is
// found (complete), and every URL it shows really decides so (sound). This suite checks both
// claims against brute force on seeded configuration pairs: every probe URL is decided on both
// sides as devices decide it (`EnvironmentEvaluator`), and what differs must be what the diff
// reports. `scripts/differential.sh` runs many more seeds in a release build.

/// A platform links are decided on (Swift Testing has an `Expectation` of its own).
typealias LinkPlatform = LinkwrightCore.Platform

/// How one side decides a URL for one app: the claim, the outcome and the deciding rule.
struct SideKey: Hashable, CustomStringConvertible {
    /// The host the app's claim names, `none` when it claims nothing here, `absent` when the app
    /// is not part of the environment on this side.
    var claim: String
    var outcome: LinkOutcome
    var entry: Int?
    var rule: Int?

    init(_ verdict: EnvironmentEvaluator.Verdict?) {
        claim = verdict.map { $0.claim.declared ?? "none" } ?? "absent"
        outcome = verdict?.decision.outcome ?? .noMatch
        entry = verdict?.decision.entryIndex
        rule = verdict?.decision.ruleIndex
    }

    var description: String {
        let decidedBy = (entry.map { " entry \($0)" } ?? "") + (rule.map { " rule \($0)" } ?? "")
        return "claim \(claim), \(outcome.rawValue)" + decidedBy
    }
}

/// One way of deciding differently: for one app on one host and platform of one environment,
/// URLs the base decides one way and the head another, with opposite outcomes.
struct DifferenceKey: Hashable, CustomStringConvertible {
    var environment: String
    /// The host as configured (`*.x` for a wildcard binding).
    var host: String
    var platform: LinkPlatform
    var identity: String
    var before: SideKey
    var after: SideKey

    init(_ observation: BehaviourDiff.Observation) {
        self.init(
            environment: observation.environment, host: observation.host, platform: observation.platform,
            identity: observation.identity, before: observation.before, after: observation.after)
    }

    init(
        environment: String, host: String, platform: LinkPlatform, identity: String,
        before: EnvironmentEvaluator.Verdict?, after: EnvironmentEvaluator.Verdict?
    ) {
        self.environment = environment
        self.host = host
        self.platform = platform
        self.identity = identity
        self.before = SideKey(before)
        self.after = SideKey(after)
    }

    var description: String {
        "\(environment) \(host) \(platform.rawValue) \(identity): before \(before); after \(after)"
    }
}

/// One app losing URLs to another on one host and platform of one environment.
struct JointKey: Hashable, CustomStringConvertible {
    var environment: String
    var host: String
    var platform: LinkPlatform
    var lost: String
    var gained: String

    var description: String { "\(environment) \(host) \(platform.rawValue): \(lost) → \(gained)" }
}

/// An environment present on both sides: its evaluators, and the hosts either side serves, each
/// with the host name its URLs are tried on (the diff's own choice for a wildcard binding). A
/// host served on one side only is decided on the other by whatever claims its name there.
struct SharedEnvironment {
    let name: String
    let before: EnvironmentEvaluator
    let after: EnvironmentEvaluator
    /// Hosts served on either side: as configured, and the name URLs are tried on.
    let hosts: [(configured: String, concrete: String)]

    /// Every environment of `head` that `base` has too, Android decided as `androidRelease` does.
    static func all(base: PolicySnapshot, head: PolicySnapshot, androidRelease: AndroidRelease = .latest)
        -> [SharedEnvironment]
    {
        head.compiled.environments.compactMap { after -> SharedEnvironment? in
            guard let before = base.compiled.environments.first(where: { $0.name == after.name }) else { return nil }
            let mentioned = Set((before.sites + after.sites).flatMap { $0.servedHosts.map(\.name) })
            var hosts: [(String, String)] = []
            for host in (after.sites + before.sites).flatMap(\.servedHosts)
            where !hosts.contains(where: { $0.0 == host.name }) {
                hosts.append((host.name, URLSamples.host(for: host, avoiding: mentioned)))
            }
            return SharedEnvironment(
                name: after.name, before: EnvironmentEvaluator(before, androidRelease: androidRelease),
                after: EnvironmentEvaluator(after, androidRelease: androidRelease), hosts: hosts)
        }
    }

    /// Each app's verdicts on both sides for `url`, by identity, in a stable order.
    func verdicts(_ url: LinkURL, _ platform: LinkPlatform)
        -> [(identity: String, before: EnvironmentEvaluator.Verdict?, after: EnvironmentEvaluator.Verdict?)]
    {
        let old = before.verdicts(for: url, platform: platform)
        let new = after.verdicts(for: url, platform: platform)
        var identities = new.map(\.identity)
        identities += old.map(\.identity).filter { !identities.contains($0) }
        return identities.map { identity in
            (identity, old.first { $0.identity == identity }, new.first { $0.identity == identity })
        }
    }
}

/// What brute force finds: every way of differing and every joint change the probes show, each
/// with the first probe URL showing it.
struct GroundTruth {
    /// Each way of differing, with the first probe URL showing it.
    var differences: [DifferenceKey: String] = [:]
    /// Each app losing URLs another gains, with the first probe URL showing it.
    var joint: [JointKey: String] = [:]
    /// Probe texts that do not parse as URLs: a fault of the probe builder.
    var unparsed: [String] = []
}

/// Where the engine and brute force disagree, by kind, each item naming what and where.
struct DifferentialFailures {
    /// The regions the diff could not settle.
    var unproven: [String] = []
    /// Ways of differing brute force found and the diff did not report, although it reports
    /// nothing unproven for that app there: silent misses.
    var missing: [String] = []
    /// The same, where the diff does report an unproven region for the app: it said so.
    var admitted: [String] = []
    /// Joint changes brute force found and no URL of the diff shows (`admitted` when the diff
    /// reports an unproven region for one of the two apps there).
    var missingJoint: [String] = []
    var admittedJoint: [String] = []
    /// Observations that do not decide as recorded.
    var unsound: [String] = []

    var isEmpty: Bool { kinds(allowingUnproven: false).isEmpty }

    /// Each non-empty kind with its items, for one issue per kind. Allowing unproven regions
    /// (the long run) leaves out what the diff itself reported as unproven; a silent miss or an
    /// unsound observation always counts.
    func kinds(allowingUnproven: Bool) -> [(title: String, items: [String])] {
        let reported: [(String, [String])] = [
            ("the diff left regions unproven", unproven),
            ("incomplete, inside regions the diff reports unproven", admitted),
            ("incomplete, joint changes inside regions the diff reports unproven", admittedJoint),
        ]
        return
            ((allowingUnproven ? [] : reported) + [
                ("incomplete: ways of differing the probes show and the diff does not", missing),
                ("incomplete: joint changes (one app losing URLs another gains) the diff does not show", missingJoint),
                ("unsound: observations that do not decide as recorded", unsound),
            ]).filter { !$0.1.isEmpty }.map { (title: $0.0, items: $0.1) }
    }
}

/// One seed: the pair, both compiled, and the probe URLs.
struct DifferentialCase {
    let seed: UInt64
    let baseConfiguration: GeneratedConfiguration
    let headConfiguration: GeneratedConfiguration
    let edits: [String]
    let base: PolicySnapshot
    let head: PolicySnapshot
    /// `path?query#fragment` texts, tried on every host served on both sides.
    let probes: [String]
    let environments: [SharedEnvironment]
    /// How to run this seed alone.
    let reproduction: String

    /// The seed's pair compiled; throws, naming the seed and the compiler's errors, when a side
    /// does not compile (a fault of the generator).
    init(seed: UInt64, settings: DifferentialSettings = .current) throws {
        self.seed = seed
        (baseConfiguration, headConfiguration, edits) = DifferentialGenerator.pair(seed: seed)
        let header = "seed \(seed)"
        base = try Self.compile(baseConfiguration, "\(header): the generated base")
        head = try Self.compile(headConfiguration, "\(header): the generated head (edits: \(edits))")
        probes =
            DifferentialProbes([baseConfiguration, headConfiguration], seed: seed, limit: settings.probes)
            .suffixes
        reproduction = settings.reproduction(seed)
        environments = SharedEnvironment.all(base: base, head: head)
    }

    /// `configuration` compiled, or a failed requirement naming `what`, the errors and the files.
    private static func compile(_ configuration: GeneratedConfiguration, _ what: String) throws -> PolicySnapshot {
        let files = configuration.files.sorted { $0.key < $1.key }.map {
            SourceFile(path: $0.key, bytes: Array($0.value.utf8))
        }
        let (snapshot, diagnostics) = PolicySnapshot.make(files)
        let errors = diagnostics.filter { $0.severity == .error }.map { "\($0)" }
        let text = configuration.files.sorted { $0.key < $1.key }.map { "--- \($0.key)\n\($0.value)" }.joined()
        return try #require(
            snapshot, "\(what) does not compile, a generator bug: \(errors)\n\(configuration.problems)\n\(text)")
    }

    /// The seed, the edits, both sides' domain files (and environment files where they differ),
    /// and how to run this seed alone.
    var header: String {
        var text = "seed \(seed); edits: \(edits.joined(separator: "; "))\n"
        let before = baseConfiguration.files
        let after = headConfiguration.files
        for path in Set(before.keys).union(after.keys).sorted()
        where path.hasPrefix("domains/") || before[path] != after[path] {
            text += "--- base \(path)\n\(before[path] ?? "(none)\n")--- head \(path)\n\(after[path] ?? "(none)\n")"
        }
        return text + "Run this seed alone: \(reproduction)"
    }

    // MARK: Brute force

    /// Every probe decided on both sides, on every host served on both, on both platforms.
    func groundTruth() -> GroundTruth {
        var truth = GroundTruth()
        for environment in environments {
            for (configured, concrete) in environment.hosts {
                for suffix in probes {
                    let text = "https://\(concrete)\(suffix)"
                    guard let url = LinkURL(text) else {
                        truth.unparsed.append(text)
                        continue
                    }
                    for platform in LinkPlatform.allCases {
                        var lost: [String] = []
                        var gained: [String] = []
                        for (identity, before, after) in environment.verdicts(url, platform) {
                            let opened = before?.opens ?? false
                            let opens = after?.opens ?? false
                            guard opened != opens else { continue }
                            if opened { lost.append(identity) } else { gained.append(identity) }
                            let key = DifferenceKey(
                                environment: environment.name, host: configured, platform: platform,
                                identity: identity, before: before, after: after)
                            if truth.differences[key] == nil { truth.differences[key] = text }
                        }
                        for loser in lost {
                            for gainer in gained {
                                let key = JointKey(
                                    environment: environment.name, host: configured, platform: platform, lost: loser,
                                    gained: gainer)
                                if truth.joint[key] == nil { truth.joint[key] = text }
                            }
                        }
                    }
                }
            }
        }
        return truth
    }

    // MARK: The engine against brute force

    /// Where `comparison` (the engine's answer for this pair) and `truth` disagree.
    func check(_ comparison: BehaviourDiff.Comparison, against truth: GroundTruth) -> DifferentialFailures {
        var failures = DifferentialFailures()
        // Brute force decides as the newest Android; the changes only an older release makes
        // are checked for soundness, decided again as that release decides.
        let observations = comparison.observations.filter { $0.androidRelease == nil }
        for release in AndroidRelease.allCases {
            let own = comparison.observations.filter { $0.androidRelease == release }
            guard !own.isEmpty else { continue }
            let environments = SharedEnvironment.all(base: base, head: head, androidRelease: release)
            for group in Dictionary(grouping: own, by: { "\($0.environment) \($0.host) \($0.url)" }).values {
                failures.unsound += unsoundness(of: group, in: environments)
            }
        }
        failures.unproven = comparison.unproven.filter { $0.androidRelease == nil }.map(\.summary)
        let reported = Set(observations.map(DifferenceKey.init))
        // A miss where the diff admits an unsettled region for the same app is told apart: it
        // is the same fault as the unproven region, not a silent one.
        let unsettled = Set(comparison.unproven.map { "\($0.environment) \($0.host) \($0.platform) \($0.identity)" })
        for (key, url) in truth.differences.sorted(by: { $0.value < $1.value }) where !reported.contains(key) {
            if unsettled.contains("\(key.environment) \(key.host) \(key.platform) \(key.identity)") {
                failures.admitted.append("\(key)\n    shown by \(url)")
            } else {
                failures.missing.append("\(key) (silently)\n    shown by \(url)")
            }
        }
        // Per URL, the apps losing it and the apps gaining it.
        var byURL: [String: [BehaviourDiff.Observation]] = [:]
        for observation in observations {
            let place = "\(observation.environment) \(observation.host) \(observation.platform) \(observation.url)"
            byURL[place, default: []].append(observation)
        }
        var reportedJoint: Set<JointKey> = []
        for group in byURL.values {
            let first = group[0]
            for loser in group where loser.openedBefore && !loser.opensAfter {
                for gainer in group where !gainer.openedBefore && gainer.opensAfter {
                    reportedJoint.insert(
                        JointKey(
                            environment: first.environment, host: first.host, platform: first.platform,
                            lost: loser.identity, gained: gainer.identity))
                }
            }
        }
        for (key, url) in truth.joint.sorted(by: { $0.value < $1.value }) where !reportedJoint.contains(key) {
            let place = "\(key.environment) \(key.host) \(key.platform) "
            if unsettled.contains(place + key.lost) || unsettled.contains(place + key.gained) {
                failures.admittedJoint.append("\(key)\n    shown by \(url)")
            } else {
                failures.missingJoint.append("\(key)\n    shown by \(url)")
            }
        }
        for group in byURL.values.sorted(by: { $0[0].url < $1[0].url }) {
            failures.unsound += unsoundness(of: group, in: environments)
        }
        return failures
    }

    /// What is wrong with the observations of one URL: each must re-decide exactly as recorded,
    /// with opposite outcomes, and together they must name every app whose outcome differs there.
    /// An older release's observations (`androidRelease`) leave out what the newest changes
    /// alike, so only their verdicts are checked there.
    private func unsoundness(of group: [BehaviourDiff.Observation], in environments: [SharedEnvironment]) -> [String] {
        let first = group[0]
        let place = "\(first.environment) \(first.host) \(first.platform.rawValue) \(first.url)"
        guard let environment = environments.first(where: { $0.name == first.environment }) else {
            return ["\(place): the environment is not on both sides"]
        }
        guard let host = environment.hosts.first(where: { $0.configured == first.host }) else {
            return ["\(place): the host is served on neither side"]
        }
        guard let url = LinkURL(first.url), url.host == host.concrete else {
            return ["\(place): not a URL on \(host.concrete)"]
        }
        var problems: [String] = []
        let verdicts = environment.verdicts(url, first.platform)
        for observation in group {
            let decided = verdicts.first { $0.identity == observation.appIdentity }
            let recorded = DifferenceKey(observation)
            let actual = DifferenceKey(
                environment: first.environment, host: first.host, platform: first.platform,
                identity: observation.identity, before: decided?.before, after: decided?.after)
            let opened = decided?.before?.opens ?? false
            let opens = decided?.after?.opens ?? false
            if recorded != actual || opened == opens {
                problems.append(
                    "\(place) \(observation.identity): recorded before \(recorded.before), after \(recorded.after); "
                        + "the evaluators say before \(actual.before) (opens: \(opened)), "
                        + "after \(actual.after) (opens: \(opens))")
            }
        }
        let differing = Set(
            verdicts.filter { ($0.before?.opens ?? false) != ($0.after?.opens ?? false) }.map(\.identity))
        let observed = Set(group.map(\.appIdentity))
        if first.androidRelease == nil && differing != observed {
            problems.append(
                "\(place): the apps whose outcome differs are \(differing.sorted()), the observations name "
                    + "\(observed.sorted())")
        }
        return problems
    }

    /// Observations as an exact engine would make them at every URL brute force recorded: each
    /// app whose outcome differs there, with its verdicts. What the checker's own test starts from.
    func observations(showing truth: GroundTruth) -> [BehaviourDiff.Observation] {
        var places = truth.differences.map { ($0.key.environment, $0.key.host, $0.key.platform, $0.value) }
        places += truth.joint.map { ($0.key.environment, $0.key.host, $0.key.platform, $0.value) }
        var seen: Set<String> = []
        var observations: [BehaviourDiff.Observation] = []
        for (name, host, platform, url) in places.sorted(by: { $0.3 < $1.3 })
        where seen.insert("\(name) \(host) \(platform) \(url)").inserted {
            guard let environment = environments.first(where: { $0.name == name }), let parsed = LinkURL(url) else {
                continue
            }
            for (identity, before, after) in environment.verdicts(parsed, platform)
            where (before?.opens ?? false) != (after?.opens ?? false) {
                observations.append(
                    BehaviourDiff.Observation(
                        environment: name, host: host, platform: platform, identity: identity, url: url,
                        before: before, after: after))
            }
        }
        return observations
    }
}

/// Which seeds to run, and how many probe URLs per pair: `LINKWRIGHT_DIFFERENTIAL_SEEDS` (how
/// many seeds, default the CI-sized run) from `LINKWRIGHT_DIFFERENTIAL_FIRST_SEED` (default 1),
/// with `LINKWRIGHT_DIFFERENTIAL_PROBES` probes each (the probes of a seed depend on it).
struct DifferentialSettings {
    /// Sized for every CI run in a debug build.
    static let ciCount = 30
    /// Probes per pair on CI: brute force costs about a second per seed in a debug build.
    static let ciProbes = 800
    static let countVariable = "LINKWRIGHT_DIFFERENTIAL_SEEDS"
    static let firstVariable = "LINKWRIGHT_DIFFERENTIAL_FIRST_SEED"
    static let probesVariable = "LINKWRIGHT_DIFFERENTIAL_PROBES"
    /// Set (to anything) by the long run: regions the diff reports unproven are listed, not
    /// failures. CI runs without it, so its seeds must all be proven.
    static let allowUnprovenVariable = "LINKWRIGHT_DIFFERENTIAL_ALLOW_UNPROVEN"

    let count: Int
    let first: UInt64
    let probes: Int
    let allowsUnproven: Bool
    /// Settings that are present but not numbers; the defaults stand in for them.
    let invalid: [String]

    init(_ environment: [String: String]) {
        var invalid: [String] = []
        func read<Value: LosslessStringConvertible>(_ name: String, _ fallback: Value) -> Value {
            guard let text = environment[name] else { return fallback }
            guard let value = Value(text) else {
                invalid.append("\(name)=\(text)")
                return fallback
            }
            return value
        }
        count = max(0, read(Self.countVariable, Self.ciCount))
        first = read(Self.firstVariable, UInt64(1))
        probes = max(1, read(Self.probesVariable, Self.ciProbes))
        allowsUnproven = environment[Self.allowUnprovenVariable] != nil
        self.invalid = invalid
    }

    /// The seeds to run, in order.
    var seeds: [UInt64] { (0..<UInt64(count)).map { first &+ $0 } }

    /// The command that runs `seed` alone with these settings.
    func reproduction(_ seed: UInt64) -> String {
        "\(Self.firstVariable)=\(seed) \(Self.countVariable)=1 \(Self.probesVariable)=\(probes) "
            + "swift test --filter BehaviourDifferential"
    }

    /// The settings of this test run.
    static let current = DifferentialSettings(ProcessInfo.processInfo.environment)
}

@Suite struct BehaviourDifferentialTests {
    /// The engine's answer for one seed, checked against brute force. On failure each issue
    /// names the seed, the edits, both sides' files, the probe URL and what each side decides.
    @Test(arguments: DifferentialSettings.current.seeds)
    func theDiffIsSoundAndCompleteAgainstBruteForce(seed: UInt64) throws {
        let differential = try DifferentialCase(seed: seed)
        let truth = differential.groundTruth()
        #expect(truth.unparsed.isEmpty, "\(differential.header)\nprobes that are not URLs: \(truth.unparsed.prefix(5))")
        let cache = RevisionCache()
        let comparison = BehaviourDiff.compare(
            base: cache.revision(differential.base), head: cache.revision(differential.head))
        let failures = differential.check(comparison, against: truth)
        let settings = DifferentialSettings.current
        if settings.allowsUnproven && !failures.unproven.isEmpty {
            // Listed for the long run's summary, with what the diff missed inside them.
            print(
                "seed \(seed): \(failures.unproven.count) rule pairs reported unproven, "
                    + "\(failures.admitted.count + failures.admittedJoint.count) changes inside them")
        }
        for (title, items) in failures.kinds(allowingUnproven: settings.allowsUnproven) {
            let shown = items.prefix(6).joined(separator: "\n  ")
            let more = items.count > 6 ? "\n  … and \(items.count - 6) more" : ""
            Issue.record("\(title) (\(items.count)):\n  \(shown)\(more)\n\(differential.header)")
        }
    }

    /// A setting that is not a number must not quietly run the default seeds instead.
    @Test func theSeedSettingsAreNumbers() {
        #expect(DifferentialSettings.current.invalid.isEmpty, "\(DifferentialSettings.current.invalid)")
        let settings = DifferentialSettings([
            DifferentialSettings.countVariable: "3", DifferentialSettings.firstVariable: "41",
            DifferentialSettings.probesVariable: "99",
        ])
        #expect(settings.seeds == [41, 42, 43] && settings.probes == 99 && settings.invalid.isEmpty)
        #expect(DifferentialSettings(["LINKWRIGHT_DIFFERENTIAL_SEEDS": "many"]).invalid.count == 1)
    }

    /// The CI run's seeds must between them show everything the diff has to get right: every
    /// rule shape, flag, entry and app arrangement, host layout and edit. Cheap: no compilation.
    @Test func theCISeedsCoverEveryFeature() {
        let seeds = UInt64(1)...UInt64(DifferentialSettings.ciCount)
        var seen: Set<String> = []
        for seed in seeds {
            let (base, head, edits) = DifferentialGenerator.pair(seed: seed)
            seen.formUnion(DifferentialFeatures.present(base: base, head: head, edits: edits))
        }
        let missing = DifferentialFeatures.all.filter { !seen.contains($0) }
        #expect(missing.isEmpty, "features no seed of \(seeds) shows: \(missing)")
    }

    /// The check must be able to fail: an engine answer missing a change, misreporting one, or
    /// leaving a region unproven is caught. Also guards against vacuous probes: the first seeds'
    /// edits must change behaviour somewhere the probes see.
    @Test func theCheckCatchesAnAnswerThatMissesOrMisreportsAChange() throws {
        var found: (DifferentialCase, GroundTruth)?
        // Fewer probes than a seed's own test: this needs some changes, not all of them.
        let settings = DifferentialSettings([DifferentialSettings.probesVariable: "200"])
        for seed in UInt64(1)...20 {
            let differential = try DifferentialCase(seed: seed, settings: settings)
            let truth = differential.groundTruth()
            if truth.differences.count > 1 && !truth.joint.isEmpty {
                found = (differential, truth)
                break
            }
        }
        let (differential, truth) = try #require(found, "none of the first 20 seeds changes two apps' links")
        let exact = BehaviourDiff.Comparison(observations: differential.observations(showing: truth))
        #expect(differential.check(exact, against: truth).isEmpty, "brute force's own answer must pass")
        let dropped = truth.differences.keys.first!
        var missing = exact
        missing.observations.removeAll { DifferenceKey($0) == dropped }
        #expect(missing.observations.count < exact.observations.count)
        #expect(!differential.check(missing, against: truth).missing.isEmpty)
        // Without any gain of one joint change's gaining app there, that joint change is missing.
        let joint = truth.joint.keys.first!
        var apart = exact
        apart.observations.removeAll {
            $0.identity == joint.gained && $0.opensAfter && $0.environment == joint.environment
                && $0.host == joint.host && $0.platform == joint.platform
        }
        #expect(!differential.check(apart, against: truth).missingJoint.isEmpty)
        var swapped = exact
        let first = swapped.observations[0]
        (swapped.observations[0].before, swapped.observations[0].after) = (first.after, first.before)
        #expect(!differential.check(swapped, against: truth).unsound.isEmpty)
        var unproven = exact
        unproven.unproven = [
            BehaviourDiff.Unproven(
                environment: "production", host: "shop.example", platform: .ios, identity: "app", baseRule: nil,
                headRule: nil, location: nil, side: .head, touchesExclusion: false)
        ]
        #expect(!differential.check(unproven, against: truth).unproven.isEmpty)
    }
}

/// The features the generated pairs must cover, by name, and which of them a pair shows.
enum DifferentialFeatures {
    /// Rule shapes, by a pattern that tells them: each name is a feature.
    static let pathShapes: [(String, @Sendable (String) -> Bool)] = [
        ("literal path", { !$0.contains("*") && !$0.contains("?") && !$0.contains("$(") }),
        ("prefix /p/*", { $0.hasSuffix("/*") && $0.filter { $0 == "*" }.count == 1 && $0.hasPrefix("/") }),
        ("leading *", { $0.hasPrefix("*") && $0.count > 1 }),
        ("several * in the middle", { $0.hasPrefix("/*/") && $0.filter { $0 == "*" }.count >= 2 }),
        ("* then ?-run", { $0.contains("*") && $0.hasSuffix("??") }),
        ("?-run", { $0.hasSuffix("??") && !$0.contains("*") }),
        ("?*", { $0.contains("?*") }),
        ("$(lang)", { $0.contains("$(lang)") }),
        ("$(region)", { $0.contains("$(region)") }),
        ("$(digit)", { $0.contains("$(digit)") }),
        ("custom variable", { $0.contains("$(\(PatternVocabulary.customName))") }),
        ("catch-all *", { $0 == "*" }),
    ]

    /// Every feature's name.
    static var all: [String] {
        pathShapes.map(\.0) + [
            "query item ?*", "query item *", "query item literal", "query item variable", "several query items",
            "query string", "fragment", "exclude", "case_sensitive: false", "percent_encoded: false",
            "domain defaults", "entry defaults", "App Clip entry", "two apps in one entry", "two entries",
            "legacy_paths", "android_dynamic_rules", "android_semantics", "wildcard host", "nested host",
            "second domain", "rule limited to an environment", "item order changed",
        ] + edits.map { "edit: " + $0.0 }
    }

    /// Edits, each told by its description.
    static let edits: [(String, @Sendable (String) -> Bool)] = [
        ("move an exclusion down", { $0.hasPrefix("move the exclusion") }),
        ("swap neighbours", { $0.hasPrefix("swap") }),
        ("delete a rule", { $0.hasPrefix("delete") }),
        ("add a rule", { $0.hasPrefix("add a rule") }),
        ("change a path", { $0.hasPrefix("change the path") }),
        ("change a query", { $0.hasPrefix("change the query") }),
        ("change a fragment", { $0.hasPrefix("change the fragment") }),
        ("toggle exclude", { $0.hasPrefix("toggle exclude") }),
        ("change flags", { $0.hasPrefix("change the flags") }),
        ("drop an app from an entry", { $0.hasPrefix("drop") && $0.contains(" entry ") }),
        ("drop an app from an environment", { $0.hasPrefix("drop") && !$0.contains(" entry ") }),
        ("add an app to an entry", { $0.hasPrefix("add") && !$0.hasPrefix("add a rule") }),
        ("hand an entry to another app", { $0.hasPrefix("hand") }),
        ("move a rule to another entry", { $0.hasPrefix("move") && $0.contains("to entry") }),
        ("limit or promote a rule", { $0.hasPrefix("set the environments") }),
        ("switch dynamic rules", { $0.hasPrefix("switch Android dynamic rules") }),
        ("serve or stop serving a wildcard", { $0.hasPrefix("serve") || $0.hasPrefix("stop serving") }),
    ]

    /// The features `base` and `head` show, with the edits between them.
    static func present(base: GeneratedConfiguration, head: GeneratedConfiguration, edits descriptions: [String])
        -> Set<String>
    {
        var features: Set<String> = []
        for configuration in [base, head] {
            for environment in configuration.environments {
                for binding in environment.hosts {
                    if binding.host.hasPrefix("*.") { features.insert("wildcard host") }
                    if binding.host == "blog.shop.example" { features.insert("nested host") }
                }
            }
            if configuration.domains.count > 1 { features.insert("second domain") }
            for domain in configuration.domains {
                if domain.legacyPaths { features.insert("legacy_paths") }
                if domain.androidDynamicRules { features.insert("android_dynamic_rules") }
                if domain.flags != GeneratedFlags() { features.insert("domain defaults") }
                if domain.entries.count > 1 { features.insert("two entries") }
                for entry in domain.entries {
                    if entry.androidSemantics { features.insert("android_semantics") }
                    if entry.flags != GeneratedFlags() { features.insert("entry defaults") }
                    if entry.apps == ["clip"] && domain.appclips == ["clip"] { features.insert("App Clip entry") }
                    if entry.apps.count > 1 { features.insert("two apps in one entry") }
                    for rule in entry.rules { features.formUnion(Self.features(of: rule)) }
                }
            }
        }
        let rules = { (configuration: GeneratedConfiguration) in
            configuration.domains.flatMap(\.entries).flatMap(\.rules)
        }
        for (old, new) in zip(rules(base), rules(head)) {
            if case .items(let before)? = old.query, case .items(let after)? = new.query,
                before != after, Set(before.map(\.name)) == Set(after.map(\.name)), before.count > 1
            {
                features.insert("item order changed")
            }
        }
        for (name, test) in edits where descriptions.contains(where: test) { features.insert("edit: " + name) }
        return features
    }

    /// The shapes, query and fragment kinds and flags one rule shows.
    private static func features(of rule: GeneratedRule) -> Set<String> {
        var features: Set<String> = []
        if let path = rule.path {
            for (name, test) in pathShapes where test(path) { features.insert(name) }
        }
        switch rule.query {
        case .items(let items):
            if items.count > 1 { features.insert("several query items") }
            for item in items {
                switch item.pattern {
                case "?*": features.insert("query item ?*")
                case "*": features.insert("query item *")
                case let pattern where pattern.contains("$("): features.insert("query item variable")
                case let pattern where !pattern.contains("*") && !pattern.contains("?"):
                    features.insert("query item literal")
                default: break
                }
            }
        case .whole: features.insert("query string")
        case nil: break
        }
        if rule.fragment != nil { features.insert("fragment") }
        if rule.exclude { features.insert("exclude") }
        if rule.flags.caseSensitive == false { features.insert("case_sensitive: false") }
        if rule.flags.percentEncoded == false { features.insert("percent_encoded: false") }
        if rule.environments != nil { features.insert("rule limited to an environment") }
        return features
    }
}
