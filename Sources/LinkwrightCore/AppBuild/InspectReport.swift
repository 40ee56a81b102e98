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
            lines.append("\(build.file): Android app \(android.manifest.package)")
            lines.append("  signing certificates (SHA-256):")
            if android.certificates.isEmpty { lines.append("    none: the APK is not signed") }
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
                        "    \(targets.joined(separator: ", ")) -> \(filter.activity) (AndroidManifest.xml line \(filter.line))"
                    )
                    if !filter.paths.isEmpty {
                        lines.append(
                            "      " + filter.paths.map { "\($0.attribute) \($0.value)" }.joined(separator: ", "))
                    }
                }
            }
        }
        return lines.map(PrintableText.escaped).joined(separator: "\n") + "\n"
    }

    private func json(_ build: Build) -> JSON {
        switch build.facts {
        case .android(let android):
            .object([
                ("file", .string(build.file)), ("platform", .string(Platform.android.rawValue)),
                ("package", .string(android.manifest.package)),
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

/// A built app, whichever platform it is for.
public enum AppBuildFacts: Sendable {
    case android(AndroidBuild)
}
