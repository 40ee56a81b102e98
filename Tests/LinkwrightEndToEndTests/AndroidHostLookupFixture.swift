import LinkwrightTestSupport

/// Hosts whose dynamic rules come from another filter's file than the one claiming their URLs:
/// a wildcard domain (excluding `/account/*`) declared before a subdomain with rules of its own,
/// a subdomain whose file has no dynamic rules (it reads its wildcard parent's on the newest
/// release, none on Android 15 as first released), and nested wildcards. The Kotlin router must
/// look rules up by the URL's host as `EnvironmentEvaluator` does (AOSP
/// `DomainVerificationService.getUriRelativeFilterGroups`).
enum AndroidHostLookupFixture {
    static let files: [(path: String, text: String)] = [
        (
            "environments/production.yaml",
            """
            tier: production
            apps:
              store:
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
            """
        ),
        (
            "domains/example.yaml",
            """
            applinks:
              - apps: [store]
                rules:
                  - path: /account/*
                    exclude: true
                  - path: /*
                    route: home
            emit:
              android_dynamic_rules: true
            """
        ),
        (
            "domains/shop.yaml",
            """
            applinks:
              - apps: [store]
                rules:
                  - path: /account/*
                    route: account
                    params:
                      section?: segment 2
            emit:
              android_dynamic_rules: true
            """
        ),
        (
            "domains/europe.yaml",
            """
            applinks:
              - apps: [store]
                rules:
                  - path: /eu/*
                    route: europe
            emit:
              android_dynamic_rules: true
            """
        ),
        (
            "domains/plain.yaml",
            """
            applinks:
              - apps: [store]
                rules:
                  - path: /*
            """
        ),
    ]

    static func urls(_ samples: RouterSampleURLs) -> [String] {
        let hosts = [
            "example.com", "www.example.com", "shop.example.com", "a.shop.example.com", "eu.example.com",
            "de.eu.example.com", "x.de.eu.example.com", "plain.example.com", "SHOP.Example.com",
        ]
        let paths = ["/account/orders", "/account/", "/gallery", "/", "/eu/x", "/eu/"]
        return samples.ruleSamples() + hosts.flatMap { host in paths.map { "https://\(host)\($0)" } }
    }
}
