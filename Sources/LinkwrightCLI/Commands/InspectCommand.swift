import LinkwrightCore
import LinkwrightIO

/// `linkwright inspect BUILD...`: what a built app declares about links.
struct InspectCommand: Command {
    static let format = Option.format([OutputFormat.text, .json])

    static let spec = CommandSpec(
        name: "inspect",
        abstract: "Show what a built app declares about links: identity, signing keys, verified and custom links",
        discussion: """
            Reads a build without the platform's tools. An Android .apk: the package and every intent
            filter of AndroidManifest.xml (binary XML) with android:autoVerify, its schemes, hosts and
            paths, and the SHA-256 fingerprint of each signing certificate with the signature schemes
            (v1 JAR, v2, v3) that carry it, as assetlinks.json lists them. An .aab: the same from its
            protobuf manifest (base/manifest/), and its upload certificate (JAR signature). An iOS .ipa, .app folder or
            .xcarchive: for the app and each App Clip (AppClips/) and extension (PlugIns/), the bundle
            ID and URL schemes of Info.plist (XML or binary), the signing identifier, team and
            entitlements of the executable's code signature (thin or fat Mach-O), and the embedded
            provisioning profile's team, app ID, allowed entitlements, expiry and devices. Signatures
            are not verified (the device does that). Nothing is extracted or written; every size is
            bounded, and a damaged or hostile build (a zip bomb, traversal names, overlapping entries,
            sizes beyond the file, truncated load commands, fat headers pointing outside) is refused
            with exit 2. `verify --app` checks the same facts against the configuration.
            """,
        options: [format], arguments: [build], groups: [.repeated(.argument(build))])

    static let build = ArgumentSpec(
        name: "BUILD", help: "An Android .apk or .aab, or an iOS .ipa, .app folder or .xcarchive", occurrence: .repeated
    )

    let arguments: ParsedArguments

    init(_ arguments: ParsedArguments) throws {
        guard !arguments.positionals.isEmpty else { throw UsageError(message: "inspect needs a BUILD") }
        self.arguments = arguments
    }

    func run(_ terminal: Terminal) throws -> ExitStatus {
        let builds = try arguments.positionals.map { path in
            InspectReport.Build(file: path, facts: try terminal.readBuild(path))
        }
        try terminal.print(InspectReport(builds: builds), as: arguments[Self.format])
        return .success
    }
}

extension Terminal {
    /// The build at `path` (relative to the current folder); a build that cannot be read is an input error.
    func readBuild(_ path: String) throws -> AppBuildFacts {
        do {
            return try AppBuildReader.read(url(path).path, name: path)
        } catch {
            throw UnusableInput(message: error.message, hint: error.hint)
        }
    }
}
