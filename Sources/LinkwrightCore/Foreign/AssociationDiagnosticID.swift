/// The stable IDs of every diagnostic the foreign-file readers, the pattern compiler and the rule
/// analysis report. IDs marked "shared" are also reported by the configuration loader with the same
/// meaning, so a policy that silences one silences both.
public enum AssociationDiagnosticID {
    // MARK: JSON and file envelope

    /// The bytes are not one RFC 8259 JSON value (error).
    public static let invalidJSON = "INVALID_JSON"
    /// A UTF-8 byte order mark opens the file (warning).
    public static let byteOrderMark = "BOM"
    /// An object repeats a key; the last value is used (warning).
    public static let duplicateJSONKey = "DUPLICATE_JSON_KEY"
    /// The file is over the reader's size cap (error). Shared.
    public static let fileTooLarge = "FILE_TOO_LARGE"
    /// Arrays and objects nest deeper than the reader's cap (error). Shared.
    public static let nestingTooDeep = "NESTING_TOO_DEEP"
    /// A PKCS#7 / CMS signed file; its JSON is read, its signature is not verified (warning).
    public static let signedAASA = "SIGNED_AASA"
    /// A file that starts like a PKCS#7 envelope but whose structure cannot be read (error).
    public static let invalidSignedFile = "INVALID_SIGNED_FILE"

    // MARK: Shape of association files

    /// A value of the wrong JSON type (error). Shared.
    public static let wrongType = "WRONG_TYPE"
    /// A key the platform does not read (warning). Shared.
    public static let unknownKey = "UNKNOWN_KEY"
    /// A required key is absent (error). Shared.
    public static let missingKey = "MISSING_KEY"

    // MARK: apple-app-site-association

    /// The file is over Apple's 128 KB limit (warning). Shared.
    public static let aasaTooLarge = "AASA_TOO_LARGE"
    /// An app ID without a 10-character team prefix, with a build-setting placeholder, or with a
    /// malformed bundle ID: it never matches an installed app (warning).
    public static let invalidAppID = "INVALID_APP_ID"
    /// An entry with both `appID` and `appIDs`; `appIDs` wins (warning).
    public static let appIDAndAppIDs = "APP_ID_AND_APP_IDS"
    /// An entry mixing legacy (`appID`, `paths`) and modern (`appIDs`, `components`) keys (warning).
    public static let mixedLegacyModern = "MIXED_LEGACY_MODERN"
    /// A `?` dictionary holding a non-string value, which swcutil ignores as a whole (warning).
    public static let queryDictionaryIgnored = "QUERY_DICTIONARY_IGNORED"
    /// A `"*"` query-item pattern, which also matches URLs without the item (warning).
    public static let queryStarMatchesAbsent = "QUERY_STAR_MATCHES_ABSENT"
    /// A substitution variable name with `$`, `(` or `)` (warning). Shared.
    public static let invalidVariableName = "INVALID_VARIABLE_NAME"
    /// A substitution variable value that uses another variable (warning). Shared.
    public static let variableInVariable = "VARIABLE_IN_VARIABLE"
    /// A custom variable named like a predefined one (warning). Shared.
    public static let variableShadowsPredefined = "VARIABLE_SHADOWS_PREDEFINED"

    // MARK: assetlinks.json

    /// An Android package name that breaks Java package rules (error). Shared.
    public static let invalidPackageName = "INVALID_PACKAGE_NAME"
    /// A fingerprint Google's parser rejects: not 32 uppercase colon-separated hex bytes (error). Shared.
    public static let invalidFingerprint = "INVALID_FINGERPRINT"
    /// The public React Native debug keystore fingerprint (warning). Shared.
    public static let publicDebugKey = "PUBLIC_DEBUG_KEY"
    /// A relation string Android and Chrome do not act on, or one that is malformed (warning).
    public static let unknownRelation = "UNKNOWN_RELATION"
    /// A target namespace other than `android_app` and `web` (warning).
    public static let unknownNamespace = "UNKNOWN_NAMESPACE"
    /// A web target whose `site` is not `http[s]://host[:port]` (error).
    public static let invalidSite = "INVALID_SITE"
    /// A malformed or empty field in `dynamic_app_link_components`, which makes Android discard the
    /// statement's dynamic rules (error).
    public static let dynamicRulesDiscarded = "DYNAMIC_RULES_DISCARDED"
    /// A string `?` in a dynamic rule, which AOSP's parser drops (warning).
    public static let dynamicQueryStringIgnored = "DYNAMIC_QUERY_STRING_IGNORED"
    /// More than one `dynamic_app_link_components` for the same app (warning).
    public static let duplicateDynamicRules = "DUPLICATE_DYNAMIC_RULES"

    // MARK: Patterns

    /// A pattern that does not parse (`$(` without `)`, or `$()`); it never matches (error).
    public static let patternSyntax = "PATTERN_SYNTAX"
    /// A pattern using a variable the file does not define; it never matches (error). Shared.
    public static let undefinedVariable = "UNDEFINED_VARIABLE"

    // MARK: Rule analysis

    /// A component that earlier components of the same entry always decide before it (warning).
    public static let unreachableRule = "UNREACHABLE_RULE"
    /// A component that matches every URL (note; warning when it excludes).
    public static let catchAll = "CATCH_ALL"
    /// A component that no URL can match (warning).
    public static let neverMatches = "NEVER_MATCHES"
    /// A pattern that Apple and Android read differently, with a URL part that shows it (warning).
    public static let androidSemanticsDiffer = "ANDROID_SEMANTICS_DIFFER"
    /// The analysis of an entry reached its work budget; the rules from there on were not
    /// analysed (note).
    public static let analysisIncomplete = "ANALYSIS_INCOMPLETE"
}
