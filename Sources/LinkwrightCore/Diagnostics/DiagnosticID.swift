/// Every diagnostic linkwright reports, by the stable ID that output prints (the raw value). IDs
/// are never renamed once released: scripts and policies match on them. docs/diagnostics.md
/// documents each one in its section with the severity and summary declared here, and a test holds
/// the two together, so an ID cannot be reported without being documented.
///
/// Some IDs are shared by the configuration loader and the foreign-file readers with the same
/// meaning, so a policy that silences one silences both. Where a reader reports an ID at another
/// severity than the one declared here (the foreign readers are lenient, as the platforms are),
/// the report site says so explicitly.
public enum DiagnosticID: String, CaseIterable, Sendable, Comparable, CustomStringConvertible {
    // MARK: Reading files

    case yamlSyntax = "YAML_SYNTAX"
    case duplicateKey = "DUPLICATE_KEY"
    case yamlAlias = "YAML_ALIAS"
    case nestingTooDeep = "NESTING_TOO_DEEP"
    case fileTooLarge = "FILE_TOO_LARGE"
    case invalidUTF8 = "INVALID_UTF8"
    case multipleDocuments = "MULTIPLE_DOCUMENTS"
    case complexKey = "COMPLEX_KEY"
    case emptyFile = "EMPTY_FILE"
    case invalidName = "INVALID_NAME"
    case duplicateName = "DUPLICATE_NAME"
    case notARegularFile = "NOT_A_REGULAR_FILE"
    case tooManyEntries = "TOO_MANY_ENTRIES"
    case misnamedFile = "MISNAMED_FILE"
    case noEnvironments = "NO_ENVIRONMENTS"

    // MARK: Shape and values

    case unknownKey = "UNKNOWN_KEY"
    case missingKey = "MISSING_KEY"
    case missingValue = "MISSING_VALUE"
    case wrongType = "WRONG_TYPE"
    case yaml11Boolean = "YAML11_BOOLEAN"
    case invalidValue = "INVALID_VALUE"
    case valueOutOfRange = "VALUE_OUT_OF_RANGE"
    case conflictingKeys = "CONFLICTING_KEYS"
    case emptyRule = "EMPTY_RULE"
    case invalidTeamID = "INVALID_TEAM_ID"
    case invalidBundleID = "INVALID_BUNDLE_ID"
    case invalidPackageName = "INVALID_PACKAGE_NAME"
    case invalidScheme = "INVALID_SCHEME"
    case invalidFingerprint = "INVALID_FINGERPRINT"
    case fingerprintNormalised = "FINGERPRINT_NORMALISED"
    case teamIDNormalised = "TEAM_ID_NORMALISED"
    case invalidHost = "INVALID_HOST"
    case hostWithPort = "HOST_WITH_PORT"
    case unknownRule = "UNKNOWN_RULE"
    case invalidURL = "INVALID_URL"

    // MARK: References and meaning

    case undefinedDomain = "UNDEFINED_DOMAIN"
    case undefinedApp = "UNDEFINED_APP"
    case undefinedEnvironment = "UNDEFINED_ENVIRONMENT"
    case undefinedVariable = "UNDEFINED_VARIABLE"
    case unterminatedVariable = "UNTERMINATED_VARIABLE"
    case variableShadowsPredefined = "VARIABLE_SHADOWS_PREDEFINED"
    case variableInVariable = "VARIABLE_IN_VARIABLE"
    case invalidVariableName = "INVALID_VARIABLE_NAME"
    case unusedVariable = "UNUSED_VARIABLE"
    case unusedDomain = "UNUSED_DOMAIN"
    case unusedApp = "UNUSED_APP"
    case missingTeamID = "MISSING_TEAM_ID"
    case duplicateAppID = "DUPLICATE_APP_ID"
    case appPlatformMismatch = "APP_PLATFORM_MISMATCH"
    case wildcardRootConflict = "WILDCARD_ROOT_CONFLICT"
    case wildcardWithoutRoot = "WILDCARD_WITHOUT_ROOT"
    case androidSemanticsOnIOS = "ANDROID_SEMANTICS_ON_IOS"
    case publicDebugKey = "PUBLIC_DEBUG_KEY"
    case routeMissing = "ROUTE_MISSING"
    case routeParametersDiffer = "ROUTE_PARAMETERS_DIFFER"
    case generatedNameClash = "GENERATED_NAME_CLASH"
    case routeParameterMayBeAbsent = "ROUTE_PARAMETER_MAY_BE_ABSENT"
    case routeParameterNeverParses = "ROUTE_PARAMETER_NEVER_PARSES"
    case schemeCallbackUnrouted = "SCHEME_CALLBACK_UNROUTED"

