/// A file to write under the output folder: a relative path built only from validated names and
/// hosts, and its bytes.
public struct Artifact: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case aasa = "apple-app-site-association"
        case assetLinks = "assetlinks.json"
        case entitlements
        case intentFilters = "intent-filters"
        case urlTypes = "url-types"
    }

    public var path: String
    public var kind: Kind
    public var environment: String
    public var bytes: [UInt8]
}

/// Renders compiled environments into the files `build` writes. Every byte is a function of the
/// compiled model: no timestamps, machine paths or hash ordering.
public enum ArtifactRenderer {
    public static func render(_ compiled: CompiledConfiguration) -> [Artifact] {
        compiled.environments.flatMap(render)
    }

    /// The files of one environment, sorted by path: its sites' (`render(_:)` of a domain's
    /// sites) and its apps' (`renderAppFiles`).
    public static func render(_ environment: CompiledEnvironment) -> [Artifact] {
        // Hosts of one domain serve the same files (the compiler makes them per domain and
        // environment): each domain's files are rendered once, the domains on every core.
        var sitesByDomain: [DomainSites] = []
        var numbers: [String: Int] = [:]
        for site in environment.sites {
            if let number = numbers[site.domain] {
                sitesByDomain[number].sites.append(site)
            } else {
                numbers[site.domain] = sitesByDomain.count
                sitesByDomain.append(DomainSites(environment: environment.name, sites: [site]))
            }
        }
        return (sitesByDomain.parallelMap(render).joined() + renderAppFiles(environment)).sorted { $0.path < $1.path }
    }

    /// The association files of the sites of one domain in one environment, rendered once and
    /// shared by every host's artifact.
    public static func render(_ domain: DomainSites) -> [Artifact] {
        guard let first = domain.sites.first else { return [] }
        let aasa = first.aasa.map { $0.json.renderedBytes() }
        let assetLinks = first.assetLinks?.json.renderedBytes()
        var artifacts: [Artifact] = []
        for site in domain.sites {
            let folder = "\(domain.environment)/\(site.fileHost.name)/.well-known/"
            if let bytes = aasa {
                artifacts.append(
                    Artifact(
                        path: folder + "apple-app-site-association", kind: .aasa, environment: domain.environment,
                        bytes: bytes))
            }
            if let bytes = assetLinks {
                artifacts.append(
                    Artifact(
                        path: folder + "assetlinks.json", kind: .assetLinks, environment: domain.environment,
                        bytes: bytes))
            }
        }
        return artifacts
    }

    /// The files of one environment's apps: entitlements, URL types and intent filters.
    public static func renderAppFiles(_ environment: CompiledEnvironment) -> [Artifact] {
        let env = environment.name
        var artifacts: [Artifact] = []
        for app in environment.iosApps where !app.associatedDomains.isEmpty {
            artifacts.append(
                Artifact(
                    path: "\(env)/ios/\(app.name).entitlements", kind: .entitlements, environment: env,
                    bytes: Array(entitlements(app).utf8)))
        }
        for app in environment.iosApps where !app.urlSchemes.isEmpty {
            artifacts.append(
                Artifact(
                    path: "\(env)/ios/\(app.name).url-types.plist", kind: .urlTypes, environment: env,
                    bytes: Array(urlTypes(app).utf8)))
        }
        for app in environment.androidApps where !app.intentFilters.isEmpty || !app.schemes.isEmpty {
            artifacts.append(
                Artifact(
                    path: "\(env)/android/\(app.name).intent-filters.xml", kind: .intentFilters, environment: env,
                    bytes: Array(intentFilters(app, environment: env).utf8)))
        }
        return artifacts
    }

    /// The first lines of every property list, as Xcode writes them: XML plist 1.0.
    private static let plistHeader = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">

