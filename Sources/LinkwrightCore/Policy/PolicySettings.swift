/// The merged settings of every file in `policies/`.
public struct PolicySettings: Sendable {
    /// Rule IDs that run.
    public var enabled: Set<String>
    public var severities: [String: Severity]
    public var ignores: [PolicyIgnore]
    public var approvals: [String: PolicyApproval]
    public var forbiddenPaths: [ForbiddenPath]
    /// Channels every production Android app must list; `play-signing` unless configured:
    /// Google Play re-signs apps with the Play App Signing key, and a device verifies the
    /// certificate it finds on the installed app.
    public var requiredChannels: [String]

    public static let defaultRequiredChannels = ["play-signing"]

    /// Merges the policy files. Conflicting severities for one rule are errors.
    public static func merge(_ files: [PolicyFile]) -> (settings: PolicySettings, diagnostics: [Diagnostic]) {
        var diagnostics = DiagnosticBag()
        let allIDs = PolicyRules.all.map(\.info.id)
        let uses = files.compactMap(\.use)
        var enabled = Set(
            uses.isEmpty || uses.joined().contains { $0.value == "ALL" } ? allIDs : uses.joined().map(\.value))
        enabled.subtract(files.flatMap(\.except).map(\.value))
        var severities: [String: Severity] = [:]
        var severityLocations: [String: SourceLocation] = [:]
        for (rule, severity) in files.flatMap(\.severities) {
            if let first = severityLocations[rule.value], severities[rule.value] != severity.value {
                diagnostics.error(
                    "CONFLICTING_KEYS", "the severity of \(rule.value) is also set at \(first)", at: rule.location,
                    hint: "set each rule's severity in one place")
            }
            severities[rule.value] = severity.value
            severityLocations[rule.value] = rule.location
        }
        var approvals: [String: PolicyApproval] = [:]
        for approval in files.flatMap(\.approvals) { approvals[approval.fingerprint.value] = approval }
        let channels = files.flatMap(\.requiredChannels).map(\.value)
        let settings = PolicySettings(
            enabled: enabled, severities: severities, ignores: files.flatMap(\.ignores), approvals: approvals,
            forbiddenPaths: files.flatMap(\.forbiddenPaths),
            requiredChannels: channels.isEmpty ? defaultRequiredChannels : channels)
        return (settings, diagnostics.items)
    }

    /// Every rule with default settings.
    public static var defaults: PolicySettings { merge([]).settings }
}
