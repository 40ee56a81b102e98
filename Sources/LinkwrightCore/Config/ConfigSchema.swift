/// The schema of each configuration file. Descriptions double as the documentation editors show
/// on hover, so they say what a value means, not just its type.
public enum ConfigSchema {
    static let namePattern = "^[a-z0-9][a-z0-9_-]{0,63}$"
    /// Lowercase labels of letters, digits and `-` (not first or last; non-ASCII letters as
    /// written, `Host.parse` encodes them), at least two, the last not all digits (an IP address),
    /// no trailing dot; `*.` only in front.
    static let hostPattern: String = {
        let label = "(?!-)[a-z0-9\u{A1}-\u{FFFF}-]+(?<!-)"
        return "^(\\*\\.)?(\(label)\\.)+(?![0-9]+$)\(label)$"
    }()
    /// A pattern whose every `$(` is closed (`PatternSyntax`).
    static let patternText = SchemaType.string(pattern: "^([^$]|\\$(?!\\()|\\$\\([^)]*\\))*$")
    /// A reason that says something: not empty, not only spaces.
    static let reasonText = SchemaType.string(pattern: "\\S")
    /// Rule IDs the tool knows, for the lists and keys of `rules:` and `ignore:`.
    static let ruleIDs = RuleID.allCases.map(\.rawValue)
    static let teamIDPattern = "^[A-Z0-9]{10}$"
    /// Two or more segments, each a letter then letters, digits or `_` (`Identifiers.packageNameProblem`).
    static let packagePattern = "^[A-Za-z][A-Za-z0-9_]*(\\.[A-Za-z][A-Za-z0-9_]*)+$"
    /// A rule ID the tool knows, a slash, and the hash (`ConfigDecoder`'s approvals).
    static var fingerprintPattern: String {
        "^(" + ruleIDs.joined(separator: "|") + ")/"
    }
    static let flagFields = ComponentFlag.allCases.map { SchemaField($0.configurationKey, .boolean, $0.summary) }
    static let environmentsField = SchemaField(
        "environments", .list(.string(pattern: namePattern)),
        "Limits this item to these environments, e.g. [staging] until it is promoted.")

    public static let environment = SchemaObject(
        "an environment", "One deployment (production, staging…): its apps, their identities, and the hosts it serves.",
        [
            SchemaField(
                "tier", .enumeration(Tier.allCases.map(\.rawValue)), required: true,
                "What kind of environment this is; policies treat production strictly."),
            SchemaField(
                "team_id", .string(pattern: teamIDPattern),
                "Apple team ID (Application Identifier Prefix) of the iOS apps, 10 uppercase letters or digits."),
            SchemaField(
                "entitlements_mode", .enumeration(EntitlementMode.allCases.map(\.rawValue)),
                "Alternate mode appended to every associated-domain entitlement (?mode=developer)."),
            SchemaField(
                "apps", .map(keyPattern: namePattern, value: .object(app)), required: true,
                "The apps of this environment under logical names that domains refer to."),
            SchemaField(
                "hosts", .map(keyPattern: hostPattern, value: .string(pattern: namePattern)), required: true,
                "Which domain contract each host serves: `museo.example: museo`, `\"*.museo.example\": museo`."),
        ])

    public static let app = SchemaObject(
        "an app", "An app's identity on each platform it ships on.",
        [
            SchemaField(Platform.ios.rawValue, .object(iosApp), "The iOS (or App Clip) build of this app."),
            SchemaField(Platform.android.rawValue, .object(androidApp), "The Android build of this app."),
            SchemaField(
                "schemes", .map(keyPattern: schemePattern, value: .object(customScheme)),
                "Custom URL schemes the app owns, e.g. `es.emergencias.app: {purpose: oauth-callback, callback: /oauth/callback}`."
            ),
        ])

    /// RFC 3986 section 3.1, lowercase only: Android compares schemes case-sensitively.
    static let schemePattern = "^[a-z][a-z0-9+.-]*$"

