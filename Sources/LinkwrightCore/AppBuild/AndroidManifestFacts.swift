/// What an APK's `AndroidManifest.xml` declares about links: the package and, per activity (or
/// activity alias), each `<intent-filter>` with `android:autoVerify`, its actions, categories
/// and the `<data>` attributes, which Android merges across a filter's `<data>` elements
/// (https://developer.android.com/guide/topics/manifest/data-element: "all the data elements
/// in the same intent filter are merged together").
public struct AndroidManifestFacts: Sendable, Equatable {
    public struct Filter: Sendable, Equatable {
        /// The activity's `android:name`.
        public var activity: String
        /// Where the filter is: `AndroidManifest.xml` line (as aapt recorded it) and its place
        /// among the activity's filters.
        public var line: Int
        public var keyPath: String
        public var autoVerify: Bool
        public var actions: [String]
        public var categories: [String]
        public var schemes: [String]
        /// `host` or `host:port`, as written (a leading `*.` is a wildcard).
        public var hosts: [String]
        /// `path`, `pathPrefix`, `pathPattern`, `pathSuffix`, `pathAdvancedPattern`, each with its value.
        public var paths: [PathAttribute]

        /// A filter App Links can verify: VIEW, BROWSABLE and DEFAULT with http or https
        /// (https://developer.android.com/training/app-links/verify-android-applinks).
        public var isWebLink: Bool {
            actions.contains("android.intent.action.VIEW") && categories.contains("android.intent.category.BROWSABLE")
                && categories.contains("android.intent.category.DEFAULT")
                && schemes.contains { $0 == "https" || $0 == "http" }
        }
    }

    /// One path attribute of a `<data>` element.
    public struct PathAttribute: Sendable, Equatable {
        public var attribute: String
        public var value: String
    }

    public var package: String
    public var filters: [Filter]

    /// Android's resource IDs for the attributes read (android.R.attr), for manifests whose
    /// attribute names were stripped.
    private enum AttributeID {
        static let name: UInt32 = 0x0101_0003
        static let scheme: UInt32 = 0x0101_0027
        static let host: UInt32 = 0x0101_0028
        static let port: UInt32 = 0x0101_0029
        static let path: UInt32 = 0x0101_002A
        static let pathPrefix: UInt32 = 0x0101_002B
        static let pathPattern: UInt32 = 0x0101_002C
        static let autoVerify: UInt32 = 0x0101_04EE
    }

    public init(_ root: BinaryXMLElement) throws(BuildDefect) {
        guard root.name == "manifest" else {
            throw BuildDefect("the root element is <\(root.name)>, not <manifest>")
        }
        guard let package = root.attribute("package")?.text, !package.isEmpty else {
            throw BuildDefect("<manifest> has no package attribute")
        }
        self.package = package
        var filters: [Filter] = []
        for application in root.children where application.name == "application" {
            for activity in application.children where activity.name == "activity" || activity.name == "activity-alias"
            {
                let name = activity.attribute("name", android: AttributeID.name)?.text ?? "?"
                for (position, filter) in activity.children.filter({ $0.name == "intent-filter" }).enumerated() {
                    filters.append(
                        Self.filter(
                            filter, activity: name,
                            keyPath:
                                "manifest/application/\(activity.name)[@name=\(name)]/intent-filter[\(position + 1)]"))
                }
            }
        }
        self.filters = filters
    }

    private static func filter(_ element: BinaryXMLElement, activity: String, keyPath: String) -> Filter {
        func values(_ child: String, _ attribute: String, _ id: UInt32) -> [String] {
            element.children.filter { $0.name == child }.compactMap { $0.attribute(attribute, android: id)?.text }
        }
        var hosts: [String] = []
        for data in element.children where data.name == "data" {
            guard let host = data.attribute("host", android: AttributeID.host)?.text else { continue }
            let port = data.attribute("port", android: AttributeID.port)?.text
            hosts.append(port.map { "\(host):\($0)" } ?? host)
        }
        var paths: [PathAttribute] = []
        for data in element.children where data.name == "data" {
            for attribute in data.attributes {
                let name =
                    switch attribute.resourceID {
                    case AttributeID.path: "path"
                    case AttributeID.pathPrefix: "pathPrefix"
                    case AttributeID.pathPattern: "pathPattern"
                    default: attribute.name
                    }
                if name.hasPrefix("path") { paths.append(PathAttribute(attribute: name, value: attribute.text)) }
            }
        }
        let autoVerify = element.attribute("autoVerify", android: AttributeID.autoVerify)
        return Filter(
            activity: activity, line: element.line, keyPath: keyPath,
            autoVerify: autoVerify?.value == .boolean(true) || autoVerify?.value == .string("true"),
            actions: values("action", "name", AttributeID.name),
            categories: values("category", "name", AttributeID.name),
            schemes: values("data", "scheme", AttributeID.scheme), hosts: hosts, paths: paths)
    }
}
