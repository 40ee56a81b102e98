/// `policies/*.yaml`: which merge-blocking rules run and how, and what they check against.
/// Several files merge: lists add up; a rule's severity may be set in one file only.
public struct PolicyFile: Sendable {
    public var file: String
    /// Rules to run (absent: every rule).
    public var use: [Located<RuleID>]?
    /// `use` names `ALL`: every rule runs, whatever else any file's `use` lists.
    public var usesAllRules = false
    public var except: [Located<RuleID>]
    public var severities: [(rule: Located<RuleID>, severity: Located<Severity>)]
    public var ignores: [PolicyIgnore]
    public var approvals: [PolicyApproval]
    public var forbiddenPaths: [ForbiddenPath]
    /// Fingerprint channels every production Android app must have (e.g. `play-signing`).
    public var requiredChannels: [Located<String>]
    /// The behaviour diff's work budget (`proof_budget`), in automaton steps.
    public var proofRegionSteps: Located<Int>?
    public var proofTotalSteps: Located<Int>?
    /// Hosts `import` adopted, with what it built for them (`adopted`).
    public var adoptions: [PolicyAdoption] = []

    public init(file: String) {
        self.file = file
        use = nil
        except = []
        severities = []
        ignores = []
        approvals = []
        forbiddenPaths = []
        requiredChannels = []
    }
}

public struct ForbiddenPath: Sendable {
    public var path: Located<String>
    public var reason: String
}

/// Findings of a rule that do not count in some scope, for a written reason.
public struct PolicyIgnore: Sendable {
    public var rule: Located<RuleID>
    public var environment: Located<String>?
    public var host: Located<String>?
    public var reason: String
    public var location: SourceLocation
}

/// A host `linkwright import` adopted: the files it serves were proven to decide every URL as
/// the build does, whose SHA-256 (`PolicyAdoption.digest`) is `build`. While the build for the
/// host is still that one, a change that adds the host adds nothing that was not live already.
public struct PolicyAdoption: Sendable {
    public var environment: Located<String>
    public var host: Located<String>
    public var build: Located<String>
    /// The files imported, for people.
    public var from: String?

    public init(environment: Located<String>, host: Located<String>, build: Located<String>, from: String?) {
        self.environment = environment
        self.host = host
        self.build = build
        self.from = from
    }
}

/// A deliberate breaking change, approved by recording its finding's fingerprint and a reason in
/// the same pull request. Approved findings still print, marked approved, and do not block.
public struct PolicyApproval: Sendable {
    public var fingerprint: Located<String>
    public var reason: String
}