        """

    /// An entitlements property list in the format Xcode writes: XML plist 1.0, tab indentation.
    static func entitlements(_ app: CompiledIOSApp) -> String {
        plistHeader + "<dict>\n\t<key>\(AppFileKind.entitlements.keeps)</key>\n\t"
            + associatedDomainsValue(app, indent: "\t", unit: "\t") + "\n</dict>\n</plist>\n"
    }

    /// The value of `com.apple.developer.associated-domains` as XML plist text: its first line
    /// unindented (it follows its key's indentation), the lines inside at `indent` and one
    /// `unit` more, the last at `indent`. `build`'s entitlements and `sync`'s edit of the app's
    /// own file are both this text.
    public static func associatedDomainsValue(_ app: CompiledIOSApp, indent: String, unit: String) -> String {
        guard !app.associatedDomains.isEmpty else { return "<array/>" }
        var text = "<array>\n"
        for entry in app.associatedDomains { text += "\(indent)\(unit)<string>\(XMLText.escaped(entry))</string>\n" }
        return text + "\(indent)</array>"
    }

    /// An Info.plist fragment holding only `CFBundleURLTypes`, one URL type per scheme, to merge
    /// into the app's Info.plist (README, "Custom schemes"). Apple's Information Property List
    /// reference: each type names its schemes (`CFBundleURLSchemes`), an abstract name that should
    /// be unique, in reverse-DNS style (`CFBundleURLName`; the scheme itself, so renaming a
    /// purpose changes nothing), and the app's role (`CFBundleTypeRole`; `Viewer`: it opens the
    /// URLs, it does not edit them). A plist has no comments that survive a merge, so the
    /// provenance is in the URL name and the file name.
    static func urlTypes(_ app: CompiledIOSApp) -> String {
        plistHeader + "<dict>\n\t<key>\(AppFileKind.infoPlist.keeps)</key>\n\t"
            + urlTypesValue(app, indent: "\t", unit: "\t") + "\n</dict>\n</plist>\n"
    }

    /// The value of `CFBundleURLTypes`, laid out as `associatedDomainsValue` lays out its own.
    public static func urlTypesValue(_ app: CompiledIOSApp, indent: String, unit: String) -> String {
        guard !app.urlSchemes.isEmpty else { return "<array/>" }
        let (entry, field, item) = (indent + unit, indent + unit + unit, indent + unit + unit + unit)
        var text = "<array>\n"
        for scheme in app.urlSchemes {
            let name = XMLText.escaped(scheme.name)
            text += "\(entry)<dict>\n"
            text += "\(field)<key>CFBundleTypeRole</key>\n\(field)<string>Viewer</string>\n"
            text += "\(field)<key>CFBundleURLName</key>\n\(field)<string>\(name)</string>\n"
            text += "\(field)<key>CFBundleURLSchemes</key>\n\(field)<array>\n\(item)<string>\(name)</string>\n"
            text += "\(field)</array>\n\(entry)</dict>\n"
        }
        return text + "\(indent)</array>"
    }

    /// A well-formed XML document holding one `<intent-filter>` per domain contract, to copy
    /// into the `<activity>` that opens the links.
    static func intentFilters(_ app: CompiledAndroidApp, environment: String) -> String {
        """
        <?xml version="1.0" encoding="utf-8"?>
        <!-- Generated by linkwright for \(XMLText.comment(app.package)) in \(XMLText.comment(environment)). Do not edit. -->
        <!-- Copy each <intent-filter> into the <activity> that opens these links. -->
        <intent-filters xmlns:android="http://schemas.android.com/apk/res/android">

        """ + intentFilterElements(app, indent: "    ", unit: "    ") + "</intent-filters>\n"
    }

    /// The app's `<intent-filter>` elements, each after a comment naming its domain or scheme,
    /// every line at `indent` (the inner ones one `unit` more) and ending in a line break:
    /// `build`'s intent-filter file and `sync`'s edit of the app's manifest are both this text.
    public static func intentFilterElements(_ app: CompiledAndroidApp, indent: String, unit: String) -> String {
        var text = ""
        for filter in app.intentFilters {
            text += "\(indent)<!-- domain: \(XMLText.comment(filter.domain)) -->\n"
            text += filterStart(autoVerify: true, scheme: "https", indent: indent, unit: unit)
            for host in filter.hosts { text += "\(indent)\(unit)<data android:host=\"\(host.name)\" />\n" }
            for scope in filter.scopes { text += "\(indent)\(unit)<data \(scope.attribute) />\n" }
            text += "\(indent)</intent-filter>\n"
        }
        // A custom scheme's filter has no host, so it takes every URL of the scheme (Android's
        // <data> element: without a host, path attributes are ignored), and no autoVerify:
        // nothing verifies a custom scheme, which is why policies check who declares it.
        for scheme in app.schemes {
            text += "\(indent)<!-- custom scheme: \(XMLText.comment(scheme.name)) (\(scheme.purpose.rawValue)) -->\n"
            text += filterStart(autoVerify: false, scheme: scheme.name, indent: indent, unit: unit)
            text += "\(indent)</intent-filter>\n"
        }
        return text
    }

    /// An `<intent-filter>` for links opened with VIEW from a browser, up to its scheme.
    private static func filterStart(autoVerify: Bool, scheme: String, indent: String, unit: String) -> String {
        let inner = indent + unit
        return """
            \(indent)<intent-filter\(autoVerify ? " android:autoVerify=\"true\"" : "")>
            \(inner)<action android:name="android.intent.action.VIEW" />
            \(inner)<category android:name="android.intent.category.DEFAULT" />
            \(inner)<category android:name="android.intent.category.BROWSABLE" />
            \(inner)<data android:scheme="\(XMLText.escaped(scheme))" />

            """
    }
}
