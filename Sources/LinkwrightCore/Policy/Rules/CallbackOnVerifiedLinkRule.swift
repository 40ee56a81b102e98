/// The path of an app's OAuth callback scheme opens an app as a verified HTTPS link.
struct CallbackOnVerifiedLinkRule: PolicyRule {
    let info = RuleInfo(
        id: .callbackOnVerifiedLink, defaultSeverity: .error,
        purpose:
            "The callback path of a scheme with purpose oauth-callback opens an app as a universal link or App Link.",
        rationale: """
            An OAuth callback declared on a custom scheme returns the authorization code to the app through that \
            scheme. If an association file also lets the same path open an app over HTTPS, a redirect or a link to \
            that URL hands the code to whichever app claims the host, and a sign-in can finish in the wrong app or \
            on the web. The rule follows the scheme's declared purpose, so it holds without a forbidden_paths entry \
            and moves with the callback when it is renamed.
            """,
        examples: [
            RuleExample(
                "the product rule also takes the callback",
                reportsAt: ["domains/shop.yaml:6:9", "domains/shop.yaml:6:9"],
                head: RuleExampleConfiguration.declaringSchemes(Self.scheme(callback: "/products/callback"))),
            RuleExample(
                "the callback is on a path no rule opens", reportsAt: [],
                head: RuleExampleConfiguration.declaringSchemes(Self.scheme(callback: "/oauth/callback"))),
            RuleExample(
                "a deep-link scheme shares a path with the rules", reportsAt: [],
                head: RuleExampleConfiguration.declaringSchemes(
                    "      com.example.shop:\n        purpose: deep-links\n")),
        ])

    private static func scheme(callback: String) -> String {
        "      com.example.shop:\n        purpose: oauth-callback\n        callback: \(callback)\n"
    }

    func check(_ context: PolicyContext) -> [Finding] {
        var findings: [Finding] = []
        for environment in context.head.compiled.environments {
            guard let declared = context.head.configuration.environment(named: environment.name) else { continue }
            let callbacks = declared.apps.flatMap { app in
                app.schemes.compactMap { scheme in
                    scheme.purpose.value == .oauthCallback ? scheme.callbackPath.map { (app, scheme, $0) } : nil
                }
            }
            guard !callbacks.isEmpty, let evaluator = context.head.evaluator(environment.name) else { continue }
            for (app, scheme, callback) in callbacks {
                let openings = PathOpenings.openings(
                    of: callback.value, in: environment, evaluator: evaluator,
                    configuration: context.head.configuration)
                for opening in openings {
                    let opened = opening.app
                    findings.append(
                        opening.finding(
                            info,
                            message:
                                "the OAuth callback \(scheme.name.value):\(callback.value) of \(PrintableText.quoted(app.name.value)) also opens \(opened.identity) on \(opened.platform.rawValue) over HTTPS in \(environment.name)",
                            hint:
                                "add an exclude rule for \(callback.value) before the rule that matches it, so the callback returns only through the scheme",
                            fallback: callback.location, environment: environment.name,
                            facts: [scheme.name.value, callback.value]))
                }
            }
        }
        return findings
    }
}
