/// What `check` (and `diff`, `verify`, `monitor`, `promote`) found: policy findings, the changes
/// between the revisions, what the behaviour proof left unsettled, and notes.
public struct CheckReport: Report, StreamedJSONOutput {
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

    public var title: String
    public var base: Revision?
    public var head: Revision
    public var findings: [Finding]
    public var changes: [LinkChange]
    /// Rule pairs the behaviour diff could not settle within its budget.
    public var unproven: [BehaviourDiff.Unproven]
    public var unusedApprovals: [PolicyApproval]
    /// Things the reader should know: the configuration was absent at the base, and the like.
    public var notes: [String]
    public var rules: [ReportRule]
    public var context: ReportContext
    /// How behaviour changes name apps and order environments when told as sentences.
    public var appNames = AppNames([])
    public var environmentOrder: [String] = []

    public init(
        title: String = "linkwright check", base: Revision?, head: Revision, findings: [Finding],
        changes: [LinkChange] = [], unproven: [BehaviourDiff.Unproven] = [], unusedApprovals: [PolicyApproval] = [],
        notes: [String] = [], rules: [ReportRule] = ReportRule.policies, pathPrefix: String = "",
        failOn: FailThreshold = .error
    ) {
        self.title = title
        self.base = base
        self.head = head
        self.findings = findings
        self.changes = changes
        self.unproven = unproven
        self.unusedApprovals = unusedApprovals
        self.notes = notes
        self.rules = rules
        context = ReportContext(pathPrefix: pathPrefix, baseName: base?.name, failOn: failOn)
    }

    public var summary: String {
        let blocking = findings.filter(blocks).count
        let approved = findings.filter { $0.approval != nil }.count
        let others = findings.filter { !blocks($0) && $0.approval == nil && $0.ignoredBecause == nil }.count
        let ignored = findings.filter { $0.approval == nil && $0.ignoredBecause != nil }.count
        let behaviour = changes.filter(\.kind.isBehaviour).count
        let against = base.map { " against \($0.label)" } ?? ""
        // Every finding listed is counted: the ignored ones too, when there are any.
        return "\(head.name)\(against): \(counted(blocking, "blocking finding")), \(approved) approved, "
            + (ignored == 0 ? "" : "\(ignored) ignored, ")
            + "\(counted(others, "other finding")), \(counted(behaviour, "behaviour change"))"
    }

    // MARK: Text

    /// Findings one cause at a time, then changes, what was not proven, notes and the summary.
    public func text(_ style: TextStyle) -> PrintedReport {
        let findingLines = FindingsText.lines(self, style: style)
        var lines: [String] = []
        for approval in unusedApprovals {
            lines.append(
                "\(place(approval.fingerprint.location)): note: approval \(approval.fingerprint.value) matches no finding"
            )
        }
        if !changes.isEmpty {
            lines.append("changes:")
            for change in changes {
                lines.append("  \(change.summary)")
                for witness in change.witnesses.prefix(3) { lines.append("    e.g. \(witness)") }
            }
        }
        if !unproven.isEmpty {
            lines.append("not proven within the work budget (these URLs may change too):")
            let scopes = BehaviourDiff.Unproven.byScope(unproven)
            for scope in scopes.prefix(20) { lines.append("  \(BehaviourDiff.Unproven.summary(ofScope: scope))") }
            if scopes.count > 20 {
                let left = scopes.dropFirst(20)
                lines.append(
                    "  … and \(counted(left.map(\.count).reduce(0, +), "rule pair")) on \(left.count) more app hosts")
            }
        }
        lines += notes.map { "note: \($0)" }
        lines.append(summary)
        return PrintedReport(out: (findingLines + lines.map(PrintableText.escaped)).joined(separator: "\n") + "\n")
    }

    // MARK: JSON

    /// The members of `json`, which has the documented shape (docs/schema/check-report.schema.json)
    /// and streams, findings and changes made an element at a time: a change to every domain of
    /// a fleet finds millions of things, hundreds of megabytes of JSON.
    public var jsonMembers: [(String, JSON.StreamedMember)] {
        func revision(_ revision: Revision?) -> JSON {
            guard let revision else { return .null }
            return .object([
                ("name", .string(revision.name)), ("commit", revision.commit.map(JSON.string) ?? .null),
                ("merge_base", .bool(revision.isMergeBase)),
            ])
        }
        let (findings, changes) = (findings, changes)
        return [
            ("version", .value(.int(1))),
            ("base", .value(revision(base))),
            ("head", .value(revision(head))),
            ("blocking", .value(.bool(blocks))),
            ("findings", .elements(count: findings.count) { [self] in findingJSON(findings[$0]) }),
            ("changes", .elements(count: changes.count) { changes[$0] }),
            ("unproven", .value(.array(unproven.map(unprovenJSON)))),
            ("unused_approvals", .value(.array(unusedApprovals.map { .string($0.fingerprint.value) }))),
            ("notes", .value(.array(notes.map(JSON.string)))),
        ]
    }