    // MARK: Compiling

    case aasaTooLarge = "AASA_TOO_LARGE"
    case aasaSizeBudget = "AASA_SIZE_BUDGET"
    case legacyPathsInexact = "LEGACY_PATHS_INEXACT"
    case androidQueryString = "ANDROID_QUERY_STRING"
    case androidCaseSensitive = "ANDROID_CASE_SENSITIVE"
    case androidPatternWidened = "ANDROID_PATTERN_WIDENED"
    case androidExclusionIgnored = "ANDROID_EXCLUSION_IGNORED"
    case outputOutOfDate = "OUTPUT_OUT_OF_DATE"

    // MARK: Reading association files (`match`, `explain`, `import`)

    case invalidJSON = "INVALID_JSON"
    case byteOrderMark = "BOM"
    case duplicateJSONKey = "DUPLICATE_JSON_KEY"
    case signedAASA = "SIGNED_AASA"
    case invalidSignedFile = "INVALID_SIGNED_FILE"
    case invalidAppID = "INVALID_APP_ID"
    case appIDAndAppIDs = "APP_ID_AND_APP_IDS"
    case mixedLegacyModern = "MIXED_LEGACY_MODERN"
    case queryDictionaryIgnored = "QUERY_DICTIONARY_IGNORED"
    case queryStarMatchesAbsent = "QUERY_STAR_MATCHES_ABSENT"
    case unknownRelation = "UNKNOWN_RELATION"
    case unknownNamespace = "UNKNOWN_NAMESPACE"
    case invalidSite = "INVALID_SITE"
    case dynamicRulesDiscarded = "DYNAMIC_RULES_DISCARDED"
    case dynamicQueryStringIgnored = "DYNAMIC_QUERY_STRING_IGNORED"
    case duplicateDynamicRules = "DUPLICATE_DYNAMIC_RULES"
    case patternSyntax = "PATTERN_SYNTAX"

    // MARK: Rule analysis

    case unreachableRule = "UNREACHABLE_RULE"
    case routeOverlap = "ROUTE_OVERLAP"
    case catchAll = "CATCH_ALL"
    case neverMatches = "NEVER_MATCHES"
    case androidSemanticsDiffer = "ANDROID_SEMANTICS_DIFFER"
    case androidReleasesDiffer = "ANDROID_RELEASES_DIFFER"
    case analysisIncomplete = "ANALYSIS_INCOMPLETE"

    // MARK: Promotion (`promote`)

    case promotionRefused = "PROMOTION_REFUSED"
    case promotionNeedsHost = "PROMOTION_NEEDS_HOST"

    // MARK: Live checks (`verify`, `monitor`)

    case originUnreachable = "ORIGIN_UNREACHABLE"
    case originRedirect = "ORIGIN_REDIRECT"
    case originStatus = "ORIGIN_STATUS"
    case originContentType = "ORIGIN_CONTENT_TYPE"
    case originTooLarge = "ORIGIN_TOO_LARGE"
    case originInvalid = "ORIGIN_INVALID"
    case originDiffers = "ORIGIN_DIFFERS"
    case cdnUnreachable = "CDN_UNREACHABLE"
    case cdnStatus = "CDN_STATUS"
    case cdnInvalid = "CDN_INVALID"
    case cdnDiffers = "CDN_DIFFERS"
    case invalidState = "INVALID_STATE"

    // MARK: Built apps (`verify --app`)

