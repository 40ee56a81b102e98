/// What `inspect` prints: per build, what it declares about links, without judging it.
public struct InspectReport: CommandOutput {
    public struct Build: Sendable {
        /// The build as the command line named it.
        public var file: String
        public var facts: AppBuildFacts

        public init(file: String, facts: AppBuildFacts) {
            self.file = file
            self.facts = facts
        }
    }

    public var builds: [Build]

    public init(builds: [Build]) { self.builds = builds }

    public func printed(as format: OutputFormat, style: TextStyle, version: String) -> PrintedReport? {
        switch format {
        case .text: PrintedReport(out: builds.map(text).joined(separator: "\n"))
        case .json: PrintedReport(out: JSON.object([("builds", .array(builds.map(json)))]).rendered())
        default: nil
        }
    }

    private func text(_ build: Build) -> String {
        var lines: [String] = []
        switch build.facts {
        case .android(let android):
            let kind = android.isBundle ? "Android App Bundle" : "Android app"
            lines.append("\(build.file): \(kind) \(android.manifest.package)")
            lines.append(
                android.isBundle
                    ? "  upload certificate (SHA-256; Play signs with its own):" : "  signing certificates (SHA-256):")
            if android.certificates.isEmpty { lines.append("    none: the build is not signed") }
            for certificate in android.certificates {
                lines.append(
                    "    \(certificate.fingerprint) (\(certificate.schemes.map(\.rawValue).joined(separator: ", ")))")
            }
            let groups: [(String, [AndroidManifestFacts.Filter])] = [
                ("verified web links (autoVerify)", android.manifest.filters.filter { $0.isWebLink && $0.autoVerify }),
                ("unverified web links", android.manifest.filters.filter { $0.isWebLink && !$0.autoVerify }),
                ("custom schemes", android.manifest.filters.filter { !$0.isWebLink && !$0.schemes.isEmpty }),
            ]
            for (title, filters) in groups {
                lines.append("  \(title):")
                if filters.isEmpty { lines.append("    none") }
                for filter in filters {
                    let targets = filter.hosts.isEmpty ? filter.schemes.map { "\($0):" } : filter.hosts
                    lines.append(
                        "    \(targets.joined(separator: ", ")) -> \(filter.activity) (\(android.manifestPath) line \(filter.line))"
                    )
                    if !filter.paths.isEmpty {
                        lines.append(
                            "      " + filter.paths.map { "\($0.attribute) \($0.value)" }.joined(separator: ", "))
                    }
                }
            }
        case .ios(let ios):
            lines.append(
                "\(build.file): iOS app \(ios.main.bundleID)" + (ios.main.teamID.map { " (team \($0))" } ?? ""))
            for bundle in ios.main.all { lines += Self.text(bundle) }
        }
        return lines.map(PrintableText.escaped).joined(separator: "\n") + "\n"
    }

    private static func text(_ bundle: IOSBuild.Bundle) -> [String] {
        var lines = ["  \(bundle.path) (\(bundle.kind.rawValue) \(bundle.bundleID)):"]
        if let signature = bundle.signature {
            lines.append(
                "    signed as \(signature.identifier ?? "?")" + (signature.teamID.map { ", team \($0)" } ?? "")
                    + " (\(signature.architectures.joined(separator: ", ")))")
            lines.append("    associated domains:" + (bundle.associatedDomains.isEmpty ? " none" : ""))
            lines += bundle.associatedDomains.map { "      \($0)" }
            if signature.entitlements == nil { lines.append("    no entitlements are signed") }
        } else {
            lines.append("    not signed")
        }
        lines.append(
            "    URL schemes: " + (bundle.urlSchemes.isEmpty ? "none" : bundle.urlSchemes.joined(separator: ", ")))
        if let profile = bundle.profile {
            lines.append(
                "    provisioning profile \(PrintableText.quoted(profile.name ?? "")): team \(profile.teamID ?? "?"), "
                    + "app ID \(profile.applicationIdentifier ?? "?"), expires \(profile.expiration ?? "?"), "
                    + (profile.allDevices ? "all devices" : "\(profile.deviceCount) devices"))
            let allowed = profile.entitlements?["com.apple.developer.associated-domains"]
            lines.append(
                "      associated domains allowed: "
                    + (allowed.map { $0.string ?? $0.strings.joined(separator: ", ") } ?? "none"))
        } else {
            lines.append("    no embedded.mobileprovision")
        }
        return lines
    }

