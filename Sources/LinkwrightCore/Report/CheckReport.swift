/// Everything `check` (and `diff`) prints, independent of the format.
public struct CheckReport: Sendable {
    /// A side of the comparison, as the user named it and as git resolved it.
    public struct Revision: Sendable {
        public var name: String
        public var commit: String?
        /// Set when the base is the merge-base of this head revision and `name` rather than `name`.
        public var mergeBaseWith: String?

        public init(name: String, commit: String?, mergeBaseWith: String? = nil) {
            self.name = name
            self.commit = commit
            self.mergeBaseWith = mergeBaseWith
        }

        public var isMergeBase: Bool { mergeBaseWith != nil }

        public var label: String {
            guard let commit else { return name }
            let short = commit.prefix(7)
            return mergeBaseWith.map { "merge-base of \($0) and \(name) (\(short))" } ?? "\(name) (\(short))"
        }
    }

    public var base: Revision?
    public var head: Revision
    public var findings: [Finding]
    public var changes: [LinkChange]
    /// Rule pairs the behaviour diff could not settle within its budget.
    public var unproven: [BehaviourDiff.Unproven]
    public var unusedApprovals: [PolicyApproval]
    /// Things the reader should know: the configuration was absent at the base, and the like.
    public var notes: [String]
    /// Prepended to configuration-relative paths so they resolve from where the tool runs.
    public var pathPrefix: String

    public init(
        base: Revision?, head: Revision, findings: [Finding], changes: [LinkChange] = [],
        unproven: [BehaviourDiff.Unproven] = [], unusedApprovals: [PolicyApproval] = [], notes: [String] = [],
        pathPrefix: String = ""
    ) {
        self.base = base
        self.head = head
        self.findings = findings
        self.changes = changes
        self.unproven = unproven
        self.unusedApprovals = unusedApprovals
        self.notes = notes
        self.pathPrefix = pathPrefix
    }

    public var blocks: Bool { findings.contains(where: \.blocks) }

    func path(_ location: SourceLocation) -> String { pathPrefix + location.file }
}
