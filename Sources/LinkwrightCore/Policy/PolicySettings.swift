/// The merged settings of every file in `policies/`.
public struct PolicySettings: Sendable {
    /// Rules that run.
    public var enabled: Set<RuleID>
    public var severities: [RuleID: Severity]
    public var ignores: [PolicyIgnore]
    public var approvals: [String: PolicyApproval]
    public var forbiddenPaths: [ForbiddenPath]
    /// Channels every production Android app must list; `play-signing` unless configured:
    /// Google Play re-signs apps with the Play App Signing key, and a device verifies the
    /// certificate it finds on the installed app.
    public var requiredChannels: [String]
    /// The behaviour diff's work budget.
    public var proofLimits: ProofLimits
    /// Hosts `import` adopted (`adopted`).
    public var adoptions: [PolicyAdoption] = []

    public static let defaultRequiredChannels = ["play-signing"]

    /// Merges the policy files. Conflicting severities for one rule are errors.
    public static func merge(_ files: [PolicyFile]) -> (settings: PolicySettings, diagnostics: [Diagnostic]) {
        var diagnostics = DiagnosticBag()
        let uses = files.compactMap(\.use)
        var enabled = Set(
            uses.isEmpty || files.contains(where: \.usesAllRules) ? RuleID.allCases : uses.joined().map(\.value))
        enabled.subtract(files.flatMap(\.except).map(\.value))
        var severities: [RuleID: Severity] = [:]
        var severityLocations: [RuleID: SourceLocation] = [:]
        for (rule, severity) in files.flatMap(\.severities) {
            if let first = severityLocations[rule.value], severities[rule.value] != severity.value {
                diagnostics.report(
                    .conflictingKeys, "the severity of \(rule.value.rawValue) is also set at \(first)",
                    at: rule.location,
                    hint: "set each rule's severity in one place")
            }
            severities[rule.value] = severity.value
            severityLocations[rule.value] = rule.location
        }
        var approvals: [String: PolicyApproval] = [:]
        for approval in files.flatMap(\.approvals) { approvals[approval.fingerprint.value] = approval }
        let channels = files.flatMap(\.requiredChannels).map(\.value)
        var limits = ProofLimits.standard
        for (key, values) in [
            ("region_steps", files.compactMap(\.proofRegionSteps)),
            ("total_steps", files.compactMap(\.proofTotalSteps)),
        ] {
            guard let first = values.first else { continue }
            for other in values.dropFirst() where other.value != first.value {
                diagnostics.report(
                    .conflictingKeys, "proof_budget.\(key) is also set at \(first.location)", at: other.location,
                    hint: "set the proof budget in one place")
            }
            if key == "region_steps" { limits.region = first.value } else { limits.total = first.value }
        }
        let settings = PolicySettings(
            enabled: enabled, severities: severities, ignores: files.flatMap(\.ignores), approvals: approvals,
            forbiddenPaths: files.flatMap(\.forbiddenPaths),
            requiredChannels: channels.isEmpty ? defaultRequiredChannels : channels, proofLimits: limits,
            adoptions: files.flatMap(\.adoptions))
        return (settings, diagnostics.items)
    }

    /// Every rule with default settings.
    public static var defaults: PolicySettings { merge([]).settings }
}
