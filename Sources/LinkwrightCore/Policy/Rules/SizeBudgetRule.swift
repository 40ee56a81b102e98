/// An apple-app-site-association file over its size budget.
struct SizeBudgetRule: PolicyRule {
    let info = RuleInfo(
        id: .sizeBudget, defaultSeverity: .warning,
        purpose: "An apple-app-site-association file grows past emit.size_budget (default 100 KB).",
        rationale: """
            Apple reads at most 128 KB (App Search Programming Guide); past it every link of the host stops \
            working. The budget leaves room to notice before that.
            """,
        examples: [
            RuleExample(
                "a budget the file exceeds", reportsAt: ["domains/shop.yaml:8:16", "domains/shop.yaml:8:16"],
                head: RuleExampleConfiguration.replacing(
                    "emit:\n", with: "emit:\n  size_budget: 64\n", in: "domains/shop.yaml")),
            RuleExample("within the default budget", reportsAt: [], head: RuleExampleConfiguration.files),
        ])

    func check(_ context: PolicyContext) -> [Finding] {
        context.head.diagnostics.lifted(into: info, id: .aasaSizeBudget)
    }
}
