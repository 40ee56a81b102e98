/// The apps one concrete path opens in one environment, on every host that serves a domain and
/// on every platform, with the URLs that show it and the rule that decided first. Rules about
/// paths that must stay on the web (`FORBIDDEN_PATH`, `CALLBACK_ON_VERIFIED_LINK`) report these.
struct PathOpenings {
    /// An app that the path opens, on one platform.
    struct OpenedApp: Hashable {
        var platform: Platform
        /// The app ID or package.
        var identity: String

        /// How a finding's identity names the app: one string, as approved fingerprints have it.
        var fingerprintFact: String { "\(platform.rawValue) \(identity)" }
    }

    struct Opening {
        var app: OpenedApp
        var urls: [String]
        /// The rule that decided the first URL.
        var origin: SourceLocation?

        /// A finding of `rule` about this opening in `environment`, at the deciding rule (else at
        /// `fallback`), with the URLs as witnesses, identified by `facts` and the app.
        func finding(
            _ rule: RuleInfo, message: String, hint: String, fallback: SourceLocation, environment: String,
            facts: [String]
        ) -> Finding {
            Finding(
                rule: rule.id.rawValue, severity: rule.defaultSeverity, message: message, location: origin ?? fallback,
                hint: hint, witnesses: urls, environment: environment, platform: app.platform, app: app.identity,
                identity: [environment] + facts + [app.fingerprintFact])
        }
    }

    /// Every app that `path`, or a URL around it (`URLSamples.around`), opens in `environment`,
    /// in the order first seen.
    static func openings(
        of path: String, in environment: CompiledEnvironment, evaluator: EnvironmentEvaluator,
        configuration: Configuration
    ) -> [Opening] {
        guard let declared = configuration.environment(named: environment.name) else { return [] }
        var openings: [Opening] = []
        var positions: [OpenedApp: Int] = [:]
        let bound = declared.boundHostNames
        for binding in declared.hosts {
            guard let domain = configuration.domain(named: binding.domain.value) else { continue }
            let host = URLSamples.host(for: binding.host.value, avoiding: bound)
            for sample in URLSamples.around(path: path, in: domain) {
                guard let url = LinkURL(sample)?.on(host: host) else { continue }
                for platform in Platform.allCases {
                    for verdict in evaluator.verdicts(for: url, platform: platform) where verdict.opens {
                        let app = OpenedApp(platform: platform, identity: verdict.identity)
                        if let position = positions[app] {
                            openings[position].urls.append(url.description)
                        } else {
                            positions[app] = openings.count
                            openings.append(Opening(app: app, urls: [url.description], origin: verdict.decision.origin))
                        }
                    }
                }
            }
        }
        return openings
    }
}
