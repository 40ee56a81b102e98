/// Checks what a host serves against what the configuration compiles to: hosting rules first
/// (status, redirects, Content-Type, size, JSON), then meaning. Two files that decide every URL
/// the same way for the same apps are equal, whatever their key order or whitespace.
public enum ServingCheck {
    /// The IDs of serving findings, in the order reports list them.
    public static let findingIDs: [DiagnosticID] = [
        .originUnreachable, .originRedirect, .originStatus, .originContentType, .originTooLarge, .originInvalid,
        .originDiffers, .cdnUnreachable, .cdnStatus, .cdnInvalid, .cdnDiffers,
    ]

    /// Where a finding is reported and what it concerns.
    public struct Scope: Sendable {
        public var environment: String
        /// The host the files are fetched from.
        public var host: String
        /// The host binding in the environment file.
        public var location: SourceLocation?

        public init(environment: String, host: String, location: SourceLocation?) {
            self.environment = environment
            self.host = host
            self.location = location
        }
    }

    /// Findings for one file fetched from the origin, against what `expected` compiles to.
    public static func origin(_ file: AssociationFile, _ served: ServedFile, expected: CompiledSite, scope: Scope)
        -> [Finding]
    {
        var findings: [Finding] = []
        func add(
            _ id: DiagnosticID, _ message: String, _ hint: String, severity: Severity? = nil, witnesses: [String] = []
        ) {
            findings.append(
                Finding(
                    rule: id.rawValue, severity: severity ?? id.severity, message: "\(served.url): \(message)",
                    location: scope.location,
                    hint: hint,
                    witnesses: witnesses, environment: scope.environment, host: scope.host,
                    platform: file.platform,
                    identity: [scope.environment, scope.host, file.rawValue]))
        }
        let response: ServedFile.Response
        switch served.outcome {
        case .failure(_, let message):
            add(.originUnreachable, message, "make the host reachable over HTTPS with a certificate devices trust")
            return findings
        case .response(let answer): response = answer
        }
        if (300..<400).contains(response.status) {
            // Apple: "with no redirects" (Supporting associated domains); Google: no 301/302 (configure-assetlinks).
            add(
                .originRedirect,
                "redirects (\(response.status)) to \(response.redirectLocation.map(PrintableText.excerpt) ?? "an unknown place"); devices do not follow redirects",
                "serve the file itself at this URL, with status 200")
            return findings
        }
        guard response.status == 200 else {
            add(
                .originStatus, "answers \(response.status), not 200",
                "deploy the file from dist/ to /.well-known/\(file.rawValue)")
            return findings
        }
        if response.mediaType != "application/json" {
            let served = response.contentType.map { "Content-Type \(PrintableText.excerpt($0))" } ?? "no Content-Type"
            if file == .assetLinks {
                // Google: the file "must be served with content-type application/json" (configure-assetlinks).
                add(
                    .originContentType, "\(served); Android requires application/json",
                    "serve it with Content-Type: application/json")
            } else {
                // Apple's current pages do not require it; iOS 9-era guidance did. A warning, as recommended.
                add(
                    .originContentType, "\(served); application/json is recommended",
                    "serve it with Content-Type: application/json", severity: .warning)
            }
        }
        if response.isTruncated {
            add(
                .originTooLarge, "is larger than \(Compiler.aasaSizeLimit) bytes",
                "shrink the file; Apple ignores association files over 128 KB")
            return findings
        }
        if isBuilt(response.body, file, expected) { return findings }
        switch snapshot(file, response.body, url: served.url, host: scope.host) {
        case .failure(let failure):
            add(.originInvalid, failure.message, "deploy the file linkwright build wrote")
        case .success(let actual):
            let comparison = compared(actual: actual, expected: expected, file: file, host: scope.host)
            let deploy = "deploy dist/\(scope.environment)/\(scope.host)/.well-known/\(file.rawValue)"
            if comparison.differs {
                add(
                    .originDiffers, "serves a file that differs from the build: " + comparison.description, deploy,
                    witnesses: comparison.witnesses)
            } else if !comparison.written.isEmpty {
                // Written otherwise (legacy paths, another order of equivalent rules), deciding
                // every URL alike for the same apps: nothing a device does changes.
                add(
                    .originDiffers,
                    "serves a file written otherwise than the build, which decides every URL alike for the same apps: "
                        + describe(comparison.written),
                    deploy + " when convenient; devices behave the same either way", severity: .note)
            }
        }
        return findings
    }

