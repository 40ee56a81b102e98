/// The files `linkwright init` starts a configuration with: one environment with one app, one
/// domain with its rules, and a policy file, each led by the `$schema` line editors read. What
/// they decide is pinned by `ExpectationSeeder`, as after `import`.
public struct Scaffold: Sendable {
    public var environment: String
    public var tier: Tier
    /// The logical name of the app.
    public var app: String
    public var teamID: String?
    public var bundleID: String?
    public var package: String?
    /// The Android app's SHA-256 signing-certificate fingerprint, under `play-signing`.
    public var fingerprint: String?
    public var host: Host
    /// Path patterns that open the app, and those kept on the web (written first, so they win).
    public var paths: [String]
    public var excludedPaths: [String]
    /// The route the app's router takes each of `paths` to, in order; `none` for one, or none
    /// at all when empty, writes `route: none` with a reason: the app opens at its start until
    /// someone names the destination, and `generate` writes a router at once either way.
    public var routes: [String]

    public init(
        environment: String, tier: Tier, app: String, teamID: String?, bundleID: String?, package: String?,
        fingerprint: String?, host: Host, paths: [String], excludedPaths: [String], routes: [String] = []
    ) {
        precondition(routes.isEmpty || routes.count == paths.count, "one route per path, or none")
        self.environment = environment
        self.tier = tier
        self.app = app
        self.teamID = teamID
        self.bundleID = bundleID
        self.package = package
        self.fingerprint = fingerprint
        self.host = host
        self.paths = paths
        self.excludedPaths = excludedPaths
        self.routes = routes
    }

    /// The domain's name, as `import` names one after its host (`shop.example` → `shop`).
    public var domain: String {
        let name = Importer.domainName(for: host)
        return Identifiers.nameProblem(name, what: "domain") == nil ? name : "site"
    }

    /// Why a path given no route opens the app without a destination.
    static let unnamedRouteReason =
        "no route was given to init; name the screen these URLs open with route: (and params:)"

    /// The fingerprint channel the scaffold names, and requires in production.
    public static let channel = "play-signing"

    /// Path (relative to the configuration root) and text of each file, environment first.
    public var files: [(path: String, text: String)] {
        [
            ("environments/\(environment).yaml", environmentText),
            ("domains/\(domain).yaml", domainText),
            ("policies/merge.yaml", policyText),
        ]
    }

    var environmentText: String {
        var text = JSONSchemaGenerator.editorComment(for: "environment") + "\n"
        text += "# One deployment: its apps, their identities, and the hosts it serves (docs/configuration.md).\n"
        text += "tier: \(tier.rawValue)\n"
        if let teamID { text += "team_id: \(teamID)\n" }
        text += "apps:\n  \(app):\n"
        if let bundleID { text += "    ios:\n      bundle_id: \(YAMLWriter.scalar(bundleID))\n" }
        if let package, let fingerprint {
            text += "    android:\n      package: \(YAMLWriter.scalar(package))\n"
            text += "      fingerprints:\n        \(Self.channel): \(YAMLWriter.quoted(fingerprint))\n"
        }
        text += "hosts:\n  \(YAMLWriter.scalar(host.name)): \(domain)\n"
        return text
    }

    var domainText: String {
        var text = JSONSchemaGenerator.editorComment(for: "domain") + "\n"
        text += "# The link contract of \(host.name): the first rule that matches a URL decides.\n"
        text += "applinks:\n  - apps: [\(app)]\n    rules:\n"
        for path in excludedPaths { text += "      - path: \(YAMLWriter.scalar(path))\n        exclude: true\n" }
        for (index, path) in paths.enumerated() {
            text += "      - path: \(YAMLWriter.scalar(path))\n"
            let route = index < routes.count ? routes[index] : "none"
            text += "        route: \(route)\n"
            if route == "none" {
                text += "        reason: \(YAMLWriter.scalar(Self.unnamedRouteReason))\n"
            }
        }
        if package != nil {
            // Android 15 decides by the rules themselves, exclusions included; without dynamic rules an
            // intent filter's scope cannot leave an exclusion out.
            text += "emit:\n  android_dynamic_rules: true\n"
        }
        return text
    }

    var policyText: String {
        var text = JSONSchemaGenerator.editorComment(for: "policy") + "\n"
        text += "# What blocks a merge: docs/configuration.md (Policies) and docs/rules.md. Every rule runs.\n"
        text += "rules:\n  use: [ALL]\n"
        if package != nil { text += "required_fingerprint_channels: [\(Self.channel)]\n" }
        return text
    }
}
