/// A service of an associated domain, declared once: the top-level key of the
/// apple-app-site-association file (https://developer.apple.com/documentation/bundleresources/applinks),
/// the same key in a domain file, and the prefix of the entitlement an app declares
/// (`applinks:shop.example`), in the order files and entitlements list them.
public enum AssociatedService: String, CaseIterable, Sendable {
    /// Universal links: rules, not an app list.
    case applinks
    case webcredentials
    case appclips
    case activitycontinuation

    /// The services whose section is an app list (`{"apps": [...]}`).
    public static let appListServices = allCases.filter { $0 != .applinks }

    /// Whether an app may claim the service on a wildcard host. Apple: "For services other than
    /// appclips, you can prefix a domain with *." (Supporting associated domains), so App Clips
    /// get concrete hosts only.
    public var allowsWildcardHosts: Bool { self != .appclips }

    /// `webcredentials, appclips or activitycontinuation`: the keys, for messages that name them.
    static func listed(_ services: [AssociatedService], _ conjunction: String) -> String {
        let keys = services.map(\.rawValue)
        return keys.dropLast().joined(separator: ", ") + " \(conjunction) " + (keys.last ?? "")
    }

    /// What a domain file's list under this key means, as the schema describes it.
    var summary: String {
        switch self {
        case .applinks: "Universal-link rules, one entry per group of apps, in the order iOS evaluates them."
        case .webcredentials: "Apps that share web credentials (passwords, passkeys) with this site."
        case .appclips: "App Clips this site invokes."
        case .activitycontinuation: "Apps that continue activities (Handoff)."
        }
    }
}