    public static let customScheme = SchemaObject(
        "a custom scheme", "A custom URL scheme: emitted as Info.plist CFBundleURLTypes and an Android intent filter.",
        [
            SchemaField(
                "purpose", .enumeration(SchemePurpose.allCases.map(\.rawValue)), required: true,
                "What the scheme is for; policies treat an oauth-callback scheme strictly."),
            SchemaField(
                "callback", .text,
                "For purpose oauth-callback (required there): the redirect URI's path, e.g. /oauth/callback. No verified HTTPS link may open it."
            ),
            SchemaField(
                "routes", .nonEmpty(.list(.object(schemeRoute))),
                "Where the app's router takes the scheme's URLs (scheme:/path?query, no authority): the first entry whose path and query items match decides."
            ),
            SchemaField(
                "routes_from", .string(pattern: namePattern),
                "Instead of routes: the routes of the same app's scheme with the same purpose in this environment, e.g. production in staging's file, where the scheme is named for staging's build."
            ),
            SchemaField(
                "expectations", .list(.object(schemeExpectation)),
                "URLs of this scheme and the route each must reach, for `linkwright test`."),
        ])

    public static let schemeRoute = SchemaObject(
        "a scheme route", "One entry of a scheme's routes, in a domain rule's vocabulary.",
        [
            SchemaField(
                "path", noVariablePattern, required: true,
                "Pattern for the path after the scheme: `*` any characters (also /), `?` one character, `?*` at least one."
            ),
            SchemaField(
                "query", .nonEmpty(.map(keyPattern: nil, value: noVariablePattern)),
                "Patterns for named query items (other items may be present; an absent item reads as empty)."),
            SchemaField("exclude", .boolean, "Whether a match stops evaluation with no destination."),
            SchemaField("comment", .text, "Why this entry exists."),
        ] + routeFields, requiredWhen: ("route", "none", "reason"))

    /// A scheme route's pattern: no `$(`, since a scheme has no substitution variables.
    static let noVariablePattern = SchemaType.string(pattern: "^([^$]|\\$(?!\\())*$")

    public static let schemeExpectation = SchemaObject(
        "a scheme expectation", "A URL of the scheme and the destination the app's router must reach.",
        [
            SchemaField(
                "url", .string(pattern: "^[A-Za-z][A-Za-z0-9+.-]*:[^\u{0}-\u{20}\u{7F}]*$"), required: true,
                "A URL of this scheme, e.g. es.emergencias.app:/oauth/callback?code=a&state=b."),
            SchemaField(
                "opens_app", .string(pattern: namePattern),
                "The app the URL opens (default: the app declaring the scheme); no other app of the environment may declare it."
            ),
            SchemaField(
                "platforms", .list(.enumeration(Platform.allCases.map(\.rawValue))),
                "Platforms to check; default: every platform the app ships on."),
            SchemaField("comment", .text, "Why this expectation exists."),
            SchemaField(
                "route", .text, required: true,
                "The router destination the URL reaches, e.g. oauthCallback(code: a, state: b), or none (no destination)."
            ),
        ])

    public static let iosApp = SchemaObject(
        "an iOS app", "An iOS app or App Clip.",
        [
            SchemaField("bundle_id", .text, required: true, "Bundle identifier, e.g. com.example.museo."),
            SchemaField(
                "team_id", .string(pattern: teamIDPattern),
                "Team ID of this app when it differs from the environment's."),
            SchemaField("app_clip", .boolean, "Whether this is an App Clip (it then uses the appclips service)."),
            SchemaField(
                "entitlements", appFilePath,
                "The app's entitlements file for this environment (its CODE_SIGN_ENTITLEMENTS), from the configuration folder: `linkwright sync` keeps its com.apple.developer.associated-domains in step."
            ),
            SchemaField(
                "info_plist", appFilePath,
                "The app's Info.plist for this environment, from the configuration folder: `linkwright sync` keeps its CFBundleURLTypes in step with schemes."
            ),
        ])

