import Testing

@testable import LinkwrightCore

/// Decision lists and compiled dynamic rules are made once for every app, host and environment
/// that reads the same rules, and never shared with one that reads others.
@Suite struct SharedDecisionListsTests {
    static let fingerprint = RuleExampleConfiguration.fingerprint

    /// Apps `one` and `two` share an entry; `three` has its own rules.
    static func files(stagingRules: String? = nil) -> [String: String] {
        func environment(_ tier: String, host: String) -> String {
            var text = "tier: \(tier)\nteam_id: ABCDE12345\napps:\n"
            for app in ["one", "two", "three"] {
                text += "  \(app):\n    ios: {bundle_id: com.example.\(app)}\n"
                text += "    android:\n      package: com.example.\(app)\n      fingerprints:\n"
                text += "        play-signing: \"\(fingerprint)\"\n"
            }
            return text + "hosts:\n  \(host): example\n"
        }
        let domain = """
            applinks:
              - apps: [one, two]
                rules:
                  - path: /a/*
                  - path: /b/*
                    exclude: true
              - apps: [three]
                rules:
                  - path: /c/*
            emit:
              android_dynamic_rules: true

            """
        return [
            "environments/production.yaml": environment("production", host: "example.com"),
            "environments/staging.yaml": environment("staging", host: "staging.example.com"),
            "domains/example.yaml": domain,
        ]
    }

    func lists(_ snapshot: PolicySnapshot, _ environment: String, _ host: String, _ platform: Platform) throws
        -> [String: DecisionList]
    {
        let lists = try #require(snapshot.decisionLists(environment, host: host, platform: platform))
        return Dictionary(uniqueKeysWithValues: lists.map { ($0.identity, $0) })
    }

    func sameRules(_ one: DecisionList, _ other: DecisionList) -> Bool {
        one.rules.count == other.rules.count && zip(one.rules, other.rules).allSatisfy { $0 === $1 }
    }

    @Test func appsReadingTheSameRulesShareTheirList() throws {
        let snapshot = try snapshot(Self.files())
        for platform in Platform.allCases {
            let production = try lists(snapshot, "production", "example.com", platform)
            let names =
                platform == .ios
                ? ["ABCDE12345.com.example.one", "ABCDE12345.com.example.two", "ABCDE12345.com.example.three"]
                : ["com.example.one", "com.example.two", "com.example.three"]
            let (one, two, three) = (
                try #require(production[names[0]]), try #require(production[names[1]]),
                try #require(production[names[2]])
            )
            #expect(sameRules(one, two), "\(platform)")
            #expect(!one.rules.isEmpty && !sameRules(one, three), "\(platform)")
            #expect([one.identity, two.identity, three.identity] == names)
            #expect(one.rules.map(\.label) != three.rules.map(\.label))
            // Android's lists name the compiled rules they read: the staging environment serving
            // the same domain file reads production's.
            let staging = try lists(snapshot, "staging", "staging.example.com", platform)
            let stagingOne = try #require(staging[names[0]])
            #expect(sameRules(one, stagingOne) == (platform == .android), "\(platform)")
            #expect(stagingOne.rules.map(\.key) == one.rules.map(\.key))
        }
    }

    /// Equal components compile once for the process; each statement keeps its own index in
    /// decisions. Other rules, another place in the file or another release compile apart.
    @Test func dynamicRulesCompileOncePerContent() throws {
        let at = { (line: Int) in SourceLocation(file: "domains/example.yaml", line: line, column: 9) }
        let components = [
            DynamicComponent(path: "/a/*", origin: at(4)),
            DynamicComponent(path: "/b/?*", exclude: true, origin: at(5)),
        ]
        let first = CompiledDynamicRules.shared(components, entryIndex: 0, release: .latest)
        let second = CompiledDynamicRules.shared(components, entryIndex: 3, release: .latest)
        #expect(first.contentID == second.contentID)
        let url = try #require(LinkURL("https://example.com/a/x"))
        #expect(first.decision(for: url).entryIndex == 0 && second.decision(for: url).entryIndex == 3)
        var moved = components
        moved[1].origin = at(6)
        var edited = components
        edited[0].path = "/a/y*"
        for other in [
            CompiledDynamicRules.shared(moved, entryIndex: 0, release: .latest),
            CompiledDynamicRules.shared(edited, entryIndex: 0, release: .latest),
            CompiledDynamicRules.shared(components, entryIndex: 0, release: .android15Initial),
        ] {
            #expect(other.contentID != first.contentID)
        }
        #expect(
            CompiledDynamicRules.shared(components, entryIndex: 0, release: .android15Initial).contentID
                == CompiledDynamicRules.shared(components, entryIndex: 1, release: .android15Initial).contentID)
    }
}
