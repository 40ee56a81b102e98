import Foundation
import LinkwrightTestSupport
import Testing

@testable import LinkwrightCore

/// `files` compiled, as a revision of a cache of its own.
func snapshot(_ files: [String: String]) throws -> CachedRevision {
    let sources = files.sorted { $0.key < $1.key }.map { SourceFile(path: $0.key, bytes: Array($0.value.utf8)) }
    let (revision, diagnostics) = RevisionCache().make(sources)
    return try #require(revision, "\(diagnostics.filter { $0.severity == .error })")
}

@Suite struct PolicyRuleTests {
    @Test(arguments: RuleExampleCase.all)
    func examplesReportExactlyWhereTheySay(_ testCase: RuleExampleCase) throws {
        let rule = PolicyRules.rule(for: testCase.rule)
        let head = try snapshot(testCase.example.head)
        let context = PolicyContext(
            head: head, base: try testCase.example.base.map(snapshot),
            settings: PolicySettings.merge(head.configuration.policies).settings)
        let findings = PolicyEngine(rules: [rule]).run(context).findings
        #expect(findings.allSatisfy { $0.rule == testCase.rule.rawValue }, "\(findings.map(\.rule))")
        #expect(
            findings.map { $0.location?.description ?? "no location" } == testCase.example.reportsAt,
            "\(findings.map(\.message))")
        for finding in findings {
            #expect(finding.hint?.isEmpty == false, "\(finding.message) has no hint")
        }
        // The engine schedules rules by this declaration: a rule reading the diff without it
        // would wait for the diff early; one declaring it without reading would start late.
        let compared = context.shared.comparison.made != nil
        #expect(compared == (rule.readsBehaviourDiff && context.base != nil), "readsBehaviourDiff is wrong")
    }

    @Test func everyRuleExplainsItselfAndHasBothKindsOfExample() {
        for (id, rule) in zip(RuleID.allCases, PolicyRules.all) {
            let info = rule.info
            #expect(info.id == id, "the rule registered for \(id.rawValue) is \(info.id.rawValue)")
            #expect(id.rawValue.allSatisfy { $0.isUppercase || $0 == "_" }, "\(id.rawValue)")
            #expect(!info.purpose.isEmpty && !info.rationale.isEmpty)
            #expect(info.examples.contains { $0.triggers }, "\(id.rawValue) has no triggering example")
            #expect(info.examples.contains { !$0.triggers }, "\(id.rawValue) has no non-triggering example")
        }
    }

    /// Linux has no runtime type discovery: the registry must list every rule file.
    @Test func theRegistryListsEveryRuleFile() throws {
        let folder = RepositoryPaths.root.appendingPathComponent("Sources/LinkwrightCore/Policy/Rules")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
            $0.hasSuffix("Rule.swift")
        }
        let expected = files.map { name -> String in
            // ProductionAppRemovedRule.swift -> PRODUCTION_APP_REMOVED
            let stem = name.dropLast("Rule.swift".count)
            var id = ""
            for character in stem {
                if character.isUppercase && !id.isEmpty { id += "_" }
                id += character.uppercased()
            }
            return id
        }
        #expect(Set(expected) == Set(RuleID.allCases.map(\.rawValue)))
    }
}

@Suite struct PolicySettingsTests {
    static let removal = RuleExampleConfiguration(
        base: RuleExampleCase.all.first { $0.rule == .productionAppRemoved && $0.example.triggers }!.example)

    struct RuleExampleConfiguration {
        let base: RuleExample
    }

    private func report(policy: String) throws -> PolicyReport {
        let example = Self.removal.base
        var head = example.head
        head["policies/merge.yaml"] = policy
        let (configuration, diagnostics) = ConfigLoader().load(
            head.sorted { $0.key < $1.key }.map { SourceFile(path: $0.key, bytes: Array($0.value.utf8)) })
        let loaded = try #require(configuration, "\(diagnostics)")
        let (settings, settingDiagnostics) = PolicySettings.merge(loaded.policies)
        #expect(settingDiagnostics.isEmpty)
        return PolicyEngine().run(
            PolicyContext(head: try snapshot(head), base: try snapshot(example.base!), settings: settings))
    }

    @Test func aBlockingFindingBlocks() throws {
        let result = try report(policy: "forbidden_paths: []\n")
        #expect(result.blocks)
        #expect(result.findings.contains { $0.rule == "PRODUCTION_APP_REMOVED" && $0.blocks })
    }

    @Test func exceptTurnsARuleOff() throws {
        let result = try report(policy: "rules:\n  except: [PRODUCTION_APP_REMOVED]\n")
        #expect(!result.findings.contains { $0.rule == "PRODUCTION_APP_REMOVED" })
    }

    @Test func aSeverityOverrideStopsBlocking() throws {
        let result = try report(policy: "rules:\n  severity:\n    PRODUCTION_APP_REMOVED: warning\n")
        #expect(result.findings.contains { $0.rule == "PRODUCTION_APP_REMOVED" && $0.severity == .warning })
        #expect(!result.blocks)
    }

    @Test func anIgnoreAppliesOnlyInItsScope() throws {
        let matching = try report(
            policy: "ignore:\n  - rule: PRODUCTION_APP_REMOVED\n    environment: production\n    reason: retired\n")
        #expect(matching.findings.allSatisfy { $0.rule != "PRODUCTION_APP_REMOVED" || $0.ignoredBecause == "retired" })
        #expect(!matching.blocks)
        let elsewhere = try report(
            policy: "ignore:\n  - rule: PRODUCTION_APP_REMOVED\n    environment: staging\n    reason: retired\n")
        #expect(elsewhere.blocks)
    }

    @Test func anApprovedFindingStillPrintsButDoesNotBlock() throws {
        let findings = try report(policy: "forbidden_paths: []\n").findings.filter {
            $0.rule == "PRODUCTION_APP_REMOVED"
        }
        let approvals = findings.map { "  - finding: \($0.fingerprint)\n    reason: retired in v2\n" }.joined()
        let approved = try report(policy: "approvals:\n" + approvals)
        #expect(!approved.blocks)
        #expect(
            approved.findings.filter { $0.rule == "PRODUCTION_APP_REMOVED" }.allSatisfy {
                $0.approval == "retired in v2"
            })
        #expect(approved.unusedApprovals.isEmpty)
    }

    @Test func fingerprintsIgnoreLineNumbers() throws {
        let first = try report(policy: "forbidden_paths: []\n").findings.map(\.fingerprint)
        let shifted = try report(policy: "# a comment that moves nothing in the config\nforbidden_paths: []\n").findings
            .map(\.fingerprint)
        #expect(first == shifted)
        #expect(
            first.allSatisfy {
                $0.hasPrefix("PRODUCTION_APP_REMOVED/") && $0.count == "PRODUCTION_APP_REMOVED/".count + 16
            })
    }

    @Test func anApprovalThatMatchesNothingIsReported() throws {
        let result = try report(
            policy: "approvals:\n  - finding: PRODUCTION_APP_REMOVED/0000000000000000\n    reason: old\n")
        #expect(result.unusedApprovals.map(\.fingerprint.value) == ["PRODUCTION_APP_REMOVED/0000000000000000"])
    }
}
