/// `diagnose URL`: why a link does not open the app, walked layer by layer in the order that
/// finds the cause fastest (the binary, the origin, the content, Apple's CDN, the device, the
/// app's router), stopping at the first broken layer with its fix. Each layer is judged here
/// from what the edge fetched or read; the device is never checkable from here.
public struct LinkDiagnosis: Sendable {
    public enum LayerName: String, Sendable, CaseIterable {
        case binary
        case origin
        case content
        case cdn = "CDN"
        case device
        case router = "app router"
    }

    public enum Status: String, Sendable {
        case ok
        case broken
        /// Nothing here to check it with (no build given, a platform without a CDN, the device).
        case notChecked = "not checked"
        /// An earlier layer is broken: this one was not looked at.
        case notReached = "not reached"
    }

    public struct Layer: Sendable {
        public var name: LayerName
        public var status: Status
        /// One line: what was found.
        public var summary: String
        public var fix: String?
        public var findings: [Finding]

        public init(
            _ name: LayerName, _ status: Status, _ summary: String, fix: String? = nil, findings: [Finding] = []
        ) {
            self.name = name
            self.status = status
            self.summary = summary
            self.fix = fix
            self.findings = findings
        }

        /// Broken when any finding is an error: its message, and the first error's hint as the fix.
        static func judged(_ name: LayerName, _ findings: [Finding], ok: String) -> Layer {
            let errors = findings.filter { $0.severity == .error }
            guard let first = errors.first else { return Layer(name, .ok, ok, findings: findings) }
            return Layer(
                name, .broken, errors.map(\.message).joined(separator: "; "), fix: first.hint, findings: findings)
        }
    }

    public var url: String
    public var environment: String
    public var platform: Platform
    /// Every layer in order; those after the first broken one are `notReached`.
    public private(set) var layers: [Layer]

    /// `layers` as they were checked, in order, up to and including the first broken one.
    public init(url: String, environment: String, platform: Platform, checked: [Layer]) {
        self.url = url
        self.environment = environment
        self.platform = platform
        var layers: [Layer] = []
        for name in LayerName.allCases {
            if let layer = checked.first(where: { $0.name == name }), !layers.contains(where: { $0.status == .broken })
            {
                layers.append(layer)
            } else if layers.contains(where: { $0.status == .broken }) {
                layers.append(Layer(name, .notReached, "an earlier layer is broken"))
            } else if name == .device {
                layers.append(Self.device(platform))
            }
        }
        self.layers = layers
    }

    public var broken: Layer? { layers.first { $0.status == .broken } }

    /// What no tool can see from here: the device's own state.
    static func device(_ platform: Platform) -> Layer {
        Layer(
            .device, .notChecked,
            platform == .ios
                ? "not checkable from here: on the device, `swcutil dl -d HOST` (macOS) or Settings > Developer > "
                    + "Universal Links diagnostics; a link typed into Safari's address bar, or opened after the user "
                    + "chose \"Open in Safari\", stays on the web"
                : "not checkable from here: on the device, `adb shell pm get-app-links PACKAGE` shows each host's "
                    + "verification state; `adb shell pm verify-app-links --re-verify PACKAGE` asks again")
    }

    // MARK: Layers judged from what the edge gathered

    /// The built app's findings for this URL's host (and for the build as a whole).
    public static func binary(_ findings: [Finding], host: String) -> Layer {
        let relevant = findings.filter { finding in
            let id = DiagnosticID(rawValue: finding.rule)
            guard id != .appSchemeMissing, id != .appSchemeExtra else { return false }
            guard let claimed = finding.host else { return true }
            return claimed == host || HostPattern.appleEntitlement(claimed, matches: host)
        }
        return .judged(.binary, relevant, ok: "the build claims the host and is signed as the contract says")
    }

    /// The transport half of the origin's findings: reachable, 200, no redirect, the media type, the size.
    public static func origin(_ findings: [Finding], url: String) -> Layer {
        .judged(
            .origin, findings.filter { !contentIDs.contains(DiagnosticID(rawValue: $0.rule)) },
            ok: "\(url) answers 200 with application/json, no redirect, within 128 KB")
    }

    static let contentIDs: Set<DiagnosticID?> = [.originInvalid, .originDiffers]