    private func json(_ build: Build) -> JSON {
        switch build.facts {
        case .ios(let ios):
            .object([
                ("file", .string(build.file)), ("platform", .string(Platform.ios.rawValue)),
                ("bundles", .array(ios.main.all.map(Self.json))),
            ])
        case .android(let android):
            .object([
                ("file", .string(build.file)), ("platform", .string(Platform.android.rawValue)),
                ("package", .string(android.manifest.package)), ("bundle", .bool(android.isBundle)),
                (
                    "certificates",
                    .array(
                        android.certificates.map { certificate in
                            .object([
                                ("sha256", .string(certificate.fingerprint.value)),
                                ("schemes", .array(certificate.schemes.map { .string($0.rawValue) })),
                            ])
                        })
                ),
                (
                    "intent_filters",
                    .array(
                        android.manifest.filters.map { filter in
                            .object([
                                ("activity", .string(filter.activity)), ("line", .int(filter.line)),
                                ("key_path", .string(filter.keyPath)), ("auto_verify", .bool(filter.autoVerify)),
                                ("web_link", .bool(filter.isWebLink)),
                                ("actions", .array(filter.actions.map(JSON.string))),
                                ("categories", .array(filter.categories.map(JSON.string))),
                                ("schemes", .array(filter.schemes.map(JSON.string))),
                                ("hosts", .array(filter.hosts.map(JSON.string))),
                                (
                                    "paths",
                                    .array(
                                        filter.paths.map {
                                            .object([
                                                ("attribute", .string($0.attribute)), ("value", .string($0.value)),
                                            ])
                                        })
                                ),
                            ])
                        })
                ),
            ])
        }
    }
}

extension InspectReport {
    static func json(_ bundle: IOSBuild.Bundle) -> JSON {
        let signature = bundle.signature
        let profile = bundle.profile
        return .object([
            ("path", .string(bundle.path)), ("kind", .string(bundle.kind.rawValue)),
            ("bundle_id", .string(bundle.bundleID)), ("executable", .string(bundle.executable)),
            ("team_id", bundle.teamID.map(JSON.string) ?? .null),
            ("architectures", .array((signature?.architectures ?? []).map(JSON.string))),
            ("signing_identifier", signature?.identifier.map(JSON.string) ?? .null),
            ("associated_domains", .array(bundle.associatedDomains.map(JSON.string))),
            ("entitlements", signature?.entitlements?.json ?? .null),
            ("der_entitlements", .bool(signature?.hasDEREntitlements ?? false)),
            ("url_schemes", .array(bundle.urlSchemes.map(JSON.string))),
            (
                "profile",
                profile.map { profile in
                    .object([
                        ("name", profile.name.map(JSON.string) ?? .null),
                        ("team_id", profile.teamID.map(JSON.string) ?? .null),
                        ("application_identifier", profile.applicationIdentifier.map(JSON.string) ?? .null),
                        ("entitlements", profile.entitlements?.json ?? .null),
                        ("expiration", profile.expiration.map(JSON.string) ?? .null),
                        ("devices", .int(profile.deviceCount)), ("all_devices", .bool(profile.allDevices)),
                    ])
                } ?? .null
            ),
        ])
    }
}

/// A built app, whichever platform it is for.
public enum AppBuildFacts: Sendable {
    case android(AndroidBuild)
    case ios(IOSBuild)
}

extension PropertyList {
    /// As JSON: data as its size, reals and dates as text (entitlements hold neither).
    var json: JSON {
        switch self {
        case .string(let text), .date(let text): .string(text)
        case .integer(let number): .int(number)
        case .real(let number): .string(String(number))
        case .boolean(let flag): .bool(flag)
        case .data(let bytes): .string("<\(bytes.count) bytes>")
        case .array(let items): .array(items.map(\.json))
        case .dictionary(let entries): .object(entries.map { ($0.key, $0.value.json) })
        }
    }
}
