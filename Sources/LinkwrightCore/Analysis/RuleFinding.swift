/// A property of one component (or legacy path) that holds for every URL, proved from the
/// matching automata.
public struct RuleFinding: Hashable, Sendable {
    /// One of `unreachableRule`, `catchAll`, `neverMatches`, `androidSemanticsDiffer`,
    /// `androidReleasesDiffer`, `analysisIncomplete`.
    public var id: DiagnosticID
    /// `note` for a catch-all, `warning` otherwise (also for a catch-all `exclude`).
    public var severity: Severity
    /// Zero-based index of the `details` entry.
    public var entryIndex: Int
    /// Zero-based index of the component (or legacy path) in the entry.
    public var ruleIndex: Int
    /// Where the component was written, when known.
    public var origin: SourceLocation?
    /// What was found, in a sentence.
    public var message: String
    /// For `UNREACHABLE_RULE`: the earlier components that decide first.
    public var decidedBy: [Int]
    /// `false` when the proof had to leave something out (query dictionaries, components with
    /// other `caseSensitive`/`percentEncoded` values, a search cut short): the finding still
    /// holds, but similar ones may have been missed.
    public var isExact: Bool
    /// A path-only URL showing the finding, for `ANDROID_SEMANTICS_DIFFER` and
    /// `ANDROID_RELEASES_DIFFER`.
    public var witness: String?

    /// The finding as a diagnostic, located at the component.
    public var diagnostic: Diagnostic {
        let hint: String
        switch id {
        case .unreachableRule:
            hint = "move it above the rules that decide first, or remove it"
        case .catchAll: hint = "make sure every URL of the site should get this decision"
        case .neverMatches: hint = "fix the pattern, or remove the component"
        case .analysisIncomplete:
            hint = "fewer rules with several `*` between literals keep the analysis within its budget"
        case .androidReleasesDiffer:
            hint =
                "decide whether devices on each release should open it; `linkwright match --assetlinks FILE "
                + "--package NAME --android-release RELEASE` decides URLs as that release does"
        default: hint = "write the pattern so both readings agree, e.g. without a `*` before more text"
        }
        return Diagnostic(id, severity, message, at: origin, hint: hint)
    }
}
