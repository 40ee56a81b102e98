/// A configuration using the rule shapes the example does not: case-insensitive and decoded
/// rules, whole-query and fragment patterns, entry defaults, custom variables holding wildcards,
/// predefined variables, int parameters, `route: none`, two entries for one app, a rule limited
/// to staging, nested wildcard hosts, and a custom scheme's routes (an exclusion, an int, `none`,
/// a catch-all path), and an app whose routes are all on a scheme.
enum RouterFixture {
    /// The `schemes:` of the shop and kiosk apps, shared with `KotlinRouterFixture`: indented to
    /// sit under an app, the first line's indentation left to the file.
    static let schemes = (
        shop: """
            schemes:
              com.example.shop:
                purpose: deep-links
                routes:
                  - path: /admin/*
                    exclude: true
                  - path: /items/?*
                    query: {ref: "*"}
                    route: schemeItem
                    params: {id: segment 2 as int, ref?: query ref}
                  - path: /help
                    route: none
                    reason: opens the start screen
                  - path: "*"
                    query: {open: "?*"}
                    route: schemeOpen
                    params: {target: query open}
                expectations:
                  - url: com.example.shop:/items/7?ref=mail
                    route: "schemeItem(id: 7, ref: mail)"
        """.dropFirst(4),
        kiosk: """
            schemes:
              com.example.kiosk:
                purpose: deep-links
                routes:
                  - path: /stops/*
                    route: kioskStop
                    params: {number?: segment 2 as int}
        """.dropFirst(4)
    )

    static let files: [(path: String, text: String)] = [
        (
            "environments/production.yaml",
            """
            tier: production
            team_id: A1B2C3D4E5
            apps:
              shop:
                ios: {bundle_id: com.example.shop}
                \(schemes.shop)
              guide:
                ios: {bundle_id: com.example.guide}
              kiosk:
                ios: {bundle_id: com.example.kiosk}
                \(schemes.kiosk)
            hosts:
              shop.example: shop
              "*.shop.example": shop
              "*.eu.shop.example": shop
              eu.shop.example: shop
              guide.example: guide
            """
        ),
        (
            "environments/staging.yaml",
            """
            tier: staging
            team_id: A1B2C3D4E5
            apps:
              shop:
                ios: {bundle_id: com.example.shop.staging}
            hosts:
              staging.shop.example: shop
            """
        ),
        (
            "domains/shop.yaml",
            """
            variables:
              kind: ["shoe?", "hat*", "Bag"]
            defaults:
              case_sensitive: false
            applinks:
              - apps: [shop]
                defaults:
                  percent_encoded: false
                rules:
                  - path: /orders/*
                    query: "id=*"
                    route: order
                    params:
                      id?: segment 2 as int
                  - path: /search
                    query: {q: "?*", page: "*"}
                    route: search
                    params:
                      q: query q
                      page?: query page as int
                  - path: /items/$(kind)/*
                    fragment: "?*"
                    route: item
                    params:
                      kind?: segment 2
                      sku?: segment 3
                  - path: /$(lang)/$(region)/*
                    case_sensitive: true
                    route: section
                    params:
                      lang: segment 1
                      region: segment 2
                  - path: /Private/*
                    exclude: true
                  - path: /help/*
                    route: none
                    reason: opens the home screen
                  - path: /beta/*
                    environments: [staging]
                    route: none
                    reason: the beta screen is not built yet
              - apps: [shop]
                rules:
                  - path: "*"
                    fragment: "promo-*"
                    route: none
                    reason: promotions open the home screen
            expectations:
              - url: /orders/42?id=7
                opens_app: shop
                route: "order(id: 42)"
              - url: /search?q=boots&page=2
                opens_app: shop
                route: "search(q: boots, page: 2)"
              - url: /private/x
                opens_web: true
            """
        ),
        (
            "domains/guide.yaml",
            """
            applinks:
              - apps: [guide]
                rules:
                  - path: /tours/*
                    route: tour
                    params:
                      tour?: segment 2
                  - path: /stops/$(digit)$(digit)
                    route: stop
                    params:
                      number: segment 2 as int
                  - path: /a/*/c/
                    route: guide
            expectations:
              - url: /stops/07
                opens_app: guide
                route: "stop(number: 07)"
            """
        ),
    ]
}
