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
        // Hosts of one domain serve the same files (the compiler makes them per domain and
        // environment): each pair's files are rendered once, the pairs on every core, and the
        // hosts share the buffers.
        var firstSites: [CompiledSite] = []
        let numbers = compiled.environments.map { environment in
            var numbers: [String: Int] = [:]
            for site in environment.sites where numbers[site.domain] == nil {
                numbers[site.domain] = firstSites.count
                firstSites.append(site)
            }
            return numbers
        }
        let files = firstSites.parallelMap { site in
            SiteFiles(
                aasa: site.aasa.map { $0.json.renderedBytes() }, assetLinks: site.assetLinks?.json.renderedBytes())
        }
        return zip(compiled.environments, numbers).flatMap { environment, numbers in
            render(environment) { files[numbers[$0.domain]!] }
        }
    }

    /// The rendered association files of one domain in one environment.
    private struct SiteFiles: Sendable {
        var aasa: [UInt8]?
        var assetLinks: [UInt8]?
    }

    private static func render(_ environment: CompiledEnvironment, files: (CompiledSite) -> SiteFiles) -> [Artifact] {
        let env = environment.name
        var artifacts: [Artifact] = []
        for site in environment.sites {
            let folder = "\(env)/\(site.fileHost.name)/.well-known/"
            let files = files(site)
            if let bytes = files.aasa {
                artifacts.append(
                    Artifact(path: folder + "apple-app-site-association", kind: .aasa, environment: env, bytes: bytes))
            }
            if let bytes = files.assetLinks {
                artifacts.append(
                    Artifact(path: folder + "assetlinks.json", kind: .assetLinks, environment: env, bytes: bytes))
            }
        }
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
        return artifacts.sorted { $0.path < $1.path }
    }

    /// The first lines of every property list, as Xcode writes them: XML plist 1.0.
    private static let plistHeader = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">

        """

    /// An entitlements property list in the format Xcode writes: XML plist 1.0, tab indentation.
    static func entitlements(_ app: CompiledIOSApp) -> String {
        var text = plistHeader + "<dict>\n\t<key>com.apple.developer.associated-domains</key>\n\t<array>\n"
        for entry in app.associatedDomains { text += "\t\t<string>\(XMLText.escaped(entry))</string>\n" }
        text += "\t</array>\n</dict>\n</plist>\n"
        return text
    }

    /// An Info.plist fragment holding only `CFBundleURLTypes`, one URL type per scheme, to merge
    /// into the app's Info.plist (README, "Custom schemes"). Apple's Information Property List
    /// reference: each type names its schemes (`CFBundleURLSchemes`), an abstract name that should
    /// be unique, in reverse-DNS style (`CFBundleURLName`; the scheme itself, so renaming a
    /// purpose changes nothing), and the app's role (`CFBundleTypeRole`; `Viewer`: it opens the
    /// URLs, it does not edit them). A plist has no comments that survive a merge, so the
    /// provenance is in the URL name and the file name.
    static func urlTypes(_ app: CompiledIOSApp) -> String {
        var text = plistHeader + "<dict>\n\t<key>CFBundleURLTypes</key>\n\t<array>\n"
        for scheme in app.urlSchemes {
            let name = XMLText.escaped(scheme.name)
            text += "\t\t<dict>\n"
            text += "\t\t\t<key>CFBundleTypeRole</key>\n\t\t\t<string>Viewer</string>\n"
            text += "\t\t\t<key>CFBundleURLName</key>\n\t\t\t<string>\(name)</string>\n"
            text +=
                "\t\t\t<key>CFBundleURLSchemes</key>\n\t\t\t<array>\n\t\t\t\t<string>\(name)</string>\n\t\t\t</array>\n"
            text += "\t\t</dict>\n"
        }
        text += "\t</array>\n</dict>\n</plist>\n"
        return text
    }

    /// A well-formed XML document holding one `<intent-filter>` per domain contract, to copy
    /// into the `<activity>` that opens the links.
    static func intentFilters(_ app: CompiledAndroidApp, environment: String) -> String {
        var text = """
            <?xml version="1.0" encoding="utf-8"?>
            <!-- Generated by linkwright for \(XMLText.comment(app.package)) in \(XMLText.comment(environment)). Do not edit. -->
            <!-- Copy each <intent-filter> into the <activity> that opens these links. -->
            <intent-filters xmlns:android="http://schemas.android.com/apk/res/android">

            """
        for filter in app.intentFilters {
            text += "    <!-- domain: \(XMLText.comment(filter.domain)) -->\n"
            text += filterStart(autoVerify: true, scheme: "https")
            for host in filter.hosts { text += "        <data android:host=\"\(host.name)\" />\n" }
            for scope in filter.scopes { text += "        <data \(scope.attribute) />\n" }
            text += "    </intent-filter>\n"
        }
        // A custom scheme's filter has no host, so it takes every URL of the scheme (Android's
        // <data> element: without a host, path attributes are ignored), and no autoVerify:
        // nothing verifies a custom scheme, which is why policies check who declares it.
        for scheme in app.schemes {
            text += "    <!-- custom scheme: \(XMLText.comment(scheme.name)) (\(scheme.purpose.rawValue)) -->\n"
            text += filterStart(autoVerify: false, scheme: scheme.name)
            text += "    </intent-filter>\n"
        }
        text += "</intent-filters>\n"
        return text
    }

    /// An `<intent-filter>` for links opened with VIEW from a browser, up to its scheme.
    private static func filterStart(autoVerify: Bool, scheme: String) -> String {
        """
            <intent-filter\(autoVerify ? " android:autoVerify=\"true\"" : "")>
                <action android:name="android.intent.action.VIEW" />
                <category android:name="android.intent.category.DEFAULT" />
                <category android:name="android.intent.category.BROWSABLE" />
                <data android:scheme="\(XMLText.escaped(scheme))" />

        """
    }
}
