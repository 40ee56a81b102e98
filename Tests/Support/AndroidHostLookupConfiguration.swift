/// Issue 43's configuration, where Android's dynamic rules come from another file than the one
/// of the intent filter claiming a URL (docs/semantics.md, "Whose dynamic rules apply"):
/// `example.com` and `*.example.com` on one domain (`/account/*` excluded, then `/*`) declared
/// before `shop.example.com` on another (`/account/*`); `*.eu.example.com`, a nested wildcard of
/// a third domain; and `plain.example.com`, whose file has no dynamic rules.
public enum AndroidHostLookupConfiguration {
    public static let shopRule = "/account/*"

    public static let files: [String: String] = [
        "environments/production.yaml": """
        tier: production
        team_id: ABCDE12345
        apps:
          store:
            ios: {bundle_id: com.example.store}
            android:
              package: com.example.store
              fingerprints:
                play-signing: "2C:F0:D7:85:52:59:58:D7:4E:29:8E:E9:82:0F:06:5C:08:56:41:90:23:7B:F9:05:05:E1:75:E1:0B:95:F2:28"
        hosts:
          example.com: example
          "*.example.com": example
          shop.example.com: shop
          "*.eu.example.com": europe
          plain.example.com: plain

        """,
        "domains/example.yaml": """
        applinks:
          - apps: [store]
            rules:
              - path: /account/*
                exclude: true
              - path: /*
                route: home
        emit:
          android_dynamic_rules: true

        """,
        "domains/shop.yaml": """
        applinks:
          - apps: [store]
            rules:
              - path: \(shopRule)
                route: account
                params:
                  section?: segment 2
        emit:
          android_dynamic_rules: true

        """,
        "domains/europe.yaml": """
        applinks:
          - apps: [store]
            rules:
              - path: /eu/*
                route: europe
        emit:
          android_dynamic_rules: true

        """,
        "domains/plain.yaml": """
        applinks:
          - apps: [store]
            rules:
              - path: /*

        """,
    ]
}
