/// What an iOS build carries that decides its links, for the app and each App Clip
/// (`AppClips/*.app`) and app extension (`PlugIns/*.appex`) inside it: the bundle ID and URL
/// schemes from Info.plist, the entitlements its executable is signed with, and the provisioning
/// profile embedded next to it.
public struct IOSBuild: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case app
        case appClip = "app clip"
        case appExtension = "app extension"
    }

    public struct Bundle: Sendable, Equatable {
        /// The bundle's folder inside the build: `Payload/Museo.app`.
        public var path: String
        public var kind: Kind
        public var bundleID: String
        public var executable: String
        /// `CFBundleURLTypes` → `CFBundleURLSchemes`, in file order.
        public var urlSchemes: [String]
        public var signature: MachOSignature?
        public var profile: ProvisioningProfile?
        public var nested: [Bundle]

        /// `com.apple.developer.associated-domains`, as signed.
        public var associatedDomains: [String] {
            signature?.entitlements?["com.apple.developer.associated-domains"]?.strings ?? []
        }

        /// The team: the signature's, else the entitlements' application identifier prefix.
        public var teamID: String? {
            if let team = signature?.teamID { return team }
            let identifier = signature?.entitlements?["application-identifier"]?.string
            return identifier?.split(separator: ".", maxSplits: 1).first.map(String.init)
        }

        /// The bundle and everything nested in it, depth first.
        public var all: [Bundle] { [self] + nested.flatMap(\.all) }
    }

    public var main: Bundle

    /// The largest executable read whole; the signature sits at its end.
    static let maximumExecutableSize = ZipDirectory.maximumEntrySize
    static let maximumPlistSize = 4 << 20
    static let maximumNesting = 3

    /// Reads the `.app` folder at `path` in `files`.
    public static func read(app path: String, in files: some BundleFiles) throws(BuildDefect) -> IOSBuild {
        IOSBuild(main: try bundle(at: path, kind: .app, in: files, depth: 0))
    }

    /// The one `.app` in `folder` (`Payload` of an .ipa, `Products/Applications` of an .xcarchive).
    public static func onlyApp(in folder: String, of files: some BundleFiles) throws(BuildDefect) -> String {
        let apps = try files.children(of: folder).filter { $0.hasSuffix(".app") }
        guard apps.count == 1 else {
            throw BuildDefect("\(folder)/ holds \(apps.count) .app folders, not one")
        }
        return folder + "/" + apps[0]
    }

    private static func bundle(at path: String, kind: Kind, in files: some BundleFiles, depth: Int) throws(BuildDefect)
        -> Bundle
    {
        guard let infoBytes = try files.read(path + "/Info.plist", maximumSize: maximumPlistSize) else {
            throw BuildDefect("no Info.plist", in: path)
        }
        let info: PropertyList
        do throws(BuildDefect) {
            info = try PropertyList.parse(infoBytes)
        } catch {
            throw error.placed(in: path + "/Info.plist")
        }
        guard let bundleID = info["CFBundleIdentifier"]?.string, let executable = info["CFBundleExecutable"]?.string,
            !executable.contains("/"), executable != ".."
        else {
            throw BuildDefect("CFBundleIdentifier or CFBundleExecutable is missing", in: path + "/Info.plist")
        }
        let urlSchemes = (info["CFBundleURLTypes"]?.array ?? []).flatMap { $0["CFBundleURLSchemes"]?.strings ?? [] }
        var signature: MachOSignature?
        if let binary = try files.read(path + "/" + executable, maximumSize: maximumExecutableSize) {
            do throws(BuildDefect) {
                signature = try MachOSignature.read(binary)
            } catch {
                throw error.placed(in: path + "/" + executable)
            }
        } else {
            throw BuildDefect("the executable \(executable) named by Info.plist is missing", in: path)
        }
        var profile: ProvisioningProfile?
        let profilePath = path + "/embedded.mobileprovision"
        if let bytes = try files.read(profilePath, maximumSize: maximumPlistSize) {
            do throws(BuildDefect) {
                profile = try ProvisioningProfile(bytes)
            } catch {
                throw error.placed(in: profilePath)
            }
        }
        var nested: [Bundle] = []
        if depth < maximumNesting {
            for (folder, suffix, nestedKind) in [
                ("AppClips", ".app", Kind.appClip), ("PlugIns", ".appex", .appExtension),
            ] {
                for name in try files.children(of: path + "/" + folder) where name.hasSuffix(suffix) {
                    nested.append(
                        try bundle(at: "\(path)/\(folder)/\(name)", kind: nestedKind, in: files, depth: depth + 1))
                }
            }
        }
        return Bundle(
            path: path, kind: kind, bundleID: bundleID, executable: executable, urlSchemes: urlSchemes,
            signature: signature, profile: profile, nested: nested)
    }
}