    /// A file of the app's own, from the configuration folder: relative, `/`-separated, no empty,
    /// `.` or backslash-holding component (`ConfigDecoder.appFilePath` also keeps it inside the
    /// repository).
    static let appFilePath = SchemaType.string(
        pattern: "^(?!/)(?!.*//)(?!(.*/)?\\.\\.$)(?!(.*/)?\\.(/|$))[^\\\\\u{0}]*[^/\\\\\u{0}]$")
    /// An activity as a manifest names it: `.MainActivity` (relative to the namespace) or a
    /// fully qualified class name.
    static let activityPattern = "^\\.?[A-Za-z_$][A-Za-z0-9_$]*(\\.[A-Za-z_$][A-Za-z0-9_$]*)*$"

    public static let androidApp = SchemaObject(
        "an Android app", "An Android app and the certificates it is signed with.",
        [
            SchemaField(
                "package", .string(pattern: packagePattern), required: true,
                "Application ID (package name), e.g. com.example.museo."),
            SchemaField(
                "fingerprints", .nonEmpty(.map(keyPattern: namePattern, value: .text)), required: true,
                "SHA-256 signing-certificate fingerprints by channel: play-signing, upload, debug…"),
            SchemaField(
                "manifest", appFilePath,
                "The AndroidManifest.xml of this environment's flavor (app/src/<flavor>/AndroidManifest.xml), from the configuration folder: `linkwright sync` keeps the intent filters between its markers in step."
            ),
            SchemaField(
                "activity", .string(pattern: activityPattern),
                "With manifest: the activity that opens the links, as the manifest's android:name writes it, e.g. .MainActivity."
            ),
        ], onlyWith: [("manifest", "activity"), ("activity", "manifest")])

    public static let domain = SchemaObject(
        "a domain", "The link contract of a site: which apps open which URLs, the same in every environment.",
        [
            SchemaField("defaults", .object(flags), "Matching defaults for every rule (Apple's applinks.defaults)."),
            SchemaField(
                "variables", .map(keyPattern: variableNamePattern, value: .nonEmpty(.list(.text))),
                "Custom substitution variables: `$(name)` in a pattern matches any one of the values."),
            SchemaField(
                AssociatedService.applinks.rawValue, .list(.object(applinksEntry)), AssociatedService.applinks.summary),
        ]
            + AssociatedService.appListServices.map {
                SchemaField($0.rawValue, .list(.string(pattern: namePattern)), $0.summary)
            } + [
                SchemaField(
                    "asset_statements", .list(.object(assetStatement)),
                    "Further assetlinks.json statements: relations granted to another site or to an app, beyond App Links and shared credentials."
                ),
                SchemaField("emit", .object(emit), "Opt-in outputs and size budget."),
                SchemaField(
                    "expectations", .list(.object(expectation)), "URLs and what they must open, for `linkwright test`."),
            ])

    /// `delegate_permission/<detail>` (https://github.com/google/digitalassetlinks/blob/master/well-known/details.md).
    static let relationPattern = "^delegate_permission/[a-z0-9_.]+$"
    /// A web site's origin as Digital Asset Links writes it: scheme, host, optional port, no path.
    static let sitePattern = "^https?://[^/?#\\s]+$"

    public static let assetStatement = SchemaObject(
        "an asset statement", "One statement of assetlinks.json: relations granted to a site or an app.",
        [
            SchemaField(
                "relation", .nonEmpty(.list(.string(pattern: relationPattern))), required: true,
                "The relations granted, e.g. delegate_permission/common.get_login_creds."),
            SchemaField(
                "site", .string(pattern: sitePattern), "The web site granted them (https://example.com); or app."),
            SchemaField(
                "app", .string(pattern: namePattern),
                "The app granted them, by name: its Android package and signing keys in each environment; or site."),
        ])

    /// No `$`, `(` or `)`, and not one of Apple's predefined names (`$(lang)`…).
    static var variableNamePattern: String {
        "^(?!(" + PatternSyntax.predefinedVariables.sorted().joined(separator: "|") + ")$)[^$()]+$"
    }

    public static let flags = SchemaObject("defaults", "Matching flags.", flagFields)

