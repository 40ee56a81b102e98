/// What an association file decides for one URL and one app.
public enum LinkOutcome: String, Hashable, Sendable {
    /// The link opens the app.
    case match
    /// A rule with `exclude` matched: the link stays in the browser.
    case exclude
    /// No rule decided: the link stays in the browser.
    case noMatch
}

/// The decision for one URL, with the rule that made it and, when asked for, every rule tried.
public struct LinkDecision: Hashable, Sendable {
    /// What happens to the link.
    public var outcome: LinkOutcome
    /// Zero-based index of the deciding `applinks.details` entry (Apple) or statement (Android);
    /// `nil` for `noMatch`.
    public var entryIndex: Int?
    /// Zero-based index of the deciding component, legacy path or dynamic rule within the entry;
    /// `nil` for `noMatch`, and for an Android statement without dynamic rules.
    public var ruleIndex: Int?
    /// Where the deciding rule was written, when known.
    public var origin: SourceLocation?
    /// Every rule tried, in order, when tracing was asked for; otherwise empty.
    public var trace: [RuleTrace]

    /// A decision; rule fields stay `nil` for `noMatch`.
    public init(
        outcome: LinkOutcome, entryIndex: Int? = nil, ruleIndex: Int? = nil, origin: SourceLocation? = nil,
        trace: [RuleTrace] = []
    ) {
        self.outcome = outcome
        self.entryIndex = entryIndex
        self.ruleIndex = ruleIndex
        self.origin = origin
        self.trace = trace
    }
}

/// One rule tried during an evaluation.
public struct RuleTrace: Hashable, Sendable {
    /// Which list the rule comes from.
    public enum Kind: String, Hashable, Sendable {
        /// An element of `components` (iOS 13+).
        case component
        /// An element of legacy `paths` (iOS 9–12).
        case legacyPath
        /// An element of Android's `dynamic_app_link_components`.
        case dynamicRule
    }

    /// The kind of rule.
    public var kind: Kind
    /// Zero-based index of the `details` entry (Apple) or statement (Android).
    public var entryIndex: Int
    /// Zero-based index of the rule within its list.
    public var ruleIndex: Int
    /// Where the rule was written, when known.
    public var origin: SourceLocation?
    /// Effective after the defaults hierarchy; Android rules always have `EffectiveFlags.android`.
    public var flags: EffectiveFlags
    /// Whether a match keeps the link in the browser.
    public var exclude: Bool
    /// Each part compared, in the order path, query, fragment.
    public var checks: [PartCheck]
    /// Whether every part matched, so the rule decided.
    public var matched: Bool
}

/// One comparison of a pattern with a part of the URL.
public struct PartCheck: Hashable, Sendable {
    /// The part compared.
    public var part: URLPart
    /// The pattern as written.
    public var pattern: String
    /// The URL's value exactly as compared: read as the rule's flags ask (`ComponentFlag`), and
    /// for Apple paths with the leading and trailing slashes normalised. An absent part reads as
    /// empty; `nil` when the pattern could not be compiled.
    public var comparedValue: String?
    /// Whether the pattern accepted the value.
    public var matched: Bool
    /// Why the comparison went as it did when the value alone does not say.
    public var note: String?
}