    /// Findings for Apple's CDN copy of the AASA: reachable, valid, and the same as the build.
    /// `originAgrees` says whether the origin serves the build, to tell a stale CDN from a wrong origin.
    public static func cdn(_ served: ServedFile, expected: CompiledSite, originAgrees: Bool, scope: Scope) -> [Finding]
    {
        var findings: [Finding] = []
        func add(_ id: DiagnosticID, _ message: String, _ hint: String, witnesses: [String] = []) {
            findings.append(
                Finding(
                    rule: id.rawValue, severity: id.severity, message: "Apple's CDN for \(scope.host): \(message)",
                    location: scope.location,
                    hint: hint, witnesses: witnesses, environment: scope.environment, host: scope.host, platform: .ios,
                    identity: [scope.environment, scope.host, "cdn"]))
        }
        let response: ServedFile.Response
        switch served.outcome {
        case .failure(_, let message):
            add(.cdnUnreachable, message, "retry later; the CDN is Apple's")
            return findings
        case .response(let answer): response = answer
        }
        let diagnostics = cdnHeaders(response)
        guard response.status == 200 else {
            add(
                .cdnStatus, "answers \(response.status)" + (diagnostics.isEmpty ? "" : " (\(diagnostics))"),
                "the CDN reports why it could not fetch the origin; fix the origin, the CDN refreshes within about a day"
            )
            return findings
        }
        if isBuilt(response.body, .aasa, expected) { return findings }
        switch snapshot(.aasa, response.body, url: served.url, host: scope.host) {
        case .failure(let failure):
            add(.cdnInvalid, failure.message, "the CDN serves what it last fetched from the origin")
        case .success(let actual):
            let comparison = compared(actual: actual, expected: expected, file: .aasa, host: scope.host)
            guard comparison.differs else { return findings }
            let why =
                originAgrees
                ? "still serves an older copy" : "serves a copy that differs from the build, as the origin does"
            add(
                .cdnDiffers,
                "\(why)" + (diagnostics.isEmpty ? "" : " (\(diagnostics))") + ": " + comparison.description,
                "Apple's CDN cannot be invalidated (TN3155); it refreshes within about a day",
                witnesses: comparison.witnesses)
        }
        return findings
    }

    /// `Apple-Failure-Reason`, `Apple-Failure-Details`, `Age` and `Cache-Control`, when present;
    /// each value as an excerpt, since whoever answers the request chooses it.
    public static func cdnHeaders(_ response: ServedFile.Response) -> String {
        ["Apple-Failure-Reason", "Apple-Failure-Details", "Age", "Cache-Control"].compactMap { name in
            response.header(name).map { "\(name): \(PrintableText.excerpt($0))" }
        }.joined(separator: ", ")
    }

    private static func snapshot(_ file: AssociationFile, _ body: [UInt8], url: String, host: String) -> Result<
        PolicySnapshot, FailureMessage
    > {
        guard case .success(let parsedHost) = Host.parse(host) else {
            return .failure(FailureMessage("\(host) is not a host"))
        }
        if file == .aasa {
            let result = AASAReader().read(body, file: url)
            guard let document = result.document else {
                return .failure(FailureMessage(firstError(result.diagnostics)))
            }
            return .success(.artifacts(aasa: document, assetLinks: nil, host: parsedHost))
        }
        let result = AssetLinksReader().read(body, file: url)
        guard let document = result.document else { return .failure(FailureMessage(firstError(result.diagnostics))) }
        return .success(.artifacts(aasa: nil, assetLinks: document, host: parsedHost))
    }

