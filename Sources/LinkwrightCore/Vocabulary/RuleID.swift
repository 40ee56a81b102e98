/// The ID of a policy rule, as policy files, findings' fingerprints and reports spell it
/// (SCREAMING_SNAKE, never renamed once released). Declared here, below both, so that `Config`
/// checks the IDs a policy file names without the rules, and `PolicyRules.rule(for:)` pairs each
/// with its rule in one exhaustive switch.
///
/// In order of importance, which is the order of `PolicyRules.all`: reports list the causes of
/// one severity in this order, and GitHub's few annotation slots go to the first. Who may open
/// links comes first (a dropped production app, an OAuth callback or forbidden path opening an
/// app, schemes another app can claim, test builds' names in production), then root causes of
/// broken links, then what follows from them: a failed expectation is the symptom of a cause
/// listed above it.
public enum RuleID: String, CaseIterable, Sendable {
    case productionAppRemoved = "PRODUCTION_APP_REMOVED"
    case callbackOnVerifiedLink = "CALLBACK_ON_VERIFIED_LINK"
    case forbiddenPath = "FORBIDDEN_PATH"
    case schemeClaimedTwice = "SCHEME_CLAIMED_TWICE"
    case unownedScheme = "UNOWNED_SCHEME"
    case nonProductionSchemeInProduction = "NON_PRODUCTION_SCHEME_IN_PRODUCTION"
    case nonProductionHostInProduction = "NON_PRODUCTION_HOST_IN_PRODUCTION"
    case developerModeInProduction = "DEVELOPER_MODE_IN_PRODUCTION"
    case exclusionReordered = "EXCLUSION_REORDERED"
    case catchAllAdded = "CATCH_ALL_ADDED"
    case routeRemoved = "ROUTE_REMOVED"
    case fingerprintChannelMissing = "FINGERPRINT_CHANNEL_MISSING"
    case entitlementWithoutAssociation = "ENTITLEMENT_WITHOUT_ASSOCIATION"
    case wildcardWithoutRoot = "WILDCARD_WITHOUT_ROOT"
    case unreachableRule = "UNREACHABLE_RULE"
    case behaviourUnproven = "BEHAVIOUR_UNPROVEN"
    case sizeBudget = "SIZE_BUDGET"
    case expectationFailed = "EXPECTATION_FAILED"

    /// The word a policy file's `rules.use` takes for every rule.
    public static let allRulesWord = "ALL"
}
