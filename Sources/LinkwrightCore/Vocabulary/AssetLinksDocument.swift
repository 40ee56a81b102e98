/// An `assetlinks.json` statement list
/// (https://developers.google.com/digital-asset-links/v1/statements).
public struct AssetLinksDocument: Sendable, Hashable {
    public var statements: [AssetStatement]
    /// `{"include": "https://…"}` elements, which delegate to another statement list
    /// (https://github.com/google/digitalassetlinks/blob/master/well-known/details.md).
    /// Read from sites' files; written after the statements.
    public var includes: [AssetInclude]

    public init(statements: [AssetStatement], includes: [AssetInclude] = []) {
        self.statements = statements
        self.includes = includes
    }

    public var json: JSON {
        .array(statements.map(\.json) + includes.map { JSON([(AssetLinksKey.include, .string($0.url))]) })
    }
}

/// An `include` element of a statement list: the URL of another statement list.
public struct AssetInclude: Sendable, Hashable {
    public var url: String
    public var origin: SourceLocation?

    public init(url: String, origin: SourceLocation? = nil) {
        self.url = url
        self.origin = origin
    }
}

public struct AssetStatement: Sendable, Hashable {
    public static let handleAllURLs = "delegate_permission/common.handle_all_urls"
    public static let getLoginCreds = "delegate_permission/common.get_login_creds"

    public var relations: [String]
    public var target: AssetTarget
    /// Android 15 dynamic rules for `handle_all_urls`
    /// (https://developer.android.com/training/app-links/configure-assetlinks#configure-dynamic).
    public var dynamicComponents: [DynamicComponent]?
    /// Where the statement was written, when it was read from a file.
    public var origin: SourceLocation?

    public init(
        relations: [String], target: AssetTarget, dynamicComponents: [DynamicComponent]? = nil,
        origin: SourceLocation? = nil
    ) {
        self.relations = relations
        self.target = target
        self.dynamicComponents = dynamicComponents
        self.origin = origin
    }

    var json: JSON {
        var members: [(AssetLinksKey, JSON)] = [
            (.relation, .array(relations.map(JSON.string))),
            (.target, target.json),
        ]
        if let dynamicComponents {
            let rules = JSON([(AssetLinksKey.dynamicAppLinkComponents, .array(dynamicComponents.map(\.json)))])
            members.append((.relationExtensions, .object([(Self.handleAllURLs, rules)])))
        }
        return JSON(members)
    }
}

public enum AssetTarget: Sendable, Hashable {
    case androidApp(package: String, fingerprints: [String])
    case web(site: String)

    var json: JSON {
        switch self {
        case .androidApp(let package, let fingerprints):
            return JSON([
                (AssetLinksKey.namespace, .string("android_app")),
                (.packageName, .string(package)),
                (.sha256CertFingerprints, .array(fingerprints.map(JSON.string))),
            ])
        case .web(let site):
            return JSON([(AssetLinksKey.namespace, .string("web")), (.site, .string(site))])
        }
    }
}

/// One element of `dynamic_app_link_components`: `/`, `?` (items only), `#`, `exclude`, and
/// `comments` (the plural key AOSP's StatementParser reads).
public struct DynamicComponent: Sendable, Hashable {
    public var path: String?
    public var query: [AASAQueryItem]?
    public var fragment: String?
    public var exclude: Bool
    public var comments: String?
    public var origin: SourceLocation?

    public init(
        path: String? = nil, query: [AASAQueryItem]? = nil, fragment: String? = nil, exclude: Bool = false,
        comments: String? = nil, origin: SourceLocation? = nil
    ) {
        self.path = path
        self.query = query
        self.fragment = fragment
        self.exclude = exclude
        self.comments = comments
        self.origin = origin
    }

    /// Texts compare exactly (`ExactText`).
    public static func == (left: DynamicComponent, right: DynamicComponent) -> Bool {
        left.sameButWhere(right) && left.origin == right.origin
    }

    /// What `==` compares but the origin's file: a document's components are written in one
    /// file, whose path hashed for each of them cost as much as their own texts.
    public func hash(into hasher: inout Hasher) {
        hashButWhere(into: &hasher)
        hasher.combine(origin?.line)
        hasher.combine(origin?.column)
    }

    /// What `sameButWhere` compares (`HashedRules`).
    func hashButWhere(into hasher: inout Hasher) {
        hasher.combine(path)
        hasher.combine(query)
        hasher.combine(fragment)
        hasher.combine(exclude)
        hasher.combine(comments)
    }

    /// Whether `other` is this component exactly, written elsewhere or not: compared in place,
    /// as the structural diff compares each rule of a revision with the earlier one's.
    func sameButWhere(_ other: DynamicComponent) -> Bool {
        testsAlike(other) && ExactText.equal(comments, other.comments)
    }

    var json: JSON {
        var members: [(ComponentKey, JSON)] = []
        if let path { members.append((.path, .string(path))) }
        if let query { members.append((.query, .object(query.map { ($0.name, .string($0.pattern)) }))) }
        if let fragment { members.append((.fragment, .string(fragment))) }
        if exclude { members.append((.exclude, .bool(true))) }
        if let comments { members.append((.comments, .string(comments))) }
        return JSON(members)
    }
}
