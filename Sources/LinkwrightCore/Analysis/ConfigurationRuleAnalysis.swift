/// A finding of the engine's static analysis on one compiled association file, with the scope it
/// was found in and the facts that identify it across commits.
public struct ScopedRuleFinding: Sendable {
    public var finding: RuleFinding
    public var environment: String
    /// The host that serves the file.
    public var host: String
    /// The app IDs of the `details` entry.
    public var appIDs: [String]
    /// The rule as served (its JSON), which names it independently of line numbers.
    public var rule: String
    /// For `UNREACHABLE_RULE`: the rules that decide first, as served.
    public var decidingRules: [String]
    /// A sentence for someone reading the YAML: rules are named by line, not by index.
    public var message: String

    /// Facts that stay the same when lines move or files are reformatted.
    public var identity: [String] {
        [finding.id.rawValue, environment, host, appIDs.joined(separator: ","), rule] + decidingRules
    }
}

/// Runs `RuleAnalysis` on every association file a configuration compiles to, and reports its
/// findings at the YAML rules they come from.
///
/// Only `components` entries are analysed: the legacy `paths` the compiler also emits are derived
/// from the same rules and would repeat every finding.
public struct ConfigurationRuleAnalysis: Sendable {
    public var analysis: RuleAnalysis
    /// The most automaton steps one call may take over all files: twenty files' budgets, enough
    /// for the benchmark's largest configuration (66 domains in 3 environments) to be analysed
    /// whole, while a configuration of many costly domains stops there.
    public var totalWorkLimit: Int

    public init(analysis: RuleAnalysis = RuleAnalysis(), totalWorkLimit: Int = 400_000_000) {
        self.analysis = analysis
        self.totalWorkLimit = totalWorkLimit
    }

    /// Findings for every site, or only those `including` accepts (environment, site). Without
    /// `translations`, rules are not compared with their Android translation (the costliest part,
    /// which merge policies do not ask about).
    public func findings(
        in compiled: CompiledConfiguration, translations: Bool = true,
        including: (CompiledEnvironment, CompiledSite) -> Bool = { _, _ in true }
    ) -> [ScopedRuleFinding] {
        // A domain usually compiles to the same rules in every environment, for other apps (team
        // IDs, package suffixes); the analysis reads rules only, so it runs once per domain.
        struct AnalysedRules: Hashable, Sendable {
            var domain: String
            var aasa: String
            var assetLinks: String?
        }
        let sites = compiled.environments.flatMap { environment in
            environment.sites.filter { $0.aasa?.applinks?.details != nil && including(environment, $0) }
                .map { (environment: environment.name, site: $0) }
        }
        // Every site of a domain in one environment carries the same files (`CompiledSite`), so
        // each domain's key is rendered once per environment, not once per host.
        var firstOfDomain: [[String]: Int] = [:]
        for (index, entry) in sites.enumerated() where firstOfDomain[[entry.environment, entry.site.domain]] == nil {
            firstOfDomain[[entry.environment, entry.site.domain]] = index
        }
        let representatives = firstOfDomain.values.sorted()
        let representativeKeys = representatives.parallelMap { index in
            let site = sites[index].site
            return AnalysedRules(
                domain: site.domain, aasa: Self.rules(of: site.aasa!).json.rendered(),
                assetLinks: site.assetLinks.map { links in
                    JSON.array(links.statements.map { .array(($0.dynamicComponents ?? []).map(\.json)) }).rendered()
                })
        }
        let keyOfRepresentative = Dictionary(uniqueKeysWithValues: zip(representatives, representativeKeys))
        let keys = sites.map { keyOfRepresentative[firstOfDomain[[$0.environment, $0.site.domain]]!]! }
        var firstSite: [AnalysedRules: Int] = [:]
        for (index, key) in keys.enumerated() where firstSite[key] == nil { firstSite[key] = index }
        let distinct = firstSite.values.sorted()
        let analysed = analysedInOrder(distinct.map { sites[$0].site }, translations: translations)
        let findingsByKey = Dictionary(uniqueKeysWithValues: zip(distinct.map { keys[$0] }, analysed))
        var scoped: [ScopedRuleFinding] = []
        for ((environment, site), key) in zip(sites, keys) {
            let details = site.aasa!.applinks!.details
            for finding in findingsByKey[key]! {
                guard let components = details[finding.entryIndex].components else { continue }
                scoped.append(
                    Self.scope(
                        finding, components: components, appIDs: details[finding.entryIndex].effectiveAppIDs,
                        environment: environment, host: site.fileHost.name))
            }
        }
        return scoped
    }

