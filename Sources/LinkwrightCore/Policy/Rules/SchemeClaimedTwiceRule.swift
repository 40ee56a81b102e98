/// Two apps of one environment declare the same custom URL scheme.
struct SchemeClaimedTwiceRule: PolicyRule {
    let info = RuleInfo(
        id: .schemeClaimedTwice, defaultSeverity: .error,
        purpose: "Two apps of one environment declare the same custom URL scheme.",
        rationale: """
            Nothing verifies who owns a custom scheme. Apple documents no rule for which of two apps that register \
            one scheme receives its URLs ("Defining a custom URL scheme for your app"), and Android shows a chooser \
            when several activities match an implicit intent: the scheme's links, an OAuth code among them, reach \
            whichever app the device picks.
            """,
        examples: [
            RuleExample(
                "the kiosk app declares the shop's scheme", reportsAt: ["environments/production.yaml:18:7"],
                head: RuleExampleConfiguration.declaringSchemes(Self.shopScheme).replacing(
                    "hosts:\n", with: Self.kiosk(scheme: "com.example.shop") + "hosts:\n",
                    in: "environments/production.yaml")),
            RuleExample(
                "each app declares its own scheme", reportsAt: [],
                head: RuleExampleConfiguration.declaringSchemes(Self.shopScheme).replacing(
                    "hosts:\n", with: Self.kiosk(scheme: "com.example.kiosk") + "hosts:\n",
                    in: "environments/production.yaml")),
            RuleExample(
                "production and staging builds each declare one scheme", reportsAt: [],
                head: RuleExampleConfiguration.declaringSchemes(Self.shopScheme).declaringSchemes(
                    "      com.example.shop.staging:\n        purpose: deep-links\n", in: "staging")),
        ])

    private static let shopScheme = "      com.example.shop:\n        purpose: deep-links\n"

    private static func kiosk(scheme: String) -> String {
        "  kiosk:\n    ios:\n      bundle_id: com.example.kiosk\n    schemes:\n      \(scheme):\n        purpose: deep-links\n"
    }

    func check(_ context: PolicyContext) -> [Finding] {
        var owners: [String: [String: String]] = [:]
        return context.head.configuration.declaredSchemes.compactMap { declared in
            let app = declared.app.name.value
            guard let owner = owners[declared.environment.name, default: [:]][declared.name] else {
                owners[declared.environment.name, default: [:]][declared.name] = app
                return nil
            }
            return declared.finding(
                info,
                message:
                    "scheme \(PrintableText.quoted(declared.name)) is declared by \(PrintableText.quoted(owner)) and \(PrintableText.quoted(app)) in \(declared.environment.name)",
                hint: "give each app a scheme of its own, e.g. its bundle ID or package")
        }
    }
}
