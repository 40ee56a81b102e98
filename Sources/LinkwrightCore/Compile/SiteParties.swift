/// Who a compiled site lets in: iOS app IDs per service, Android packages with their keys.
struct SiteParties: Equatable {
    struct Service: Hashable, Comparable {
        var service: String
        var appID: String
        static func < (lhs: Service, rhs: Service) -> Bool { (lhs.service, lhs.appID) < (rhs.service, rhs.appID) }
    }

    var iosServices: Set<Service> = []
    var androidKeys: [String: Set<String>] = [:]
    /// assetlinks.json's other grants: relations besides App Links an Android package holds,
    /// every relation granted to a web site (`site https://example.com`), and included files
    /// (`include`): `service` the relation, `appID` who holds it.
    var grants: Set<Service> = []

    init() {}

    init(_ site: CompiledSite) {
        if let aasa = site.aasa {
            for details in aasa.applinks?.details ?? [] {
                for appID in details.effectiveAppIDs {
                    iosServices.insert(Service(service: AssociatedService.applinks.rawValue, appID: appID))
                }
            }
            for (service, apps) in aasa.appLists {
                for appID in apps ?? [] { iosServices.insert(Service(service: service.rawValue, appID: appID)) }
            }
        }
        for statement in site.assetLinks?.statements ?? [] {
            switch statement.target {
            case .androidApp(let package, let fingerprints):
                androidKeys[package, default: []].formUnion(fingerprints)
                for relation in statement.relations where relation != AssetStatement.handleAllURLs {
                    grants.insert(Service(service: Self.shortened(relation), appID: package))
                }
            case .web(let site):
                for relation in statement.relations {
                    grants.insert(Service(service: Self.shortened(relation), appID: "site \(site)"))
                }
            }
        }
        for include in site.assetLinks?.includes ?? [] {
            grants.insert(Service(service: "include", appID: include.url))
        }
    }

    /// `get_login_creds` for `delegate_permission/common.get_login_creds`, as changes name
    /// `handle_all_urls`.
    static func shortened(_ relation: String) -> String {
        let common = "delegate_permission/common."
        return relation.hasPrefix(common) ? String(relation.dropFirst(common.count)) : relation
    }
}