    /// Each site's findings, as analysing them one after another against one `totalWorkLimit`
    /// would give, but on every core (`mapSharingBudget`).
    private func analysedInOrder(_ sites: [CompiledSite], translations: Bool) -> [[RuleFinding]] {
        sites.mapSharingBudget(total: totalWorkLimit) { site, meter in
            findings(site, analysis.counting(against: meter), translations: translations)
        }
    }

    private func findings(_ site: CompiledSite, _ analysis: RuleAnalysis, translations: Bool) -> [RuleFinding] {
        let document = site.aasa!
        return analysis.findings(in: document)
            + (translations
                ? translationFindings(document, site.assetLinks, analysis)
                    + releaseFindings(document, site.assetLinks, analysis) : [])
    }

    /// `document` without the apps its entries are for: what the analysis reads.
    static func rules(of document: AASADocument) -> AASADocument {
        var rules = AASADocument(applinks: document.applinks)
        rules.applinks?.details = (document.applinks?.details ?? []).map { details in
            var anonymous = details
            (anonymous.appIDs, anonymous.appID) = (nil, nil)
            return anonymous
        }
        return rules
    }

    /// The findings as diagnostics, each once per rule and ID however many environments and hosts
    /// share the rule; the message names them when they are not all of the configuration's.
    public func diagnostics(in compiled: CompiledConfiguration) -> [Diagnostic] {
        let findings = findings(in: compiled)
        var order: [Diagnostic] = []
        var environments: [Diagnostic: [String]] = [:]
        for scoped in findings {
            var diagnostic = scoped.finding.diagnostic
            diagnostic.message = scoped.message
            if environments[diagnostic] == nil { order.append(diagnostic) }
            if !(environments[diagnostic]?.contains(scoped.environment) ?? false) {
                environments[diagnostic, default: []].append(scoped.environment)
            }
        }
        let all = compiled.environments.map(\.name)
        return order.map { diagnostic in
            var diagnostic = diagnostic
            let names = environments[diagnostic]!
            if names.count < all.count { diagnostic.message += " (in \(names.joined(separator: ", ")))" }
            return diagnostic
        }.sorted()
    }

    /// `ANDROID_SEMANTICS_DIFFER`: rules whose Android 15 dynamic rules (translated from them,
    /// sharing their origin) decide some canonical path differently than iOS does, with the path.
    /// Left out, because other diagnostics already say it: patterns with variables (widened,
    /// ANDROID_PATTERN_WIDENED), case-insensitive ones (ANDROID_CASE_SENSITIVE), and those with
    /// `%` (Android decodes, Apple compares as written unless `percentEncoded` is false).
    func translationFindings(_ aasa: AASADocument, _ assetLinks: AssetLinksDocument?, _ analysis: RuleAnalysis)
        -> [RuleFinding]
    {
        var androidByOrigin: [SourceLocation: [String]] = [:]
        for statement in assetLinks?.statements ?? [] {
            for component in statement.dynamicComponents ?? [] {
                guard let origin = component.origin, let path = component.path else { continue }
                if !(androidByOrigin[origin]?.contains(path) ?? false) {
                    androidByOrigin[origin, default: []].append(path)
                }
            }
        }
        guard !androidByOrigin.isEmpty, let applinks = aasa.applinks else { return [] }
        var findings: [RuleFinding] = []
        for (entryIndex, details) in applinks.details.enumerated() {
            let components = details.components ?? []
            for (ruleIndex, component) in components.enumerated() {
                if analysis.isExhausted {
                    findings.append(
                        RuleFinding(
                            id: .analysisIncomplete, severity: .note, entryIndex: entryIndex,
                            ruleIndex: ruleIndex, origin: component.origin,
                            message: "the comparison with the Android dynamic rules stopped at its work budget here: "
                                + "\(components.count - ruleIndex) of \(components.count) rules, from this one on, "
                                + "were not compared",
                            decidedBy: [], isExact: true, witness: nil))
                    break
                }
                guard let origin = component.origin, let android = androidByOrigin[origin],
                    let path = component.path, !path.contains("$("), !path.contains("%"),
                    component.flags.effective(inheriting: [details.defaults?.flags, applinks.defaults?.flags])
                        .androidFollows,
                    let apple = try? PatternMatcher(path, options: PatternOptions(appleSlashRules: true))
                else { continue }
                guard
                    let (witness, appleAccepts) = analysis.translationDifference(
                        apple: apple, android: android.map { PatternMatcher(androidDynamic: $0) })
                else { continue }
                let (yes, no) =
                    appleAccepts
                    ? ("iOS matches", "its Android 15 dynamic rules do not")
                    : ("its Android 15 dynamic rules match", "iOS does not")
                findings.append(
                    RuleFinding(
                        id: .androidSemanticsDiffer, severity: .warning,
                        entryIndex: entryIndex, ruleIndex: ruleIndex, origin: origin,
                        message: "\(yes) the path \(witness) and \(no): Apple's `*` is greedy, "
                            + "Android's stops at the next character",
                        decidedBy: [], isExact: true, witness: witness))
            }
        }
        return findings
    }

