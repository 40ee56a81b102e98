/// One merge-blocking rule: a small type with a stable ID, a default severity, why it exists, and
/// examples that trigger it and examples that do not (the test suite runs every one).
public protocol PolicyRule: Sendable {
    var info: RuleInfo { get }
    /// Whether the rule reads the behaviour diff (`PolicyContext.behaviourComparison`), which one
    /// rule computes while the others reading it wait: `PolicyEngine` starts one such rule
    /// first and leaves the others for last.
    var readsBehaviourDiff: Bool { get }
    /// The findings of this rule, at the rule's default severity; settings are applied afterwards.
    func check(_ context: PolicyContext) -> [Finding]
}

extension PolicyRule {
    public var readsBehaviourDiff: Bool { false }
}

public struct RuleInfo: Sendable {
    public var id: RuleID
    public var defaultSeverity: Severity
    /// One line: what it checks.
    public var purpose: String
    /// Why it blocks merges.
    public var rationale: String
    public var examples: [RuleExample]
    /// The rule is about a change (something added, removed, reordered or not proven alike), not
    /// an invariant of the head: on a host adopted with what it serves (`adopted` in policies/),
    /// what it finds was live before the change, and does not count.
    public var isAboutChange: Bool

    public init(
        id: RuleID, defaultSeverity: Severity, purpose: String, rationale: String, examples: [RuleExample],
        isAboutChange: Bool = false
    ) {
        self.id = id
        self.defaultSeverity = defaultSeverity
        self.purpose = purpose
        self.rationale = rationale
        self.examples = examples
        self.isAboutChange = isAboutChange
    }
}

/// A configuration before (`base`, absent for rules about the head alone) and after a change,
/// and exactly what the rule must report there.
public struct RuleExample: Sendable {
    public var name: String
    /// Where each finding of the rule points (`file:line:column`), in the order reported: one
    /// entry per finding, none when the rule must stay silent. Stating places, not just "some
    /// finding", keeps an example from passing when the rule reports the wrong thing.
    public var reportsAt: [String]
    public var base: [String: String]?
    public var head: [String: String]

    public var triggers: Bool { !reportsAt.isEmpty }

    public init(_ name: String, reportsAt: [String], base: [String: String]? = nil, head: [String: String]) {
        self.name = name
        self.reportsAt = reportsAt
        self.base = base
        self.head = head
    }
}

/// Every rule, in the order `linkwright rules` lists them: the order of `RuleID`, which says
/// why. Linux has no runtime type discovery, so `rule(for:)` is the registry; its switch does not
/// compile without a rule for every ID, and a test checks it against the files in `Policy/Rules/`.
public enum PolicyRules {
    public static let all: [any PolicyRule] = RuleID.allCases.map(rule(for:))

    public static func rule(for id: RuleID) -> any PolicyRule {
        switch id {
        case .productionAppRemoved: ProductionAppRemovedRule()
        case .callbackOnVerifiedLink: CallbackOnVerifiedLinkRule()
        case .forbiddenPath: ForbiddenPathRule()
        case .schemeClaimedTwice: SchemeClaimedTwiceRule()
        case .unownedScheme: UnownedSchemeRule()
        case .nonProductionSchemeInProduction: NonProductionSchemeInProductionRule()
        case .nonProductionHostInProduction: NonProductionHostInProductionRule()
        case .developerModeInProduction: DeveloperModeInProductionRule()
        case .exclusionReordered: ExclusionReorderedRule()
        case .catchAllAdded: CatchAllAddedRule()
        case .routeRemoved: RouteRemovedRule()
        case .fingerprintChannelMissing: FingerprintChannelMissingRule()
        case .entitlementWithoutAssociation: EntitlementWithoutAssociationRule()
        case .wildcardWithoutRoot: WildcardWithoutRootRule()
        case .unreachableRule: UnreachableRuleRule()
        case .behaviourUnproven: BehaviourUnprovenRule()
        case .sizeBudget: SizeBudgetRule()
        case .expectationFailed: ExpectationFailedRule()
        }
    }

    /// The rule `linkwright test` reports a failed expectation under, as `check` does.
    public static let expectationFailed = ExpectationFailedRule().info
}