    case appNotDeclared = "APP_NOT_DECLARED"
    case appUnsigned = "APP_UNSIGNED"
    case appKeyNotListed = "APP_KEY_NOT_LISTED"
    case appDomainMissing = "APP_DOMAIN_MISSING"
    case appDomainUnverified = "APP_DOMAIN_UNVERIFIED"
    case appDomainExtra = "APP_DOMAIN_EXTRA"
    case appDomainMode = "APP_DOMAIN_MODE"
    case appProfileDisallows = "APP_PROFILE_DISALLOWS"
    case appIDNotServed = "APP_ID_NOT_SERVED"
    case appSchemeMissing = "APP_SCHEME_MISSING"
    case appSchemeExtra = "APP_SCHEME_EXTRA"

    // MARK: Import (`import`)

    case importAppID = "IMPORT_APP_ID"
    case importVariable = "IMPORT_VARIABLE"
    case importFileName = "IMPORT_FILE_NAME"
    case importNothing = "IMPORT_NOTHING"
    case importConflict = "IMPORT_CONFLICT"
    case importUncarried = "IMPORT_UNCARRIED"

    // MARK: App files (`sync`)

    case appFileOutOfDate = "APP_FILE_OUT_OF_DATE"
    case appFileUnusable = "APP_FILE_UNUSABLE"
}

/// A section of docs/diagnostics.md, by its anchor.
public enum DiagnosticSection: String, CaseIterable, Sendable {
    case readingFiles = "reading-files"
    case shapeAndValues = "shape-and-values"
    case referencesAndMeaning = "references-and-meaning"
    case compiling = "compiling"
    case readingAssociationFiles = "reading-association-files-match-explain-import"
    case ruleAnalysis = "rule-analysis"
    case promotion = "promotion-promote"
    case liveChecks = "live-checks-verify-monitor"
    case builtApps = "built-apps-verify---app"
    case importing = "import-import"
    case appFiles = "app-files-sync"
}

extension DiagnosticID {
    /// The severity reported unless a site says otherwise.
    public var severity: Severity { declaration.severity }
    /// Where docs/diagnostics.md documents the ID.
    public var section: DiagnosticSection { declaration.section }
    /// What the ID means, as the Meaning column of docs/diagnostics.md says it (Markdown).
    public var summary: String { declaration.summary }

    public var description: String { rawValue }

    /// Ordered as the printed IDs are, so sorted output does not depend on case order.
    public static func < (lhs: DiagnosticID, rhs: DiagnosticID) -> Bool { lhs.rawValue < rhs.rawValue }

