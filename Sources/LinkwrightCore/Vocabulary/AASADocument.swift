/// An `apple-app-site-association` file as a value: what `build` emits and what `match` reads.
/// Field names follow Apple's (https://developer.apple.com/documentation/bundleresources/applinks).
public struct AASADocument: Sendable, Equatable {
    public var applinks: AppLinksSection?
    /// The app IDs each of the other services lists (`AssociatedService.appListServices`).
    public var serviceApps: [AssociatedService: [String]]
    /// Top-level keys that are none of the services, where they are written: Apple ignores
    /// them, and the build writes none, so an import names each.
    public var unknownKeys: [Located<String>] = []

    public init(applinks: AppLinksSection? = nil, serviceApps: [AssociatedService: [String]] = [:]) {
        self.applinks = applinks
        self.serviceApps = serviceApps
    }
}

public struct AppLinksSection: Sendable, Hashable {
    /// The legacy `"apps": []` key, which iOS 9–12 require to be present and empty.
    public var legacyApps: [String]?
    public var defaults: AASAComponent?
    public var substitutionVariables: [AASAVariable]
    public var details: [AASADetails]

    public init(
        legacyApps: [String]? = nil, defaults: AASAComponent? = nil, substitutionVariables: [AASAVariable] = [],
        details: [AASADetails]
    ) {
        self.legacyApps = legacyApps
        self.defaults = defaults
        self.substitutionVariables = substitutionVariables
        self.details = details
    }
}

public struct AASAVariable: Sendable, Hashable {
    public var name: String
    public var values: [String]

    public init(name: String, values: [String]) {
        self.name = name
        self.values = values
    }

    /// Texts compare exactly (`ExactText`); the hash stays the synthesized one.
    public static func == (left: AASAVariable, right: AASAVariable) -> Bool {
        ExactText.equal(left.name, right.name) && ExactText.equal(left.values, right.values)
    }
}

/// One entry of `applinks.details`.
public struct AASADetails: Sendable, Hashable {
    public var appIDs: [String]?
    /// The legacy singular key. When both are present `appIDs` wins, even when empty: observed
    /// with swcutil by st-tech/universal-links-test ("should ignore appID if appIDs provided").
    public var appID: String?
    public var defaults: AASAComponent?
    public var components: [AASAComponent]?
    /// Legacy `paths` (iOS 12 and older), with `NOT ` marking an exclusion.
    public var paths: [String]?
    /// Where the entry was written in our configuration, when it came from there.
    public var origin: SourceLocation?

    public init(
        appIDs: [String]? = nil, appID: String? = nil, defaults: AASAComponent? = nil,
        components: [AASAComponent]? = nil, paths: [String]? = nil, origin: SourceLocation? = nil
    ) {
        self.appIDs = appIDs
        self.appID = appID
        self.defaults = defaults
        self.components = components
        self.paths = paths
        self.origin = origin
    }

    /// The app IDs this entry speaks for.
    public var effectiveAppIDs: [String] { appIDs ?? appID.map { [$0] } ?? [] }

    /// Texts compare exactly (`ExactText`); the hash stays the synthesized one.
    public static func == (left: AASADetails, right: AASADetails) -> Bool {
        ExactText.equal(left.appIDs, right.appIDs) && ExactText.equal(left.appID, right.appID)
            && ExactText.equal(left.paths, right.paths)
            && (left.defaults, left.components, left.origin) == (right.defaults, right.components, right.origin)
    }

    /// The entry with neither `appIDs` nor `appID`: what it decides, for whichever apps.
    public var withoutAppIDs: AASADetails {
        var entry = self
        (entry.appIDs, entry.appID) = (nil, nil)
        return entry
    }
}

/// One element of `components` (also the shape of `defaults`).
public struct AASAComponent: Sendable, Hashable {
    public var path: String?
    public var query: AASAQuery?
    public var fragment: String?
    public var exclude: Bool?
    public var flags: ComponentFlags<Bool>
    public var comment: String?
    public var origin: SourceLocation?

    public init(
        path: String? = nil, query: AASAQuery? = nil, fragment: String? = nil, exclude: Bool? = nil,
        flags: ComponentFlags<Bool> = ComponentFlags(), comment: String? = nil, origin: SourceLocation? = nil
    ) {
        self.path = path
        self.query = query
        self.fragment = fragment
        self.exclude = exclude
        self.flags = flags
        self.comment = comment
        self.origin = origin
    }

    /// Texts compare exactly (`ExactText`).
    public static func == (left: AASAComponent, right: AASAComponent) -> Bool {
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
        hasher.combine(flags)
        hasher.combine(comment)
    }

    /// Whether `other` is this component exactly, written elsewhere or not: compared in place,
    /// as the structural diff compares each rule of a revision with the earlier one's.
    func sameButWhere(_ other: AASAComponent) -> Bool {
        ExactText.equal(path, other.path) && ExactText.equal(fragment, other.fragment)
            && ExactText.equal(comment, other.comment)
            && (query, exclude, flags) == (other.query, other.exclude, other.flags)
    }
}

