/// An Android configuration using the rule shapes the example does not: a custom variable
/// expanded into several dynamic rules, a middle `*` (a lazy `.*` in PatternMatcher's simple
/// glob), `?*` (an advanced glob on Android 15 as first released), an escaped `.`, query items
/// and fragments, int parameters, a destination without parameters, a path holding `é` and `$`
/// (escaped in Kotlin's string literals), `route: none`, an
/// exclusion, nested wildcard hosts, a rule limited to staging, and a domain that emits no
/// dynamic rules and names no routes, a custom scheme's routes, and an app whose routes are all
/// on a scheme.
enum KotlinRouterFixture {
    static let files: [(path: String, text: String)] = [
        (
            "environments/production.yaml",
            """
            tier: production
            apps:
              shop:
                android:
                  package: com.example.shop
                  fingerprints:
                    play-signing: "2C:F0:D7:85:52:59:58:D7:4E:29:8E:E9:82:0F:06:5C:08:56:41:90:23:7B:F9:05:05:E1:75:E1:0B:95:F2:28"
                \(RouterFixture.schemes.shop)
              kiosk:
                android:
                  package: com.example.kiosk
                  fingerprints:
                    play-signing: "2C:F0:D7:85:52:59:58:D7:4E:29:8E:E9:82:0F:06:5C:08:56:41:90:23:7B:F9:05:05:E1:75:E1:0B:95:F2:28"
                \(RouterFixture.schemes.kiosk)
            hosts:
              shop.example: shop
              "*.shop.example": shop
              "*.eu.shop.example": shop
              eu.shop.example: shop
              blog.example: blog
            """
        ),
        (
            "environments/staging.yaml",
            """
            tier: staging
            apps:
              shop:
                android:
                  package: com.example.shop.staging
                  fingerprints:
                    upload: "EF:62:D5:11:2E:59:35:57:66:79:9A:C2:12:64:F2:19:07:35:63:EC:54:33:BF:4B:BB:CA:82:07:CB:4D:F2:16"
            hosts:
              staging.shop.example: shop
            """
        ),
        (
            "domains/shop.yaml",
            """
            variables:
              kind: [shoes, hats]
            applinks:
              - apps: [shop]
                rules:
                  - path: /Private/*
                    exclude: true
                  - path: /orders/*
                    query: {id: "*"}
                    route: order
                    params:
                      id?: segment 2 as int
                  - path: /search
                    query: {q: "?*", page: "*"}
                    route: search
                    params:
                      q: query q
                      page?: query page as int
                  - path: /items/?*/reviews
                    route: reviews
                    params:
                      item: segment 2
                  - path: /$(kind)/*
                    route: category
                    params:
                      kind: segment 1
                      sku?: segment 2
                  - path: /files/*.pdf
                    route: file
                    params:
                      name?: segment 2
                  - path: /deals/?*
                    fragment: "?*"
                    route: deal
                    params:
                      id?: segment 2
                  - path: /help/*
                    route: none
                    reason: opens the home screen
                  - path: /home
                    route: home
                  - path: "/café/$/*"
                    route: cafe
                    params:
                      item?: segment 3
                  - path: /beta/*
                    environments: [staging]
                    route: beta
                    params:
                      feature?: segment 2
            emit:
              android_dynamic_rules: true
            expectations:
              - url: /orders/42?id=7
                opens_app: shop
                route: "order(id: 42)"
              - url: /search?q=boots&page=2
                opens_app: shop
                route: "search(q: boots, page: 2)"
              - url: /Private/x
                opens_web: true
            """
        ),
        (
            "domains/blog.yaml",
            """
            applinks:
              - apps: [shop]
                rules:
                  - path: /posts/*
                  - path: /drafts/*
                    exclude: true
            """
        ),
    ]
}