    /// `ANDROID_RELEASES_DIFFER`: each pattern of the dynamic rules a YAML rule emits that the
    /// Android releases in use read differently (`AndroidRelease`), with a URL for each release
    /// that opens where another does not. Reported at the rule, once per pattern.
    func releaseFindings(_ aasa: AASADocument, _ assetLinks: AssetLinksDocument?, _ analysis: RuleAnalysis)
        -> [RuleFinding]
    {
        var patternsByOrigin: [SourceLocation: [AndroidPatternPart]] = [:]
        for statement in assetLinks?.statements ?? [] {
            for component in statement.dynamicComponents ?? [] {
                guard let origin = component.origin else { continue }
                let parts =
                    (component.path.map { [AndroidPatternPart(.path, $0)] } ?? [])
                    + (component.query ?? []).map { AndroidPatternPart(.queryItem, "\($0.name)=\($0.pattern)") }
                    + (component.fragment.map { [AndroidPatternPart(.fragment, $0)] } ?? [])
                for part in parts where !(patternsByOrigin[origin]?.contains(part) ?? false) {
                    patternsByOrigin[origin, default: []].append(part)
                }
            }
        }
        guard !patternsByOrigin.isEmpty, let applinks = aasa.applinks else { return [] }
        var findings: [RuleFinding] = []
        var reported: Set<SourceLocation> = []
        for (entryIndex, details) in applinks.details.enumerated() {
            for (ruleIndex, component) in (details.components ?? []).enumerated() {
                guard let origin = component.origin, let parts = patternsByOrigin[origin],
                    reported.insert(origin).inserted
                else { continue }
                // A rule with a custom variable emits one pattern per value: one finding per
                // part, with the first pattern that differs and how many more do.
                for kind in parts.map(\.name).uniqued() {
                    let differing = parts.filter { $0.name == kind }.lazy.compactMap { part in
                        let witnesses = analysis.releaseDifferences(part.expression, paths: part.isPath)
                        return witnesses.isEmpty ? nil : (part, witnesses)
                    }
                    guard let (part, witnesses) = differing.first else { continue }
                    let others = differing.count - 1
                    let sides = witnesses.map { witness in
                        let rejecting = AndroidRelease.allCases.filter { $0 != witness.accepting }
                        return "on \(witness.accepting.rawValue) it matches \(part.url(witness.value)) and on "
                            + "\(rejecting.map(\.rawValue).joined(separator: ", ")) it does not"
                    }
                    findings.append(
                        RuleFinding(
                            id: .androidReleasesDiffer, severity: .warning, entryIndex: entryIndex,
                            ruleIndex: ruleIndex, origin: origin,
                            message: "Android releases read its dynamic-rule \(kind) pattern "
                                + "\(PrintableText.quoted(part.expression))"
                                + (others > 0 ? " (and \(others) more of its patterns)" : "")
                                + " differently: \(Self.list(sides)) (the dynamic-rule parser of StatementService "
                                + "changed; docs/semantics.md, \"Android releases\")",
                            decidedBy: [], isExact: true, witness: part.url(witnesses[0].value)))
                }
            }
        }
        return findings
    }

