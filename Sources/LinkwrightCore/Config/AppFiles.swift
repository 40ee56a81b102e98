/// What `sync` keeps in step in one of the app's own files.
public enum AppFileKind: String, Sendable, CaseIterable {
    /// `com.apple.developer.associated-domains` of an entitlements property list.
    case entitlements
    /// `CFBundleURLTypes` of an Info.plist.
    case infoPlist = "info_plist"
    /// The intent filters between the markers in one activity of a flavor's manifest.
    case manifest

    /// The platform whose build reads the file.
    public var platform: Platform { self == .manifest ? .android : .ios }

    /// What the kind keeps, for messages.
    public var keeps: String {
        switch self {
        case .entitlements: "com.apple.developer.associated-domains"
        case .infoPlist: "CFBundleURLTypes"
        case .manifest: "intent filters"
        }
    }
}

/// An app file the environment file declares (`ios.entitlements`, `ios.info_plist`,
/// `android.manifest` with `android.activity`).
public struct DeclaredAppFile: Sendable, Equatable {
    public var environment: String
    public var app: String
    public var kind: AppFileKind
    /// As written, from the configuration folder.
    public var path: Located<String>
    /// For a manifest: the activity, as its `android:name` is written.
    public var activity: Located<String>?
}

extension Environment {
    /// The app files this environment declares, app by app in file order.
    public var appFiles: [DeclaredAppFile] {
        apps.flatMap { app -> [DeclaredAppFile] in
            let name = app.name.value
            var files: [DeclaredAppFile] = []
            if let path = app.ios?.entitlementsFile {
                files.append(DeclaredAppFile(environment: self.name, app: name, kind: .entitlements, path: path))
            }
            if let path = app.ios?.infoPlistFile {
                files.append(DeclaredAppFile(environment: self.name, app: name, kind: .infoPlist, path: path))
            }
            if let manifest = app.android?.manifest {
                files.append(
                    DeclaredAppFile(
                        environment: self.name, app: name, kind: .manifest, path: manifest.file,
                        activity: manifest.activity))
            }
            return files
        }
    }
}

/// Paths of app files, resolved without the file system.
public enum AppFilePath {
    /// `path` joined to the folder `base` (both `/`-separated and relative, `base` possibly
    /// empty) with `..` taken lexically, or nil when it climbs above the top: the repository's
    /// path of a file the configuration names from its folder.
    public static func normalised(_ path: String, under base: String = "") -> String? {
        var parts: [Substring] = []
        for component in (base.split(separator: "/") + path.split(separator: "/")) where component != "." {
            if component == ".." {
                guard parts.popLast() != nil else { return nil }
            } else {
                parts.append(component)
            }
        }
        return parts.isEmpty ? nil : parts.joined(separator: "/")
    }

    /// `path` after the folder `prefix` (empty, or ending in `/`, as output prefixes are), each
    /// `..` taking away the component before it where there is one: `links/../ios/A` is `ios/A`,
    /// `../../ios/A` stays as it is.
    public static func joined(_ prefix: String, _ path: String) -> String {
        var parts: [Substring] = []
        for component in (prefix + path).split(separator: "/") where component != "." {
            if component == "..", let last = parts.last, last != ".." {
                parts.removeLast()
            } else {
                parts.append(component)
            }
        }
        return parts.joined(separator: "/")
    }
}
