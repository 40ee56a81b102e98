import LinkwrightCore

/// `linkwright test`: every `opens_app` / `opens_web` expectation, on every host of every
/// environment that serves its domain, on iOS and Android.
struct TestCommand: Command {
    static let format = Option.format(OutputFormat.findings)

    static let spec = CommandSpec(
        name: "test",
        abstract: "Check the URL expectations of every domain on every host and platform",
        discussion: """
            A path expectation is checked on every host serving its domain (a wildcard host on a
            representative subdomain), an https:// one on its own host. iOS opens an app when its
            entitlements claim the host and the association file iOS fetches for that claim matches;
            Android when an intent filter accepts the URL and assetlinks.json vouches for the app
            (with its dynamic rules: Android 15 and later). A custom scheme's expectation is checked
            in its environment: the one app declaring the scheme opens, at the destination the
            scheme's routes give. Exit 1 when any expectation fails.
            Each failure is printed once per expectation, platform and outcome, with the number of
            hosts and the first few of each environment; JSON lists every host checked, JUnit
            has one case per expectation and platform.
            """,
        options: [Workspace.config, Workspace.environments, format])

    let arguments: ParsedArguments

    init(_ arguments: ParsedArguments) throws { self.arguments = arguments }

    func run(_ terminal: Terminal) throws -> ExitStatus {
        let workspace = Workspace(arguments, terminal: terminal)
        let format = arguments[Self.format]
        let (loaded, loadedCompiled, diagnostics) = try workspace.loadAndCompile(arguments[Workspace.environments])
        // Taken out of the optionals, which would otherwise hold the configuration to the end of
        // this scope and free it here, after the thread freeing the rest let go of it.
        guard let configuration = consume loaded, let compiled = consume loadedCompiled else {
            try workspace.printUnusable(diagnostics, as: format, title: "linkwright test")
            return .unusable
        }
        // JSON lists every host checked, JUnit every expectation; the rest report failures only.
        let detail: ExpectationRunner.Detail =
            switch format {
            case .json: .everyPlace
            case .junit: .everyCheck
            default: .failures
            }
        let report = ExpectationReport(
            configuration, compiled, keeping: detail, pathPrefix: workspace.pathPrefix(for: format))
        try terminal.print(report, as: format)
        let status = ExitStatus(report)
        // The process ends here: what it read and decided is freed while it does.
        releaseInBackground((consume configuration, consume compiled, consume report))
        return status
    }
}