    private static func scope(
        _ finding: RuleFinding, components: [AASAComponent], appIDs: [String], environment: String, host: String
    ) -> ScopedRuleFinding {
        let rule = components[finding.ruleIndex]
        let deciding = finding.decidedBy.map { components[$0] }
        return ScopedRuleFinding(
            finding: finding, environment: environment, host: host, appIDs: appIDs,
            rule: signature(rule), decidingRules: deciding.map(signature),
            message: message(for: finding, rule: rule, deciding: deciding))
    }

    private static func signature(_ component: AASAComponent) -> String {
        var anonymous = component
        anonymous.comment = nil
        return anonymous.json(as: JSON.self).rendered()
    }

    private static func message(
        for finding: RuleFinding, rule: AASAComponent, deciding: [AASAComponent]
    ) -> String {
        let name = "rule \(describe(rule))"
        switch finding.id {
        case .unreachableRule:
            let lines = deciding.compactMap { $0.origin.map { String($0.line) } }
            let subject =
                lines.count < deciding.count
                ? "earlier rules decide"
                : deciding.count == 1
                    ? "the rule at line \(lines[0]) decides" : "the rules at lines \(list(lines)) decide"
            return "\(name) is never reached: \(subject) every URL it matches first"
                + (finding.isExact
                    ? ""
                    : " (query dictionaries were compared conservatively, so other unreachable rules may go unreported)")
        case .neverMatches:
            // The engine's reason follows its own "component N never matches: ".
            let parts = finding.message.split(separator: ":", maxSplits: 1)
            return "\(name) never matches" + (parts.count == 2 ? ":" + parts[1] : "")
        case .catchAll:
            return rule.exclude == true
                ? "\(name) excludes every URL of the site: no link there opens the app, and later rules never apply"
                : "\(name) matches every URL of the site, so later rules never apply"
        default:
            // ANDROID_SEMANTICS_DIFFER, ANDROID_RELEASES_DIFFER, ANALYSIS_INCOMPLETE: the engine's
            // sentence, at the rule.
            return "\(name): \(finding.message)"
        }
    }

    /// `/path ?query #fragment`, as written in the served file.
    private static func describe(_ component: AASAComponent) -> String {
        PrintableText.quoted(
            RuleLabel(
                path: component.path ?? "/*", query: component.query?.label(sortingItems: false),
                fragment: component.fragment
            ).text())
    }

    private static func list(_ items: [String]) -> String {
        items.count <= 2
            ? items.joined(separator: " and ") : items.dropLast().joined(separator: ", ") + " and " + items.last!
    }
}

/// One pattern of an emitted dynamic rule, as `ConfigurationRuleAnalysis.releaseFindings`
/// compares it across Android releases.
struct AndroidPatternPart: Hashable {
    /// `.path`, `.fragment`, or `.queryItem` for a `?` entry as Android matches it: one pattern
    /// over a whole `name=value` item. Android has no pattern for a whole query.
    let part: URLPart.Key
    let expression: String

    init(_ part: URLPart.Key, _ expression: String) {
        self.part = part
        self.expression = expression
    }

    var isPath: Bool { part == .path }

    var name: String { part.name }

    /// A path-only URL carrying the decoded `value` in this part, escaped so that it decodes
    /// back to `value` and holds no separator of its own.
    func url(_ value: String) -> String {
        func escaped(keeping kept: Set<Unicode.Scalar>) -> String {
            var text = ""
            for scalar in value.unicodeScalars {
                if scalar.isASCII
                    && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || kept.contains(scalar))
                {
                    text.unicodeScalars.append(scalar)
                } else {
                    for byte in String(scalar).utf8 {
                        let hex = String(byte, radix: 16, uppercase: true)
                        text += (hex.count == 1 ? "%0" : "%") + hex
                    }
                }
            }
            return text
        }
        let unreserved: Set<Unicode.Scalar> = ["-", ".", "_", "~", "!", "$", "'", "(", ")", "*", ",", ":", "@", "+"]
        switch part {
        case .path: return escaped(keeping: unreserved.union(["/", "=", ";", "&"]))
        case .query, .queryItem: return "/?" + escaped(keeping: unreserved.union(["/", "=", "?"]))
        case .fragment: return "/#" + escaped(keeping: unreserved.union(["/", "=", ";", "&", "?"]))
        }
    }
}
