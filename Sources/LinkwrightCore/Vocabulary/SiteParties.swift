/// Who a compiled site lets in: iOS app IDs per service, Android packages with their keys.
struct SiteParties: Equatable {
    struct Service: Hashable, Comparable {
        var service: String
        var appID: String
        static func < (lhs: Service, rhs: Service) -> Bool { (lhs.service, lhs.appID) < (rhs.service, rhs.appID) }
    }

    var iosServices: Set<Service> = []
    var androidKeys: [String: Set<String>] = [:]

    init() {}

    init(_ site: CompiledSite) {
        if let aasa = site.aasa {
            for details in aasa.applinks?.details ?? [] {
                for appID in details.effectiveAppIDs {
                    iosServices.insert(Service(service: AASAKey.applinks.rawValue, appID: appID))
                }
            }
            for (service, apps) in aasa.appLists {
                for appID in apps ?? [] { iosServices.insert(Service(service: service.rawValue, appID: appID)) }
            }
        }
        for statement in site.assetLinks?.statements ?? [] {
            if case .androidApp(let package, let fingerprints) = statement.target {
                androidKeys[package, default: []].formUnion(fingerprints)
            }
        }
    }
}
