/// The keys of an apple-app-site-association file above its rules, as Apple spells them
/// (https://developer.apple.com/documentation/bundleresources/applinks). The readers and the
/// writer name keys only through these, so the two cannot drift apart.
/// The services at the top of the file are `AssociatedService`'s.
enum AASAKey: String, Sendable {
    /// The app list of a service other than `applinks`, and `applinks`' legacy empty list.
    case apps
    case details
    case defaults
    case substitutionVariables
    case appID
    case appIDs
    case components
    case paths

    /// The keys of `applinks`.
    static let inAppLinks: [AASAKey] = [.apps, .details, .defaults, .substitutionVariables]
    /// The keys of a `details` entry.
    static let inDetails: [AASAKey] = [.appID, .appIDs, .components, .paths, .defaults]
}

/// The keys of a URL rule: Apple's components (and `defaults`) and Android's
/// `dynamic_app_link_components`, which took Apple's spelling of `/`, `?`, `#` and `exclude`.
/// The flags' keys come from `ComponentFlag`, where each flag is declared.
struct ComponentKey: RawRepresentable, Hashable, Sendable {
    let rawValue: String

    static let path = ComponentKey(rawValue: URLPart.path.description)
    static let query = ComponentKey(rawValue: URLPart.query.description)
    static let fragment = ComponentKey(rawValue: URLPart.fragment.description)
    static let exclude = ComponentKey(rawValue: "exclude")
    /// Apple's.
    static let comment = ComponentKey(rawValue: "comment")
    /// Android's (the plural AOSP's StatementParser reads).
    static let comments = ComponentKey(rawValue: "comments")

    /// The keys Apple reads in a component or `defaults`.
    static let apple: [ComponentKey] =
        [.path, .query, .fragment, .exclude] + ComponentFlag.allCases.map(\.key) + [.comment]
    /// The keys Android reads in a dynamic rule.
    static let android: [ComponentKey] = [.path, .query, .fragment, .exclude, .comments]
}

/// The keys of an assetlinks.json statement list above its dynamic rules, as Google spells them
/// (https://developers.google.com/digital-asset-links/v1/statements).
enum AssetLinksKey: String, Sendable {
    case relation
    case target
    case relationExtensions = "relation_extensions"
    /// An element that delegates to another statement list instead of being a statement.
    case include
    case namespace
    case packageName = "package_name"
    case sha256CertFingerprints = "sha256_cert_fingerprints"
    case site
    case dynamicAppLinkComponents = "dynamic_app_link_components"

    /// The keys of a statement.
    static let statement: [AssetLinksKey] = [.relation, .target, .relationExtensions]
    /// The keys of an `android_app` target.
    static let androidAppTarget: [AssetLinksKey] = [.namespace, .packageName, .sha256CertFingerprints]
    /// The keys of a `web` target.
    static let webTarget: [AssetLinksKey] = [.namespace, .site]
}
