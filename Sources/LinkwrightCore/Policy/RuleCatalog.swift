/// The list of policy rules for people: `linkwright rules` and docs/rules.md.
public enum RuleCatalog {
    public static func markdown() -> String {
        var text = """
            # Policy rules

            `linkwright check --against REF` runs these rules on the compiled configuration of the working tree
            and of REF. Findings at severity `error` block (exit code 1) unless `policies/` ignores or approves
            them. Select rules with `rules: {use: [...], except: [...]}` and change a rule's severity with
            `rules: {severity: {RULE_ID: warning}}`.

            | ID | Default | Purpose |
            |---|---|---|

            """
        for rule in PolicyRules.all {
            text += "| `\(rule.info.id.rawValue)` | \(rule.info.defaultSeverity.rawValue) | \(rule.info.purpose) |\n"
        }
        for rule in PolicyRules.all {
            text += "\n## \(rule.info.id.rawValue)\n\n\(rule.info.purpose)\n\n\(rule.info.rationale)\n\nExamples:\n\n"
            for example in rule.info.examples {
                text += "- \(example.triggers ? "reported" : "not reported"): \(example.name)\n"
            }
        }
        return text
    }

    /// One line per rule: ID, default severity, purpose.
    public static func text() -> String {
        let width = PolicyRules.all.map(\.info.id.rawValue.count).max() ?? 0
        return PolicyRules.all.map { rule in
            let id = rule.info.id.rawValue.padding(toLength: width + 2)
            return id + rule.info.defaultSeverity.rawValue.padding(toLength: 9) + rule.info.purpose
        }.joined(separator: "\n") + "\n"
    }

    public static func json() -> JSON {
        .array(
            PolicyRules.all.map { rule in
                .object([
                    ("id", .string(rule.info.id.rawValue)),
                    ("default_severity", .string(rule.info.defaultSeverity.rawValue)),
                    ("purpose", .string(rule.info.purpose)), ("rationale", .string(rule.info.rationale)),
                ])
            })
    }
}

extension String {
    fileprivate func padding(toLength length: Int) -> String {
        count >= length ? self + " " : self + String(repeating: " ", count: length - count)
    }
}