public enum AASAQuery: Sendable, Hashable {
    /// A pattern for the whole query string.
    case whole(String)
    /// Patterns for named items.
    case items([AASAQueryItem])
    /// A dictionary holding a non-string value, which swcutil ignores as a whole
    /// (blazingly-aasa conformance/oracle/swcutil-probes.tsv, `query-nonstring`). Never emitted.
    case ignoredDictionary

    /// Texts compare exactly (`ExactText`); the hash stays the synthesized one.
    public static func == (left: AASAQuery, right: AASAQuery) -> Bool {
        switch (left, right) {
        case (.whole(let left), .whole(let right)): ExactText.equal(left, right)
        case (.items(let left), .items(let right)): left == right
        case (.ignoredDictionary, .ignoredDictionary): true
        default: false
        }
    }
}

public struct AASAQueryItem: Sendable, Hashable {
    public var name: String
    public var pattern: String

    public init(name: String, pattern: String) {
        self.name = name
        self.pattern = pattern
    }

    /// Texts compare exactly (`ExactText`); the hash stays the synthesized one.
    public static func == (left: AASAQueryItem, right: AASAQueryItem) -> Bool {
        ExactText.equal(left.name, right.name) && ExactText.equal(left.pattern, right.pattern)
    }
}

extension AASADocument {
    /// The JSON of this file, keys in the order of Apple's documentation examples.
    public var json: JSON { json(as: JSON.self) }

    /// The size of the file as written (`json.rendered()`).
    var renderedSize: Int { json(as: JSONRenderedSize.self).renderedSize }

    /// `renderedSize`, with the components of the entry at each position of `applinks.details`
    /// sized by `components` (as `JSONRenderedSize.array` of their sizes would): a changelog's
    /// revisions of a file keep most of its components, whose sizes are known.
    func renderedSize(sizingComponents components: (Int, [AASAComponent]) -> JSONRenderedSize) -> Int {
        json(as: JSONRenderedSize.self) { components($0, $1) }.renderedSize
    }

    /// With `components`, the value of the components of the entry at each position of
    /// `applinks.details`, where it gives one.
    func json<Shape: JSONShape>(
        as _: Shape.Type = Shape.self, components: (Int, [AASAComponent]) -> Shape? = { _, _ in nil }
    ) -> Shape {
        var members: [(AssociatedService, Shape)] = []
        if let applinks { members.append((.applinks, applinks.json(components: components))) }
        for (service, apps) in appLists {
            if let apps { members.append((service, Shape([(AASAKey.apps, .array(apps.map(Shape.string)))]))) }
        }
        return Shape(members)
    }

    /// The app lists of the services other than `applinks`, in the order files write them.
    var appLists: [(service: AssociatedService, apps: [String]?)] {
        AssociatedService.appListServices.map { ($0, serviceApps[$0]) }
    }
}

extension AppLinksSection {
    func json<Shape: JSONShape>(
        as _: Shape.Type = Shape.self, components: (Int, [AASAComponent]) -> Shape? = { _, _ in nil }
    ) -> Shape {
        var members: [(AASAKey, Shape)] = []
        if let legacyApps { members.append((.apps, .array(legacyApps.map(Shape.string)))) }
        if let defaults { members.append((.defaults, defaults.json())) }
        if !substitutionVariables.isEmpty {
            members.append(
                (
                    .substitutionVariables,
                    .object(substitutionVariables.map { ($0.name, .array($0.values.map(Shape.string))) })
                ))
        }
        members.append(
            (
                .details,
                .array(
                    details.indices.map { position in
                        details[position].json(as: Shape.self) { components(position, $0) }
                    })
            ))
        return Shape(members)
    }
}

extension AASADetails {
    /// With `components`, the value of the components when it gives one.
    func json<Shape: JSONShape>(
        as _: Shape.Type = Shape.self, components valueOf: ([AASAComponent]) -> Shape? = { _ in nil }
    ) -> Shape {
        var members: [(AASAKey, Shape)] = []
        if let appIDs { members.append((.appIDs, .array(appIDs.map(Shape.string)))) }
        if let appID { members.append((.appID, .string(appID))) }
        if let defaults { members.append((.defaults, defaults.json())) }
        if let components {
            members.append((.components, valueOf(components) ?? .array(components.map { $0.json() })))
        }
        if let paths { members.append((.paths, .array(paths.map(Shape.string)))) }
        return Shape(members)
    }
}

extension AASAComponent {
    func json<Shape: JSONShape>(as _: Shape.Type = Shape.self) -> Shape {
        var members: [(ComponentKey, Shape)] = []
        if let path { members.append((.path, .string(path))) }
        switch query {
        case .whole(let pattern): members.append((.query, .string(pattern)))
        case .items(let items): members.append((.query, .object(items.map { ($0.name, .string($0.pattern)) })))
        // The compiler never emits one; a file read from elsewhere may hold one. An empty
        // dictionary decides the same (every query matches), so diffs and fingerprints of such
        // files compare what they do.
        case .ignoredDictionary: members.append((.query, .object([])))
        case nil: break
        }
        if let fragment { members.append((.fragment, .string(fragment))) }
        if let exclude { members.append((.exclude, .bool(exclude))) }
        for flag in ComponentFlag.allCases {
            if let value = flags[flag] { members.append((flag.key, .bool(value))) }
        }
        if let comment { members.append((.comment, .string(comment))) }
        return Shape(members)
    }
}