    func findingJSON(_ finding: Finding) -> JSON {
        var members: [(String, JSON)] = [
            ("rule", .string(finding.rule)), ("severity", .string(finding.severity.rawValue)),
            ("message", .string(finding.message)),
        ]
        if let location = finding.location {
            members += [
                ("file", .string(path(location))), ("line", .int(location.line)), ("column", .int(location.column)),
            ]
        }
        members += [
            ("side", .string(finding.side.rawValue)),
            ("hint", finding.hint.map(JSON.string) ?? .null),
            ("witnesses", .array(finding.witnesses.map(JSON.string))),
            ("environment", finding.environment.map(JSON.string) ?? .null),
            ("host", finding.host.map(JSON.string) ?? .null),
            ("platform", finding.platform.map { .string($0.rawValue) } ?? .null),
            ("app", finding.app.map(JSON.string) ?? .null),
            (
                "scopes",
                .array(
                    finding.scopes.map { scope in
                        .object([
                            ("environment", .string(scope.environment)), ("host", .string(scope.host)),
                            ("platform", .string(scope.platform.rawValue)), ("app", .string(scope.app)),
                        ])
                    })
            ),
            ("fingerprint", .string(finding.fingerprint)),
            ("approved", finding.approval.map(JSON.string) ?? .null),
            ("ignored", finding.ignoredBecause.map(JSON.string) ?? .null),
            ("blocking", .bool(blocks(finding))),
        ]
        return .object(members)
    }

    /// A rule pair the behaviour diff left unsettled.
    func unprovenJSON(_ region: BehaviourDiff.Unproven) -> JSON {
        var members: [(String, JSON)] = [
            ("environment", .string(region.environment)), ("host", .string(region.host)),
            ("platform", .string(region.platform.rawValue)), ("app", .string(region.identity)),
            ("base_rule", region.baseRule.map(JSON.string) ?? .null),
            ("head_rule", region.headRule.map(JSON.string) ?? .null),
        ]
        if let location = region.location {
            members += [
                ("file", .string(path(location))), ("line", .int(location.line)), ("column", .int(location.column)),
                ("side", .string(region.side.rawValue)),
            ]
        }
        return .object(members)
    }

    // MARK: Markdown and notices

    /// Behaviour changes per environment, and what the proof left unsettled.
    public func markdownSections(budget: Int) -> [String] {
        var sections = Changelog.byEnvironment(changes).map { environment, changes in
            "<details><summary>\(MarkdownText.cell(environment)): \(counted(changes.count, "change"))</summary>\n\n"
                + Changelog.table(environment, changes, heading: "####") + "\n</details>\n"
        }
        if changes.isEmpty && base != nil && unproven.isEmpty {
            sections.append("No change in which URLs open which app.\n")
        }
        if !unproven.isEmpty {
            sections.append(
                "⚠️ \(counted(unproven.count, "rule pair")) could not be proven within the work budget; "
                    + "the URLs they decide may change too.\n")
        }
        return sections
    }

    public var notices: [String] { changes.filter(\.kind.isBehaviour).map(\.summary) }

    /// One sentence per behaviour change, however many hosts and platforms share it, with
    /// where it happens after it: "Links to `/admin` now open museo (they stayed on the web).
    /// _production: `museo.example` (iOS, Android)_".
    public var behaviourSentences: [String] {
        let entries = ChangeEntry.entries(
            changes.filter(\.kind.isBehaviour), names: appNames, environmentOrder: environmentOrder)
        return entries.map { entry in
            Changelog.sentence(entry.change, code: MarkdownText.code, prose: MarkdownText.cell) + " "
                + "_" + entry.whereText(code: MarkdownText.code, prose: MarkdownText.cell) + "_"
        }
    }

    /// The same report telling apps by `names`, environments in `order`.
    public func naming(_ names: AppNames, order: [String]) -> CheckReport {
        var report = self
        report.appNames = names
        report.environmentOrder = order
        return report
    }

    public var comparesBehaviour: Bool { base != nil }

    public var subject: String? { head.name + (base.map { " against \($0.label)" } ?? "") }
}
