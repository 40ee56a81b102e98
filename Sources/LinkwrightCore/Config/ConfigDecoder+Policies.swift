/// Decoding a policy file.
extension ConfigDecoder {
    mutating func policy(file: String, root: YAMLNode?) -> PolicyFile? {
        var policy = PolicyFile(file: file)
        guard let root else { return policy }
        guard let map = reader.document(root, ConfigSchema.policy) else { return nil }
        if let node = map["rules"], let rules = reader.mapping(node, ConfigSchema.ruleSelection) {
            if let node = rules["use"], let names = reader.strings(node, "rule ID") {
                policy.usesAllRules = names.contains { $0.value == RuleID.allRulesWord }
                policy.use = names.filter { $0.value != RuleID.allRulesWord }.compactMap { ruleID($0) }
            }
            policy.except = rules["except"].flatMap { reader.strings($0, "rule ID") }?.compactMap { ruleID($0) } ?? []
            if let severities = rules["severity"], let entries = reader.entries(severities, of: "rule severities") {
                for entry in entries {
                    guard let rule = ruleID(entry.key),
                        let severity = reader.choice(entry.value, "severity", Severity.self)
                    else { continue }
                    policy.severities.append((rule, severity))
                }
            }
        }
        for item in map["forbidden_paths"].flatMap({ reader.list($0, of: "forbidden paths") }).map(Array.init) ?? [] {
            guard let entry = reader.mapping(item, ConfigSchema.forbiddenPath),
                let path = entry["path"].flatMap({ reader.string($0, "path") }),
                let reason = entry["reason"].flatMap({ reader.string($0, "reason") })
            else { continue }
            if path.value.unicodeScalars.first != "/" || !LinkURL.parses(path.value) {
                diagnostics.report(
                    .invalidValue,
                    "forbidden path \(PrintableText.quoted(path.value)) is not a path such as /oauth/callback",
                    at: path.location, hint: "write the path alone, starting with /")
            }
            policy.forbiddenPaths.append(ForbiddenPath(path: path, reason: reason.value))
        }
        policy.requiredChannels = map["required_fingerprint_channels"].flatMap { reader.strings($0, "channel") } ?? []
        // A channel no environment could declare (`Play-Signing`) would block every production app.
        policy.requiredChannels = policy.requiredChannels.filter { checkName($0, what: "fingerprint channel") }
        if let node = map["proof_budget"], let budget = reader.mapping(node, ConfigSchema.proofBudget) {
            policy.proofRegionSteps = budget["region_steps"].flatMap {
                reader.integer($0, "region_steps", minimum: ProofLimits.minimumSteps)
            }
            policy.proofTotalSteps = budget["total_steps"].flatMap {
                reader.integer($0, "total_steps", minimum: ProofLimits.minimumSteps)
            }
        }
        for item in map["ignore"].flatMap({ reader.list($0, of: "ignores") }).map(Array.init) ?? [] {
            guard let entry = reader.mapping(item, ConfigSchema.ignore),
                let rule = entry["rule"].flatMap({ reader.string($0, "rule ID") }).flatMap({ ruleID($0) }),
                let reason = entry["reason"].flatMap({ reader.string($0, "reason") })
            else { continue }
            policy.ignores.append(
                PolicyIgnore(
                    rule: rule, environment: entry["environment"].flatMap { reader.string($0, "environment") },
                    host: entry["host"].flatMap { reader.string($0, "host") }, reason: reason.value,
                    location: item.location))
        }
        for item in map["approvals"].flatMap({ reader.list($0, of: "approvals") }).map(Array.init) ?? [] {
            guard let entry = reader.mapping(item, ConfigSchema.approval),
                let fingerprint = entry["finding"].flatMap({ reader.string($0, "finding fingerprint") }),
                let reason = entry["reason"].flatMap({ reader.string($0, "reason") })
            else { continue }
            let rule = String(fingerprint.value.prefix { $0 != "/" })
            if !fingerprint.value.contains("/") || RuleID(rawValue: rule) == nil {
                diagnostics.report(
                    .invalidValue, "\(PrintableText.quoted(fingerprint.value)) is not a finding fingerprint",
                    at: fingerprint.location,
                    hint: "copy the fingerprint `linkwright check` prints, e.g. PRODUCTION_APP_REMOVED/5e1c9a0b7d3f2a41"
                )
            }
            if reason.value.allSatisfy(\.isWhitespace) {
                diagnostics.report(
                    .missingValue, "approval of \(PrintableText.quoted(fingerprint.value)) has an empty reason",
                    at: reason.location, hint: "write why the change is deliberate and who approved it")
            }
            policy.approvals.append(PolicyApproval(fingerprint: fingerprint, reason: reason.value))
        }
        for item in map["adopted"].flatMap({ reader.list($0, of: "adoptions") }).map(Array.init) ?? [] {
            guard let entry = reader.mapping(item, ConfigSchema.adoption),
                let environment = entry["environment"].flatMap({ reader.string($0, "environment") }),
                let host = entry["host"].flatMap({ reader.string($0, "host") }),
                let build = entry["build"].flatMap({ reader.string($0, "build digest") })
            else { continue }
            if build.value.count != 64 || !build.value.allSatisfy({ $0.isHexDigit && !$0.isUppercase }) {
                diagnostics.report(
                    .invalidValue, "\(PrintableText.quoted(build.value)) is not a SHA-256 digest", at: build.location,
                    hint: "leave the adoptions linkwright import writes as it wrote them")
            }
            policy.adoptions.append(
                PolicyAdoption(
                    environment: environment, host: host, build: build,
                    from: entry["from"].flatMap { reader.string($0, "from") }?.value))
        }
        return policy
    }

    /// The rule a policy file names, or nil, reported, when no rule has that ID.
    mutating func ruleID(_ id: Located<String>) -> Located<RuleID>? {
        if let rule = RuleID(rawValue: id.value) { return Located(rule, at: id.location) }
        let known = RuleID.allCases.map(\.rawValue)
        diagnostics.report(
            .unknownRule, "\(PrintableText.quoted(id.value)) is not a policy rule", at: id.location,
            hint: Spelling.closest(to: id.value, among: known).map { "did you mean \(PrintableText.quoted($0))?" }
                ?? "`linkwright rules` lists the rule IDs")
        return nil
    }
}