/// The files of a build, wherever they are: a folder on disk or an .ipa's entries.
public protocol BundleFiles {
    /// The names directly inside `folder` (relative to the build), sorted; empty when it is absent.
    func children(of folder: String) throws(BuildDefect) -> [String]
    /// The file's bytes, `nil` when it is absent; a file larger than `maximumSize` is a defect.
    func read(_ path: String, maximumSize: Int) throws(BuildDefect) -> [UInt8]?
}

/// The entries of a ZIP archive (an .ipa) as bundle files.
public struct ZipBundleFiles<Bytes: BuildBytes, Inflater: Inflating>: BundleFiles {
    let archive: ZipDirectory
    let bytes: Bytes
    let inflater: Inflater

    public init(_ bytes: Bytes, inflater: Inflater) throws(BuildDefect) {
        archive = try ZipDirectory(bytes)
        self.bytes = bytes
        self.inflater = inflater
    }

    public func children(of folder: String) throws(BuildDefect) -> [String] {
        let prefix = folder + "/"
        var names: Set<String> = []
        for entry in archive.entries where entry.name.hasPrefix(prefix) {
            let rest = entry.name.dropFirst(prefix.count)
            if let name = rest.split(separator: "/").first { names.insert(String(name)) }
        }
        return names.sorted()
    }

    public func read(_ path: String, maximumSize: Int) throws(BuildDefect) -> [UInt8]? {
        guard let entry = archive.entry(named: path) else { return nil }
        return try archive.contents(of: entry, in: bytes, inflater: inflater, maximumSize: maximumSize)
    }
}

/// `embedded.mobileprovision`: a CMS SignedData whose content is a property list
/// (Apple's TN3125, "Inside Code Signing: Provisioning Profiles").
public struct ProvisioningProfile: Sendable, Equatable {
    public var name: String?
    public var teamID: String?
    /// `TEAMID.bundle` or a wildcard `TEAMID.*`.
    public var applicationIdentifier: String?
    /// What the profile allows the app to be signed with.
    public var entitlements: PropertyList?
    public var expiration: String?
    public var deviceCount: Int
    public var allDevices: Bool

    public init(_ bytes: [UInt8]) throws(BuildDefect) {
        let content: [UInt8]
        switch SignedDataEnvelope.content(of: bytes) {
        case .success(let bytes): content = bytes
        case .failure(let error): throw BuildDefect("not a CMS SignedData profile: \(error.reason)")
        }
        let plist = try PropertyList.parse(content)
        name = plist["Name"]?.string
        teamID = plist["TeamIdentifier"]?.strings.first
        entitlements = plist["Entitlements"]
        applicationIdentifier = entitlements?["application-identifier"]?.string
        if case .date(let date) = plist["ExpirationDate"] { expiration = date }
        deviceCount = plist["ProvisionedDevices"]?.array?.count ?? 0
        allDevices = plist["ProvisionsAllDevices"] == .boolean(true)
    }
}
