/// How much work one behaviour diff may do, in view steps (`ProofBudget`): one state of one
/// automaton stepped on one symbol. Settable in policies/ (`proof_budget`).
public struct ProofLimits: Sendable, Equatable {
    /// The most steps one region (one pair of deciding rules) may take; past it the pair is
    /// reported unproven.
    public var region: Int
    /// The most steps all regions of one comparison may take together.
    public var total: Int

    /// About a second and a half of work for one region and half a minute in all on the
    /// benchmark machine, far beyond what ordinary rule lists need (README, Performance). The
    /// costliest regions are those where some rules decode percent-escapes and others compare
    /// the text as written, over variables with many values (`$(lang)`): the search must try
    /// escapes at every step.
    public static let standard = ProofLimits(region: 8_000_000, total: 200_000_000)
    /// The smallest budget a policy may set.
    public static let minimumSteps = 1_000

    public init(region: Int, total: Int) {
        self.region = region
        self.total = total
    }
}