    public static let applinksEntry = SchemaObject(
        "an applinks entry", "Apps that share an ordered list of rules (one details entry of the AASA).",
        [
            SchemaField(
                "apps", .nonEmpty(.list(.string(pattern: namePattern))), required: true,
                "Logical names of the apps these rules open, in order."),
            SchemaField("defaults", .object(flags), "Matching defaults for the rules of this entry."),
            SchemaField(
                "rules", .nonEmpty(.list(.object(rule))), required: true,
                "Ordered rules: the first that matches decides; an exclude rule keeps the URL on the web."),
            SchemaField(
                "android_semantics", .boolean,
                "The rules are written as Android dynamic rules read them (for Android-only apps): emitted for Android as they are."
            ),
            environmentsField,
        ])

    public static let rule = SchemaObject(
        "a rule", "One URL pattern (an AASA component).",
        [
            SchemaField(
                "path", patternText,
                "Pattern for the path: `*` any characters (also /), `?` one character, `?*` at least one, `$(var)` one value of a variable."
            ),
            SchemaField(
                "query", .oneOf([patternText, .nonEmpty(.map(keyPattern: nil, value: patternText))]),
                "Pattern for the whole query string, or patterns for named query items (other items may be present)."),
            SchemaField("fragment", patternText, "Pattern for the fragment (after #)."),
            SchemaField("exclude", .boolean, "Whether a match keeps the URL on the web and stops evaluation."),
            SchemaField("comment", .text, "Why this rule exists; emitted as the component's comment."),
        ] + routeFields + flagFields + [environmentsField], requiredWhen: ("route", "none", "reason"))

    /// Where a domain rule's or a scheme route's URLs lead in the app's router.
    static let routeFields = [
        SchemaField(
            "route", .string(pattern: routePattern),
            "The router destination the URLs lead to (a lowerCamel name), or none with a reason."),
        SchemaField(
            "params", .map(keyPattern: parameterNamePattern, value: .string(pattern: parameterSourcePattern)),
            "The route's parameters: `slug: segment 2`, `source?: query source` (optional), `id: segment 2 as int`."),
        SchemaField("reason", .text, "With route: none, why the URLs open the app without a destination."),
    ]

    static let routePattern = "^(none|[a-z][A-Za-z0-9]*)$"
    static let parameterNamePattern = "^[a-z][A-Za-z0-9]*\\??$"
    static let parameterSourcePattern = "^(segment [1-9][0-9]*|query [^ ]+)( as (string|int))?$"

    public static let emit = SchemaObject(
        "emit options", "Opt-in outputs and limits.",
        [
            SchemaField(
                "legacy_paths", .boolean,
                "Also emit a legacy `paths` entry for iOS 12 and older (only when every rule translates exactly)."),
            SchemaField(
                "android_dynamic_rules", .boolean,
                "Emit Android 15 dynamic_app_link_components in assetlinks.json from the same rules."),
            SchemaField(
                "size_budget", .integer(minimum: 1),
                "Warn when an apple-app-site-association file grows past this many bytes (Apple's limit is 131072)."),
        ])

    public static let expectation = SchemaObject(
        "an expectation", "A URL and what it must do.",
        [
            SchemaField(
                "url", .string(pattern: "^(/|https://[^\u{0}-\u{20}\u{7F}/?#])[^\u{0}-\u{20}\u{7F}]*$"), required: true,
                "A path such as /tickets/annual?source=mail (checked on every host of the domain) or an https:// URL."),
            SchemaField(
                "opens_app", .oneOf([.string(pattern: namePattern), .onlyTrue]),
                "The URL opens this app (a logical name), or any app with `true`."),
            SchemaField("opens_web", .onlyTrue, "The URL stays in the browser (write `true`)."),
            SchemaField(
                "platforms", .list(.enumeration(Platform.allCases.map(\.rawValue))),
                "Platforms to check; default: every platform the app ships on."),
            environmentsField,
            SchemaField("comment", .text, "Why this expectation exists."),
            SchemaField(
                "route", .text,
                "With opens_app: the router destination the URL reaches, e.g. exhibition(slug: monet), ticket(id: nil, source: mail) or none."
            ),
        ], exactlyOneOf: ["opens_app", "opens_web"], onlyWith: [("route", "opens_app")])

