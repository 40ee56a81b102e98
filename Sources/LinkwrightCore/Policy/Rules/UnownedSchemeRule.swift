/// A custom URL scheme that is not reverse-DNS, or that other apps and the system use.
struct UnownedSchemeRule: PolicyRule {
    let info = RuleInfo(
        id: .unownedScheme, defaultSeverity: .error,
        purpose:
            "A custom URL scheme is a well-known shared scheme (http, mailto, fb…) or not in reverse-DNS form.",
        rationale: """
            Any app can declare any scheme, so a short word such as `pokedex` is first come, first served, and a \
            system or well-known app's scheme (`mailto`, `fb`) is not the app's to take. RFC 8252 (OAuth 2.0 for \
            Native Apps, section 7.1) requires a scheme based on a domain the app's publisher controls, in reverse \
            order (`com.example.app`), which no other publisher has reason to declare.
            """,
        examples: [
            RuleExample(
                "a one-word scheme", reportsAt: ["environments/production.yaml:12:7"],
                head: RuleExampleConfiguration.declaringSchemes("      shop:\n        purpose: deep-links\n")),
            RuleExample(
                "the mail scheme", reportsAt: ["environments/production.yaml:12:7"],
                head: RuleExampleConfiguration.declaringSchemes("      mailto:\n        purpose: app-callback\n")),
            RuleExample(
                "an empty label", reportsAt: ["environments/production.yaml:12:7"],
                head: RuleExampleConfiguration.declaringSchemes("      com..shop:\n        purpose: deep-links\n")),
            RuleExample(
                "the app's bundle ID as its scheme", reportsAt: [],
                head: RuleExampleConfiguration.declaringSchemes(
                    "      com.example.shop:\n        purpose: oauth-callback\n        callback: /oauth/callback\n")),
        ])

    /// Schemes of the systems and of widely installed apps: Apple's and Android's own (`tel`,
    /// `sms`, `facetime`, `itms-apps`, `market`, `intent`), the web's, and the social and
    /// messaging apps whose schemes other apps call. A match is reported as taken, not merely
    /// short.
    static let wellKnown: Set<String> = [
        "about", "app-settings", "content", "data", "facetime", "facetime-audio", "fb", "fb-messenger", "file",
        "ftp", "geo", "googlechrome", "googlechromes", "http", "https", "instagram", "intent", "itms", "itms-apps",
        "itms-services", "javascript", "line", "maps", "market", "mailto", "messenger", "prefs", "shortcuts",
        "skype", "slack", "sms", "spotify", "tel", "telprompt", "tg", "twitter", "weixin", "whatsapp", "ws",
        "wss", "x-callback-url", "youtube", "zoomus",
    ]

    func check(_ context: PolicyContext) -> [Finding] {
        context.head.configuration.declaredSchemes.compactMap { declared in
            let labels = declared.name.split(separator: ".", omittingEmptySubsequences: false)
            let problem: String
            if Self.wellKnown.contains(declared.name) {
                problem = "is a well-known scheme that the system or other apps use"
            } else if labels.count < 2 || labels.contains(where: \.isEmpty) {
                problem = "is not in reverse-DNS form"
            } else {
                return nil
            }
            return declared.finding(
                info,
                message:
                    "scheme \(PrintableText.quoted(declared.name)) of \(PrintableText.quoted(declared.app.name.value)) in \(declared.environment.name) \(problem)",
                hint: "use a scheme built from a domain you control, reversed, such as the app's bundle ID or package")
        }
    }
}
