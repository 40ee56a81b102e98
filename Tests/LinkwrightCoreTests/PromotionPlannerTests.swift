import LinkwrightCore
import Testing

/// Promotion plans on small configurations: the edits are minimal and the result compiles.
@Suite struct PromotionPlannerTests {
    static let staging = """
        tier: staging
        team_id: ABCDE12345
        apps:
          shop:
            ios: {bundle_id: com.example.shop.staging}
        hosts:
          staging.shop.example: shop   # the staging site

        """
    static let production = """
        tier: production
        team_id: ABCDE12345
        apps:
          shop:
            ios: {bundle_id: com.example.shop}
        hosts:
          shop.example: shop

        """

    private func plan(domain: String, extraFiles: [String: String] = [:]) -> PromotionPlan {
        var files = [
            "environments/staging.yaml": Self.staging, "environments/production.yaml": Self.production,
            "domains/shop.yaml": domain,
        ]
        files.merge(extraFiles) { $1 }
        let sources = files.sorted { $0.key < $1.key }.map { SourceFile(path: $0.key, bytes: Array($0.value.utf8)) }
        let configuration = ConfigLoader().load(sources).configuration!
        return PromotionPlanner.plan(configuration, files: sources, from: "staging", to: "production")
    }

    private func text(_ plan: PromotionPlan, _ path: String) -> String {
        String(decoding: plan.files.first { $0.path == path }!.bytes, as: UTF8.self)
    }

    @Test func extendsFlowAndBlockListsAndKeepsComments() {
        let domain = """
            applinks:
              - apps: [shop]
                rules:
                  - path: /a/*   # flow list
                    environments: [staging]
                  - path: /b/*
                    environments:
                      - staging   # block list
                  - path: /c/*
                    environments: [production]

            """
        let plan = plan(domain: domain)
        #expect(plan.refusals.isEmpty)
        #expect(plan.editedPaths == ["domains/shop.yaml"])
        #expect(
            text(plan, "domains/shop.yaml") == """
                applinks:
                  - apps: [shop]
                    rules:
                      - path: /a/*   # flow list
                        environments: [staging, production]
                      - path: /b/*
                        environments:
                          - staging   # block list
                          - production
                      - path: /c/*
                        environments: [production]

                """)
        #expect(
            plan.edits.map(\.description) == ["rule /a/* now also in production", "rule /b/* now also in production"])
    }

    @Test func aPromotedExpectationReplacesTheTargetsOwnForTheSameURL() {
        let domain = """
            applinks:
              - apps: [shop]
                rules:
                  - path: /beta/*
                    environments: [staging]
            expectations:
              - url: /beta/x
                opens_app: shop
                environments: [staging]
              - url: /beta/x
                opens_web: true
                environments: [production]
              - url: /other
                opens_web: true

            """
        let promoted = text(plan(domain: domain), "domains/shop.yaml")
        #expect(
            promoted.hasSuffix(
                """
                expectations:
                  - url: /beta/x
                    opens_app: shop
                    environments: [staging, production]
                  - url: /other
                    opens_web: true

                """))
        #expect(
            ConfigLoader().load([SourceFile(path: "domains/shop.yaml", bytes: Array(promoted.utf8))]).diagnostics
                .allSatisfy { $0.id != .yamlSyntax })
    }

    @Test func removingTheTargetFromALongerListKeepsTheRest() {
        let domain = """
            applinks:
              - apps: [shop]
                rules:
                  - path: /beta/*
                    environments: [staging]
            expectations:
              - url: /beta/x
                opens_app: shop
                environments: [staging]
              - url: /beta/x
                opens_web: true
                environments: [production, development]

            """
        let promoted = text(
            plan(
                domain: domain,
                extraFiles: [
                    "environments/development.yaml": Self.production.replacingOccurrences(
                        of: "tier: production", with: "tier: development"
                    ).replacingOccurrences(of: "shop.example: shop", with: "dev.shop.example: shop")
                        .replacingOccurrences(of: "com.example.shop}", with: "com.example.shop.dev}")
                ]), "domains/shop.yaml")
        #expect(promoted.contains("    opens_web: true\n    environments: [development]\n"))
    }

    @Test func aNewDomainIsBoundOnAHostNamedLikeTheTargetsOthers() {
        let plan = plan(
            domain: "applinks:\n  - apps: [shop]\n    rules:\n      - path: /p/*\n",
            extraFiles: [
                "domains/blog.yaml": "applinks:\n  - apps: [shop]\n    rules:\n      - path: /posts/*\n",
                "environments/staging.yaml": Self.staging + "  staging.blog.example: blog\n",
            ])
        #expect(
            text(plan, "environments/production.yaml").hasSuffix("hosts:\n  shop.example: shop\n  blog.example: blog\n")
        )
        #expect(plan.refusals.isEmpty)
    }

    @Test func withoutAHostToFollowANewDomainIsRefused() {
        let plan = plan(
            domain: "applinks:\n  - apps: [shop]\n    rules:\n      - path: /p/*\n",
            extraFiles: [
                "domains/blog.yaml": "applinks:\n  - apps: [shop]\n    rules:\n      - path: /posts/*\n",
                "environments/staging.yaml": Self.staging + "  weblog.example: blog\n",
            ])
        #expect(plan.refusals.map(\.id) == [.promotionNeedsHost])
    }
}