    /// The served file's meaning against the build, then the configuration's decision for the URL.
    public static func content(
        served findings: [Finding], explanations: [Explanation], routes: [SourceLocation: Route], url: LinkURL
    ) -> (content: Layer, router: Layer) {
        let differs = findings.filter { contentIDs.contains(DiagnosticID(rawValue: $0.rule)) }
        let served = Layer.judged(.content, differs, ok: "")
        guard served.status == .ok else {
            return (served, Layer(.router, .notReached, "an earlier layer is broken"))
        }
        guard !explanations.isEmpty else {
            return (
                Layer(
                    .content, .broken, "no app of the environment claims \(url.host ?? "the host") on this platform",
                    fix: "bind the host to a domain whose rules name the app"),
                Layer(.router, .notReached, "an earlier layer is broken")
            )
        }
        guard let opening = explanations.first(where: \.opens) else {
            let first = explanations[0]
            let rule = first.decidedBy.map { " (deciding rule: \($0))" } ?? ""
            return (
                Layer(
                    .content, .broken, "\(first.identity) \(first.verdictText)\(rule)",
                    fix: first.decidedBy == nil
                        ? "add a rule that matches the URL to the app's domain"
                        : "change the deciding rule, or an earlier one, so that the URL opens the app"),
                Layer(.router, .notReached, "an earlier layer is broken")
            )
        }
        let content = Layer(
            .content, .ok,
            "\(opening.identity) opens the app" + (opening.decidedBy.map { " (deciding rule: \($0))" } ?? ""))
        guard let origin = opening.decision.origin, let route = routes[origin] else {
            return (
                content,
                Layer(
                    .router, .notChecked,
                    "the deciding rule names no route: the generated router gives no destination to check")
            )
        }
        switch RouteResolver.resolve(route, url: url) {
        case .success(let value):
            return (content, Layer(.router, .ok, "the generated router gives \(value)"))
        case .failure(let problem):
            return (
                content,
                Layer(
                    .router, .broken, "the generated router gives no destination: \(problem.message)",
                    fix: "make the route's parameters read what this URL carries")
            )
        }
    }

    /// Apple's CDN copy (iOS only).
    public static func cdn(_ findings: [Finding]?) -> Layer {
        guard let findings else {
            return Layer(.cdn, .notChecked, "Android fetches the file from the origin itself; there is no CDN copy")
        }
        return .judged(.cdn, findings, ok: "Apple's CDN serves the same file")
    }
}

/// `diagnose`'s output: one walk per platform.
public struct DiagnosisReport: CommandOutput {
    public var diagnoses: [LinkDiagnosis]

    public init(diagnoses: [LinkDiagnosis]) { self.diagnoses = diagnoses }

    public var isBroken: Bool { diagnoses.contains { $0.broken != nil } }

    public func printed(as format: OutputFormat, style: TextStyle, version: String) -> PrintedReport? {
        switch format {
        case .text: PrintedReport(out: diagnoses.map(text).joined(separator: "\n"))
        case .json:
            PrintedReport(
                out: JSON.object([("broken", .bool(isBroken)), ("diagnoses", .array(diagnoses.map(json)))]).rendered())
        default: nil
        }
    }

    private func text(_ diagnosis: LinkDiagnosis) -> String {
        var lines = ["\(diagnosis.url) on \(diagnosis.platform.rawValue), environment \(diagnosis.environment):"]
        for (index, layer) in diagnosis.layers.enumerated() {
            lines.append(
                "  \(index + 1). \(layer.name.rawValue): \(layer.status.rawValue)"
                    + (layer.summary.isEmpty ? "" : " — \(layer.summary)"))
            if let fix = layer.fix, layer.status == .broken { lines.append("     fix: \(fix)") }
        }
        lines.append(
            diagnosis.broken.map { "first broken layer: \($0.name.rawValue)" }
                ?? "no broken layer found from here; check the device")
        return lines.map(PrintableText.escaped).joined(separator: "\n") + "\n"
    }

    private func json(_ diagnosis: LinkDiagnosis) -> JSON {
        .object([
            ("url", .string(diagnosis.url)), ("platform", .string(diagnosis.platform.rawValue)),
            ("environment", .string(diagnosis.environment)),
            ("broken_layer", diagnosis.broken.map { .string($0.name.rawValue) } ?? .null),
            (
                "layers",
                .array(
                    diagnosis.layers.map { layer in
                        .object([
                            ("name", .string(layer.name.rawValue)), ("status", .string(layer.status.rawValue)),
                            ("summary", .string(layer.summary)), ("fix", layer.fix.map(JSON.string) ?? .null),
                            ("findings", .array(layer.findings.map { .string("\($0.rule): \($0.message)") })),
                        ])
                    })
            ),
        ])
    }
}