    public static let policy = SchemaObject(
        "a policy file", "Merge-blocking rules and their settings (see `linkwright rules`).",
        [
            SchemaField("rules", .object(ruleSelection), "Which rules run, and at what severity."),
            SchemaField(
                "forbidden_paths", .list(.object(forbiddenPath)),
                "Paths that must never open an app (e.g. an OAuth callback that must stay on a custom scheme)."),
            SchemaField(
                "required_fingerprint_channels", .list(.string(pattern: namePattern)),
                "Signing-key channels every production Android app must list, e.g. [play-signing]."),
            SchemaField(
                "proof_budget", .object(proofBudget),
                "The work the behaviour diff may do before it reports rule pairs as not proven (BEHAVIOUR_UNPROVEN)."),
            SchemaField("ignore", .list(.object(ignore)), "Findings that do not count in a scope, with the reason."),
            SchemaField(
                "approvals", .list(.object(approval)),
                "Deliberate breaking changes: the finding's fingerprint (printed by `check`) and why."),
            SchemaField(
                "adopted", .list(.object(adoption)),
                "Hosts `linkwright import` adopted, with the SHA-256 of what it built for them: rules about a change do not block on what they served already."
            ),
        ])

    public static let adoption = SchemaObject(
        "an adoption", "A host adopted by `linkwright import`, written by it.",
        [
            SchemaField("environment", .string(pattern: namePattern), required: true, "The environment."),
            SchemaField("host", .text, required: true, "The host, as the environment file binds it."),
            SchemaField(
                "build", .string(pattern: "^[0-9a-f]{64}$"), required: true,
                "The SHA-256 of the files build wrote for the host when it was imported."),
            SchemaField("from", .text, "The files imported."),
        ])

    public static let proofBudget = SchemaObject(
        "a proof budget", "Automaton steps the behaviour diff may take (see docs/semantics.md, Behaviour diffs).",
        [
            SchemaField(
                "region_steps", .integer(minimum: ProofLimits.minimumSteps),
                "Steps one pair of deciding rules may take (default \(ProofLimits.standard.region))."),
            SchemaField(
                "total_steps", .integer(minimum: ProofLimits.minimumSteps),
                "Steps one comparison may take in all (default \(ProofLimits.standard.total))."),
        ])

    public static let ruleSelection = SchemaObject(
        "a rule selection", "Which rules run, and at what severity.",
        [
            SchemaField(
                "use", .list(.enumeration([RuleID.allRulesWord] + ruleIDs)), "Rule IDs to run, or [ALL] (the default)."),
            SchemaField("except", .list(.enumeration(ruleIDs)), "Rule IDs not to run."),
            SchemaField(
                "severity",
                .map(
                    keyPattern: "^(" + ruleIDs.joined(separator: "|") + ")$",
                    value: .enumeration(["error", "warning", "note"])),
                "Severity per rule ID: error blocks a merge, warning and note do not."),
        ])

    public static let forbiddenPath = SchemaObject(
        "a forbidden path", "A path that policy keeps out of association files.",
        [
            SchemaField(
                "path", .string(pattern: "^/"), required: true, "A concrete path; no rule may open an app for it."),
            SchemaField("reason", .text, required: true, "Why, e.g. the architecture decision that requires it."),
        ])

    public static let ignore = SchemaObject(
        "an ignore", "Findings of one rule that do not count in a scope.",
        [
            SchemaField("rule", .enumeration(ruleIDs), required: true, "The rule ID."),
            SchemaField("environment", .string(pattern: namePattern), "Only in this environment."),
            SchemaField("host", .text, "Only on this host."),
            SchemaField("reason", reasonText, required: true, "Why these findings do not count."),
        ])

    public static let approval = SchemaObject(
        "an approval", "A deliberate breaking change.",
        [
            SchemaField(
                "finding", .string(pattern: fingerprintPattern), required: true,
                "The finding's fingerprint, as `check` prints it."),
            SchemaField("reason", reasonText, required: true, "Why the change is intended, and who approved it."),
        ])

    /// The three file kinds, by the name `linkwright schema` takes.
    public static let files: [(kind: String, folder: String, object: SchemaObject)] = [
        ("environment", "environments", environment),
        ("domain", "domains", domain),
        ("policy", "policies", policy),
    ]
}
