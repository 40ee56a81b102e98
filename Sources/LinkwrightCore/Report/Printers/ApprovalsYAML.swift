/// The `approvals:` entries that approve every open finding of a report, to paste into a file
/// of policies/ once each change is deliberate (as Buf's `--error-format=config-ignore-yaml`).
/// The reason is left for a person to write: an approval without one does not load.
public enum ApprovalsYAML {
    public static func render(_ report: some Report) -> String {
        let open = report.groups.filter { $0.isApprovable && $0.approval == nil && $0.ignoredBecause == nil }
        guard !open.isEmpty else { return "# nothing to approve: every finding is approved or ignored\n" }
        var text = "approvals:\n"
        for group in open {
            let place = group.location.map { " at " + report.place($0) } ?? ""
            text += "  # \(group.rule)\(place): \(PrintableText.escaped(group.headline))\n"
            for fingerprint in group.fingerprints {
                text +=
                    "  - finding: \(fingerprint)\n    reason:  # why this change is deliberate, and who approved it\n"
            }
        }
        return text
    }
}