    private var declaration: (severity: Severity, section: DiagnosticSection, summary: String) {
        switch self {
        case .yamlSyntax:
            (
                .error, .readingFiles,
                "libyaml could not parse the file; the message is libyaml's problem and context. Tabs cannot "
                    + "indent YAML."
            )
        case .duplicateKey:
            (
                .error, .readingFiles,
                "A key appears twice in one mapping (libyaml accepts this silently; we do not); two variable names "
                    + "equal under Unicode normalisation (`café` in NFC and NFD) are one key."
            )
        case .yamlAlias:
            (.error, .readingFiles, "Anchors (`&a`) and aliases (`*a`) are refused, so an alias bomb costs nothing.")
        case .nestingTooDeep:
            (.error, .readingFiles, "Deeper than 32 levels: libyaml's time grows with the square of nesting depth.")
        case .fileTooLarge: (.error, .readingFiles, "Over 1 MiB; configuration files are never that big.")
        case .invalidUTF8:
            (.error, .readingFiles, "The file is not UTF-8; the position of the first bad byte is given.")
        case .multipleDocuments: (.error, .readingFiles, "A `---` separator starts a second document.")
        case .complexKey: (.error, .readingFiles, "A mapping or list used as a key.")
        case .emptyFile: (.error, .readingFiles, "An environment or domain file with no content.")
        case .invalidName:
            (
                .error, .readingFiles,
                "A file name or logical name (environment, domain, app, channel) outside `[a-z0-9_-]`. Names "
                    + "become file names, so they cannot spell a path."
            )
        case .duplicateName: (.error, .readingFiles, "Two files define the same name (`shop.yaml` and `shop.yml`).")
        case .notARegularFile:
            (
                .error, .readingFiles,
                "A configuration folder or file that is a symbolic link, submodule, FIFO, socket or device. "
                    + "Configuration is read only from regular files inside the configuration folder, in the working "
                    + "tree and in commits alike; a link is never followed, so a committed link cannot make linkwright"
                    + " read (and quote) a file outside the repository."
            )
        case .tooManyEntries:
            (
                .error, .readingFiles,
                "A configuration folder holds more than 100,000 entries; none is read, so a tree of millions of "
                    + "names costs one listing."
            )
        case .misnamedFile:
            (
                .error, .readingFiles,
                "A name in a configuration folder that looks meant to be read but is not (`merge.YAML`, "
                    + "`merge.yaml ` with a trailing space, a subfolder such as `policies/sub/`): it would vanish "
                    + "silently, and with it a policy or an environment."
            )
        case .noEnvironments: (.error, .readingFiles, "`environments/` is missing or empty: nothing to compile.")

        case .unknownKey:
            (.error, .shapeAndValues, "A key the schema does not know, with a \"did you mean\" when one is close.")
        case .missingKey:
            (.error, .shapeAndValues, "A required key is absent (e.g. `tier`, `hosts`, an expectation's outcome).")
        case .missingValue:
            (.error, .shapeAndValues, "A key with an empty value, an empty list where one item is needed.")
        case .wrongType:
            (
                .error, .shapeAndValues,
                "A value of the wrong type. Numbers and booleans where a string is expected must be quoted."
            )
        case .yaml11Boolean:
            (
                .error, .shapeAndValues,
                "`yes`, `no`, `on`, `off`, `y`, `n` where a boolean is expected: YAML 1.1 reads them as "
                    + "booleans, YAML 1.2 and linkwright do not."
            )
        case .invalidValue:
            (.error, .shapeAndValues, "A value outside a fixed set (tier, mode, platform) or otherwise meaningless.")
        case .valueOutOfRange: (.error, .shapeAndValues, "A number below its minimum.")
        case .conflictingKeys: (.error, .shapeAndValues, "Keys that exclude each other (`opens_app` with `opens_web`).")
        case .emptyRule:
            (.error, .shapeAndValues, "A rule with no path, query or fragment. Write `path: \"*\"` to match every URL.")
        case .invalidTeamID: (.error, .shapeAndValues, "Not 10 uppercase letters or digits.")
        case .invalidBundleID:
            (
                .error, .shapeAndValues,
                "Not a reverse-DNS bundle ID, or an Xcode placeholder such as `$(PRODUCT_BUNDLE_IDENTIFIER)`."
            )
        case .invalidPackageName:
            (.error, .shapeAndValues, "Not a Java-style package: two or more segments, each starting with a letter.")
        case .invalidScheme:
            (
                .error, .shapeAndValues,
                "A custom URL scheme that is not a lowercase RFC 3986 scheme (a letter, then letters, digits, `+`, `-`, `.`)."
            )
        case .invalidFingerprint:
            (.error, .shapeAndValues, "Not 32 bytes of hex (a SHA-1 fingerprint gets its own hint).")
        case .fingerprintNormalised:
            (
                .warning, .shapeAndValues,
                "A lowercase or unseparated fingerprint, emitted in Google's canonical uppercase colon form."
            )
        case .teamIDNormalised:
            (.warning, .shapeAndValues, "A team ID written in lowercase, emitted in the uppercase form Apple issues.")
        case .invalidHost:
            (
                .error, .shapeAndValues,
                "Not a lowercase fully qualified host: a scheme, path, uppercase, empty label, IP address, "
                    + "or `*` other than a leading `*.`; a label over 63 characters (in its `xn--` form, checked "
                    + "before encoding) or a host over 253. Internationalised names are accepted and converted to "
                    + "punycode when every label is valid IDNA2008: no invisible or bidi control characters "
                    + "(U+202E, U+200B, …), no symbols or compatibility variants such as fullwidth letters (RFC "
                    + "5892), no `。`, `．` or `｡` in place of the dot (UTS #46 reads them as one), and an `xn--` "
                    + "label must be the standard encoding of such a label (RFC 5891 §5.3). The Bidi rule (RFC "
                    + "5893) is not checked. Hosts given on the command line (`--host` of `match`, `verify`, "
                    + "`monitor`, `import`, and of `diff`, `check`, `changelog` with `--artifact`; `import "
                    + "--from` folder names) are checked the same way."
            )
        case .hostWithPort: (.error, .shapeAndValues, "Apple ignores links on hosts with a port (TN3155).")
        case .unknownRule:
            (
                .error, .shapeAndValues,
                "A policy file names a rule ID that does not exist (`linkwright rules` lists them)."
            )
        case .invalidURL:
            (
                .error, .shapeAndValues,
                "An expectation URL that is neither a path nor an `https://` URL, or cannot be parsed."
            )

        case .undefinedDomain: (.error, .referencesAndMeaning, "A host serves a domain that has no file in `domains/`.")
        case .undefinedApp:
            (
                .error, .referencesAndMeaning,
                "A domain or expectation names an app no environment defines (or an expectation names an app its"
                    + " domain never lists)."
            )
        case .undefinedEnvironment:
            (.error, .referencesAndMeaning, "`environments: [...]` names an environment that does not exist.")
        case .undefinedVariable:
            (
                .error, .referencesAndMeaning,
                "A pattern uses `$(name)` that is neither custom nor one of Apple's predefined variables."
            )
        case .unterminatedVariable: (.error, .referencesAndMeaning, "`$(` without its `)`.")
        case .variableShadowsPredefined:
            (
                .error, .referencesAndMeaning,
                "A custom variable named like Apple's `alpha`, `upper`, `lower`, `alnum`, `digit`, `xdigit`, "
                    + "`region` or `lang`. Apple does not say which wins; we refuse the ambiguity."
            )
        case .variableInVariable:
            (.error, .referencesAndMeaning, "A variable value uses another variable, which Apple does not allow.")
        case .invalidVariableName: (.error, .referencesAndMeaning, "A variable name with `$`, `(` or `)`.")
        case .unusedVariable: (.warning, .referencesAndMeaning, "A variable no pattern uses.")
        case .unusedDomain: (.warning, .referencesAndMeaning, "A domain no host serves.")
        case .unusedApp: (.warning, .referencesAndMeaning, "An app no domain served in its environment uses.")
        case .missingTeamID:
            (.error, .referencesAndMeaning, "An iOS app without a team ID (none on the app or its environment).")
        case .duplicateAppID:
            (.error, .referencesAndMeaning, "Two logical apps of one environment share a bundle ID or package.")
        case .appPlatformMismatch:
            (
                .error, .referencesAndMeaning,
                "An app in `appclips` that is not an App Clip, or in `activitycontinuation` without an iOS "
                    + "build."
            )
        case .wildcardRootConflict:
            (
                .error, .referencesAndMeaning,
                "`*.x` and `x` serve different domains, yet both read `x`'s association files."
            )
        case .wildcardWithoutRoot:
            (
                .warning, .referencesAndMeaning,
                "`*.x` without `x`: the files are served from `x` anyway, and `*.x` does not cover `x` itself."
            )
        case .androidSemanticsOnIOS:
            (
                .warning, .referencesAndMeaning,
                "An `android_semantics` entry lists an app with an iOS build, which reads the rules with Apple's"
                    + " semantics."
            )
        case .routeMissing:
            (
                .error, .referencesAndMeaning,
                "A domain names routes, but a rule that opens an app has none: write `route:` or `route: none` with a `reason:`."
            )
        case .routeParametersDiffer:
            (
                .error, .referencesAndMeaning,
                "Two rules lead to one route with different parameters (names, types or which are optional)."
            )
        case .generatedNameClash:
            (
                .error, .referencesAndMeaning,
                "Two apps whose names make the same router types (`museo-clip`, `museo_clip`), or two routes that differ only in case, which the generated routers cannot keep apart."
            )
        case .routeParameterMayBeAbsent:
            (
                .error, .referencesAndMeaning,
                "A required route parameter reads a path segment or query item that some URL the rule opens does not have."
            )
        case .routeParameterNeverParses:
            (
                .warning, .referencesAndMeaning,
                "A route parameter read `as int` reads a path segment or query item that the rule only opens with text that is not an integer, so the router never reaches the destination with it."
            )
        case .schemeCallbackUnrouted:
            (
                .warning, .referencesAndMeaning,
                "An `oauth-callback` scheme names routes, but the first entry whose path matches its `callback` path leads to no destination."
            )
        case .publicDebugKey:
            (
                .warning, .referencesAndMeaning,
                "A production app trusts the React Native template's public debug keystore."
            )

        case .aasaTooLarge: (.error, .compiling, "An apple-app-site-association file over Apple's 128 KB limit.")
        case .aasaSizeBudget: (.warning, .compiling, "Over `emit.size_budget` (default 100 KB).")
        case .legacyPathsInexact:
            (
                .error, .compiling,
                "`emit.legacy_paths` is on but a rule uses something legacy `paths` cannot say (query, fragment,"
                    + " flags, variables)."
            )
        case .androidQueryString:
            (
                .error, .compiling,
                "Android dynamic rules take query items only; a whole-query pattern cannot be translated."
            )
        case .androidCaseSensitive:
            (.warning, .compiling, "A case-insensitive rule: Android dynamic rules have no `caseSensitive`.")
        case .androidPatternWidened:
            (.warning, .compiling, "A variable Android cannot expand became a wildcard, so Android matches more.")
        case .androidExclusionIgnored:
            (
                .warning, .compiling,
                "Without dynamic rules an exclusion has no effect on Android inside the intent-filter scope."
            )
        case .outputOutOfDate:
            (
                .error, .compiling,
                "`build --check`: a file in the output folder is not what the configuration compiles to."
            )

        case .invalidJSON:
            (.error, .readingAssociationFiles, "Not one RFC 8259 JSON value; line and column of the first problem.")
        case .byteOrderMark: (.warning, .readingAssociationFiles, "A UTF-8 byte order mark opens the file.")
        case .duplicateJSONKey:
            (
                .warning, .readingAssociationFiles,
                "An object repeats a key; the last value is used, as Apple's parser does."
            )
        case .signedAASA:
            (
                .warning, .readingAssociationFiles,
                "A PKCS#7-signed file (iOS 8 era): its JSON is read, its signature is not verified."
            )
        case .invalidSignedFile: (.error, .readingAssociationFiles, "Starts like a PKCS#7 envelope but cannot be read.")
        case .invalidAppID:
            (
                .warning, .readingAssociationFiles,
                "An app ID without a 10-character team prefix, with a build-setting placeholder, or with a "
                    + "malformed bundle ID: it never matches an installed app."
            )
        case .appIDAndAppIDs:
            (
                .warning, .readingAssociationFiles,
                "An entry with both `appID` and `appIDs`; `appIDs` wins (swcutil-backed test)."
            )
        case .mixedLegacyModern:
            (
                .warning, .readingAssociationFiles,
                "An entry mixing legacy (`appID`, `paths`) and modern (`appIDs`, `components`) keys (TN3155: "
                    + "\"Don't mix and match\")."
            )
        case .queryDictionaryIgnored:
            (
                .warning, .readingAssociationFiles,
                "A `?` dictionary with a non-string value: swcutil ignores the whole dictionary."
            )
        case .queryStarMatchesAbsent:
            (
                .warning, .readingAssociationFiles,
                "A `\"*\"` query-item pattern also matches URLs without the item; `\"?*\"` requires it."
            )
        case .unknownRelation:
            (
                .warning, .readingAssociationFiles,
                "A relation string Android and Chrome do not act on, or a malformed one."
            )
        case .unknownNamespace:
            (.warning, .readingAssociationFiles, "A target namespace other than `android_app` and `web`.")
        case .invalidSite:
            (.error, .readingAssociationFiles, "A web target whose `site` is not `http[s]://host[:port]`.")
        case .dynamicRulesDiscarded:
            (
                .error, .readingAssociationFiles,
                "A malformed or empty field in `dynamic_app_link_components`: Android discards the statement's "
                    + "dynamic rules."
            )
        case .dynamicQueryStringIgnored:
            (.warning, .readingAssociationFiles, "A string `?` in a dynamic rule, which AOSP's parser drops.")
        case .duplicateDynamicRules:
            (
                .warning, .readingAssociationFiles,
                "Several `dynamic_app_link_components` for one app: Android does not say which it uses."
            )
        case .patternSyntax:
            (
                .error, .readingAssociationFiles,
                "A pattern that does not parse (`$(` without `)`, `$()`); it never matches."
            )

        case .unreachableRule:
            (.warning, .ruleAnalysis, "A rule that earlier rules of the same entry always decide first.")
        case .routeOverlap:
            (
                .warning, .ruleAnalysis,
                "A URL (the witness) matches a rule and an earlier one of the same entry (or two entries of one custom scheme's routes) leading to another route, so it never reaches the later one's route."
            )
        case .catchAll: (.note, .ruleAnalysis, "A rule that matches every URL.")
        case .neverMatches: (.warning, .ruleAnalysis, "A rule no URL can match.")
        case .androidSemanticsDiffer:
            (.warning, .ruleAnalysis, "A pattern that Apple and Android read differently, with a witness.")
        case .androidReleasesDiffer:
            (
                .warning, .ruleAnalysis,
                "An emitted dynamic-rule pattern that Android releases read differently (their dynamic-rule "
                    + "parser changed), with a URL for each release that opens where another does not."
            )
        case .analysisIncomplete:
            (
                .note, .ruleAnalysis,
                "The analysis reached the work budget of its file or of the command (hundreds of "
                    + "overlapping `*a*b*…` rules, [matching.md](matching.md#bounds)): the rules of the entry "
                    + "from the one named on were not checked (or, for `ANDROID_SEMANTICS_DIFFER`, not compared "
                    + "with their Android dynamic rules)."
            )

        case .promotionRefused:
            (
                .error, .promotion,
                "Something that must not reach the target environment: an expectation on a host only the source "
                    + "serves, or an edit the YAML editor cannot make safely. Nothing is written."
            )
        case .promotionNeedsHost:
            (
                .error, .promotion,
                "The source serves a domain the target does not, and no target host can be derived from the "
                    + "target's other hosts. Bind one first."
            )

        case .originUnreachable:
            (
                .error, .liveChecks,
                "No HTTP answer: the host does not resolve, refuses the connection, presents a certificate "
                    + "devices do not trust (or not for this name), or does not answer in time."
            )
        case .originRedirect:
            (
                .error, .liveChecks,
                "A 3xx answer; devices never follow redirects for association files. The Location is named."
            )
        case .originStatus: (.error, .liveChecks, "An answer other than 200.")
        case .originContentType:
            (
                .error, .liveChecks,
                "Not `application/json`: an error for `assetlinks.json` (Android requires it), a warning for the"
                    + " AASA (recommended)."
            )
        case .originTooLarge: (.error, .liveChecks, "Over 128 KB (the body is not read further).")
        case .originInvalid:
            (.error, .liveChecks, "Not a readable association file; line and column of the first problem.")
        case .originDiffers:
            (
                .error, .liveChecks,
                "Readable, but it means something else than the build: a URL decided otherwise (each change names"
                    + " one), or another app, key or statement. Written otherwise but deciding every URL alike for"
                    + " the same apps is a note; key order and whitespace never count."
            )
        case .cdnUnreachable: (.error, .liveChecks, "Apple's CDN did not answer.")
        case .cdnStatus:
            (
                .error, .liveChecks,
                "The CDN answers other than 200; its `Apple-Failure-Reason` and `Apple-Failure-Details` say why."
            )
        case .cdnInvalid: (.error, .liveChecks, "The CDN's copy is not readable.")
        case .cdnDiffers:
            (
                .error, .liveChecks,
                "The CDN's copy differs from the build: still an older copy, or as wrong as the origin. "
                    + "`monitor` turns it into a note until it has lasted longer than `--grace`."
            )
        case .invalidState:
            (.error, .liveChecks, "The monitor state file is not one `monitor` wrote; delete it to start over.")

        case .appNotDeclared:
            (
                .error, .builtApps,
                "The build's package or bundle ID is not an app of the environment: the wrong build, or the"
                    + " wrong `--env`."
            )
        case .appUnsigned:
            (
                .error, .builtApps,
                "The build is not signed (an APK with no v1, v2 or v3 signature, an executable without a code"
                    + " signature): no device installs it."
            )
        case .appKeyNotListed:
            (
                .error, .builtApps,
                "The build is signed with a certificate that `assetlinks.json` does not list for its package on a"
                    + " host it verifies, so Android does not verify its links; the key's channel is named when the "
                    + "configuration knows it (an upload-key build against a Play-signing-only file)."
            )
        case .appDomainMissing:
            (
                .error, .builtApps,
                "A host of the contract the build does not claim: no `applinks:` (or other) entitlement, no "
                    + "verified intent filter (`*.x` does not cover `x`). Its links open the browser."
            )
        case .appDomainUnverified:
            (
                .error, .builtApps,
                "A host of the contract named only by intent filters without `android:autoVerify=\"true\"` (lost"
                    + " in a manifest merge): Android asks the user instead of opening the app."
            )
        case .appDomainExtra:
            (
                .error, .builtApps,
                "A host the build claims that the contract does not serve: its association file does not name "
                    + "the app, and before Android 12 one failing host fails all of them."
            )
        case .appDomainMode:
            (
                .error, .builtApps,
                "An associated domain signed with `?mode=developer` (or `managed`) that the environment does not"
                    + " use: a staging entitlements file in the App Store build."
            )
        case .appProfileDisallows:
            (
                .error, .builtApps,
                "The embedded provisioning profile does not allow what the app is signed with: another app ID, or"
                    + " no Associated Domains (the capability is missing from the release profile)."
            )
        case .appIDNotServed:
            (
                .error, .builtApps,
                "The build's app ID (its signing team and bundle ID) is not named by the AASA built for a host it"
                    + " claims with `applinks:`."
            )
        case .appSchemeMissing:
            (.error, .builtApps, "A custom scheme of the contract that the build does not declare.")
        case .appSchemeExtra:
            (
                .warning, .builtApps,
                "A custom scheme the build declares and the contract does not: nobody reviews its routes."
            )

        case .importAppID:
            (
                .error, .importing,
                "An app ID that is not `TEAMID.bundle` (no team prefix, a build-setting placeholder, a malformed"
                    + " bundle ID): it matches no installed app and has no place in the configuration."
            )
        case .importVariable:
            (.error, .importing, "A substitution variable named like one of Apple's predefined variables.")
        case .importFileName:
            (
                .warning, .importing,
                "The file carries a `.json` extension; iOS fetches `/.well-known/apple-app-site-association` "
                    + "without one."
            )
        case .importNothing: (.error, .importing, "The files name no app at all.")
        case .importConflict:
            (
                .error, .importing,
                "Importing into an existing environment would change what it declares: a host it serves already,"
                    + " an app it lists with other signing keys, or a file that cannot be edited in place."
            )
        case .importUncarried:
            (
                .error, .importing,
                "Part of an original file that the configuration cannot carry, so the build would not serve it"
                    + " again: an AASA key that is no service, or an assetlinks.json `include` statement."
            )

        case .appFileOutOfDate:
            (
                .error, .appFiles,
                "`sync --check`: the part of an app file the contract owns (associated domains, URL types, the"
                    + " manifest's intent filters between the markers) is not what the configuration compiles to."
            )
        case .appFileUnusable:
            (
                .error, .appFiles,
                "An app file `sync` cannot keep in step: missing, a binary property list, not well-formed, a link,"
                    + " uncommitted changes, outside the repository, or a manifest without the activity or with stray"
                    + " markers."
            )
        }
    }
}
