/// `*.x` declared while `x` is not.
struct WildcardWithoutRootRule: PolicyRule {
    let info = RuleInfo(
        id: .wildcardWithoutRoot, defaultSeverity: .error,
        purpose: "A wildcard host is declared but its root host, where devices fetch the files, is not.",
        rationale: """
            Apple and Android fetch the association files of *.x from x (TN3155; add-applinks). If x is not part \
            of the environment, nobody deploys or monitors the files every subdomain depends on.
            """,
        examples: [
            RuleExample(
                "wildcard only", reportsAt: ["environments/production.yaml:12:3"],
                head: RuleExampleConfiguration.replacing(
                    "  shop.example: shop\n", with: "  \"*.shop.example\": shop\n", in: "environments/production.yaml")),
            RuleExample(
                "wildcard and root", reportsAt: [],
                head: RuleExampleConfiguration.replacing(
                    "  shop.example: shop\n", with: "  shop.example: shop\n  \"*.shop.example\": shop\n",
                    in: "environments/production.yaml")),
        ])

    func check(_ context: PolicyContext) -> [Finding] {
        context.head.diagnostics.lifted(into: info, id: .wildcardWithoutRoot)
    }
}

extension Array where Element == Diagnostic {
    /// Compiler diagnostics of one ID as findings of a rule, identified by their message.
    func lifted(into info: RuleInfo, id: DiagnosticID) -> [Finding] {
        filter { $0.id == id }.map { diagnostic in
            Finding(
                rule: info.id.rawValue, severity: info.defaultSeverity, message: diagnostic.message,
                location: diagnostic.location,
                hint: diagnostic.hint, identity: [diagnostic.message])
        }
    }
}