    struct FailureMessage: Error {
        var message: String
        init(_ message: String) { self.message = message }
    }

    private static func firstError(_ diagnostics: [Diagnostic]) -> String {
        guard let error = diagnostics.first(where: { $0.severity == .error }) else { return "is not readable" }
        let place = error.location.map { "line \($0.line), column \($0.column): " } ?? ""
        return "is not valid: \(place)\(error.message)"
    }

    /// "ios: now opens … (was web), e.g. https://…; ios: rule added for …", without the synthetic
    /// environment and host: a URL decided otherwise is named.
    static func describe(_ differences: [LinkChange]) -> String {
        differences.map { change in
            "\(change.platform?.rawValue ?? "both"): \(Changelog.description(change))"
                + (change.kind.isBehaviour ? change.witnesses.first.map { ", e.g. \($0)" } ?? "" : "")
        }.joined(separator: "; ")
    }

    /// The very bytes `build` writes for the site mean what the build means: a fleet serving them
    /// costs a comparison of bytes per host, not a parse and a behaviour proof.
    static func isBuilt(_ body: [UInt8], _ file: AssociationFile, _ site: CompiledSite) -> Bool {
        let built = file == .aasa ? site.aasa?.json.rendered() : site.assetLinks?.json.rendered()
        return built.map { body.elementsEqual($0.utf8) } ?? false
    }

    /// How a served file differs from the build, from the build's point of view: in who it
    /// vouches for (apps per service, signing keys, statements), in what it decides, in how it
    /// is written.
    struct Comparison {
        /// Apps, keys and statements added or removed.
        var parties: [LinkChange] = []
        /// URLs decided otherwise, each change with the URLs that show it.
        var behaviour: [LinkChange] = []
        /// Rule pairs the proof could not settle within its budget: they may decide otherwise.
        var unproven: [BehaviourDiff.Unproven] = []
        /// Rules added, removed, changed or moved: how the file is written.
        var written: [LinkChange] = []

        /// Whether a device may act otherwise with the served file than with the build.
        var differs: Bool { !parties.isEmpty || !behaviour.isEmpty || !unproven.isEmpty }

        /// What differs, what is decided otherwise first.
        var description: String {
            var parts = [ServingCheck.describe(behaviour + parties)].filter { !$0.isEmpty }
            if !unproven.isEmpty {
                parts.append("not proven to decide alike: " + unproven.prefix(3).map(\.pair).joined(separator: "; "))
            }
            return parts.joined(separator: "; ")
        }

        /// The URLs that differ, then the other changes' witnesses.
        var witnesses: [String] { (behaviour + parties).flatMap(\.witnesses) }
    }

    /// The served file compared with the build, each side a revision of a cache of its own
    /// (`caches`), released before it returns: a `monitor` comparing files every round keeps
    /// nothing of them. The sides share no cache: what one shares is found again by keys that
    /// hold a text's NFC and NFD spellings equal, and a served file may differ from the build
    /// in just that.
    static func compared(
        actual: PolicySnapshot, expected site: CompiledSite, file: AssociationFile, host: String,
        caches: (served: RevisionCache, built: RevisionCache) = (RevisionCache(), RevisionCache())
    ) -> Comparison {
        guard case .success(let parsedHost) = Host.parse(host) else { return Comparison() }
        let served = caches.served.revision(actual)
        let built = caches.built.revision(
            PolicySnapshot.artifacts(
                aasa: file == .aasa ? site.aasa : nil, assetLinks: file == .assetLinks ? site.assetLinks : nil,
                host: parsedHost))
        defer {
            served.release()
            built.release()
        }
        let structural = StructuralDiff.changes(base: served, head: built)
        let behaviour = BehaviourDiff.compare(base: served, head: built)
        return Comparison(
            parties: structural.filter(\.kind.isParty), behaviour: behaviour.changes, unproven: behaviour.unproven,
            written: structural.filter { !$0.kind.isParty })
    }
}
