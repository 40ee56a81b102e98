import Foundation
import LinkwrightCore
import LinkwrightIO

/// `linkwright init`: start a configuration that builds and tests green at once.
struct InitCommand: Command {
    static let environment = Option<String>(
        name: "env", valueName: "NAME", default: "production", help: "The environment to create")
    static let tier = Option<Tier>(
        name: "tier", valueName: "TIER", choices: Tier.allCases, default: .production, help: "Its tier")
    static let host = Option<String?>(
        name: "host", valueName: "HOST", help: "The host that serves the association files")
    static let teamID = Option<String?>(name: "team-id", valueName: "ID", help: "The iOS app's Apple team ID")
    static let bundleID = Option<String?>(name: "bundle-id", valueName: "ID", help: "The iOS app's bundle ID")
    static let package = Option<String?>(name: "package", valueName: "NAME", help: "The Android app's package")
    static let fingerprint = Option<String?>(
        name: "fingerprint", valueName: "SHA256",
        help: "The SHA-256 fingerprint of the Android app's signing certificate (Play App Signing's)")
    static let app = Option<String?>(
        name: "app", valueName: "NAME",
        help: "The app's logical name (default: the last word of its bundle ID or package)")
    static let paths = Option<[String]>(name: "path", valueName: "PATTERN", help: "A path pattern that opens the app")
    static let excluded = Option<[String]>(
        name: "exclude", valueName: "PATTERN", help: "A path pattern kept on the web, decided before the others")
    static let routes = Option<[String]>(
        name: "route", valueName: "NAME",
        help:
            "The route the app's router takes the --path before it to, or none to open the app at its start (give one per --path, or none at all)"
    )
    static let interactive = Option<Bool>(
        name: "interactive", help: "Ask for what the options leave out, even when standard input is not a terminal")

    static let spec = CommandSpec(
        name: "init",
        abstract: "Start a configuration: an environment, a domain and a policy file",
        discussion: """
            Writes environments/NAME.yaml (the app and the host), domains/DOMAIN.yaml (the rules: each
            --exclude, then each --path with the --route after it; DOMAIN is named after the host) and, when policies/ is empty,
            policies/merge.yaml, each starting with its $schema line, and ends the domain file with
            expectations that pin what the rules decide, so build and test pass at once, and generate
            writes the app's router at once too: a --path given no --route (or --route none) gets
            route: none with a reason, opening the app at its start until its destination is
            named. A path written in a router's syntax (/products/:id) is warned about: an
            association file matches ":id" literally. An app needs --team-id with --bundle-id
            (iOS), --package with --fingerprint (Android), or both. On a
            terminal, init asks for what the options leave out; otherwise a missing one is a usage
            error, unless --interactive reads the answers from standard input, one per line. Existing
            files are never overwritten: nothing is written then.
            """,
        options: [
            environment, tier, host, teamID, bundleID, package, fingerprint, app, paths, excluded, routes,
            interactive, Workspace.config,
        ])

    let arguments: ParsedArguments

    init(_ arguments: ParsedArguments) throws {
        self.arguments = arguments
        if let problem = Identifiers.nameProblem(arguments[Self.environment], what: "environment") {
            throw UsageError(message: problem.message)
        }
    }

    func run(_ terminal: Terminal) throws -> ExitStatus {
        let prompter =
            arguments[Self.interactive] || isatty(STDIN_FILENO) == 1 ? Prompter(terminal: terminal) : nil
        let scaffold = try self.scaffold(prompter)
        for path in scaffold.paths + scaffold.excludedPaths {
            if let warning = Identifiers.routerSyntaxProblem(inPath: path) {
                terminal.err("warning: \(PrintableText.escaped(warning))")
            }
        }
        let workspace = Workspace(arguments, terminal: terminal)
        let existing = (try? workspace.files()) ?? []
        // A configuration that has policies keeps them; a new one gets the scaffold's.
        let hasPolicies = existing.contains { $0.path.hasPrefix("policies/") }
        let written = scaffold.files.filter { !(hasPolicies && $0.path.hasPrefix("policies/")) }
        let present = written.map(\.path).filter {
            FileManager.default.fileExists(atPath: workspace.root.appendingPathComponent($0).path)
        }
        guard present.isEmpty else {
            throw UnusableInput(
                message: "\(present.map { workspace.printer.pathPrefix + $0 }.joined(separator: ", ")) already "
                    + (present.count == 1 ? "exists" : "exist") + "; init overwrites nothing, so nothing was written",
                hint: "choose another --env, or edit the existing files")
        }
        let files = written.map { SourceFile(path: $0.path, bytes: Array($0.text.utf8)) }
        let (snapshot, diagnostics) = PolicySnapshot.make(existing + files)
        guard snapshot != nil else {
            workspace.printer.printText(diagnostics.filter { $0.severity == .error })
            throw UnusableInput(
                message:
                    "the new files do not fit the configuration in \(workspace.configPath), so nothing was written",
                hint: "fix the errors above, or run init in an empty folder")
        }
        let domainFile = "domains/\(scaffold.domain).yaml"
        let seeded = ExpectationSeeder.seed(
            existing + files, domainFiles: [domainFile], environment: scaffold.environment)
        let output = seeded.files.filter { file in files.contains { $0.path == file.path } }
        try workspace.writeNewFiles(output)
        terminal.out(
            "created " + output.map { workspace.printer.pathPrefix + $0.path }.joined(separator: ", ")
                + " with \(counted(seeded.expectations, "expectation"))")
        terminal.out(
            "next: linkwright build writes dist/, linkwright test checks the expectations; "
                + "linkwright schema --write docs/schema gives editors the schemas the files name")
        return .success
    }

    /// The options, with what they leave out asked for when there is someone (or a script) to answer.
    private func scaffold(_ prompter: Prompter?) throws -> Scaffold {
        var host = arguments[Self.host]
        var teamID = arguments[Self.teamID]
        var bundleID = arguments[Self.bundleID]
        var package = arguments[Self.package]
        var fingerprint = arguments[Self.fingerprint]
        var paths = arguments[Self.paths]
        var excluded = arguments[Self.excluded]
        var routes = arguments[Self.routes]
        if let prompter {
            if host == nil {
                host = try prompter.ask("Host that serves the association files (e.g. shop.example)") {
                    Self.hostProblem($0)
                }
            }
            if bundleID == nil && teamID == nil && package == nil && fingerprint == nil {
                bundleID = try prompter.askIfAny("iOS bundle ID (empty: no iOS app)") {
                    Identifiers.bundleIDProblem($0)?.message
                }
                package = try prompter.askIfAny("Android package (empty: no Android app)") {
                    Identifiers.packageNameProblem($0)?.message
                }
            }
            if bundleID != nil && teamID == nil {
                teamID = try prompter.ask("Apple team ID of \(bundleID!)") {
                    Identifiers.normalisedTeamID($0) == nil ? Identifiers.teamIDProblem($0)?.message : nil
                }
            }
            if package != nil && fingerprint == nil {
                fingerprint = try prompter.ask("SHA-256 fingerprint of \(package!)'s signing certificate") {
                    Self.fingerprintProblem($0)
                }
            }
            if paths.isEmpty {
                paths = try prompter.askForPatterns(
                    "Path patterns that open the app, separated by spaces (e.g. /products/*)", optional: false)
                if excluded.isEmpty {
                    excluded = try prompter.askForPatterns(
                        "Path patterns kept on the web, decided first (e.g. /products/admin/*; empty: none)",
                        optional: true)
                }
                // Asked with the paths they belong to: options that give the paths give their routes.
                if routes.isEmpty { routes = try prompter.askForRoutes(of: paths) }
            }
        }
        return try validated(
            host: host, teamID: teamID, bundleID: bundleID, package: package, fingerprint: fingerprint, paths: paths,
            excluded: excluded, routes: routes)
    }

    /// Every value held to the configuration's rules, as a usage error naming the option.
    private func validated(
        host: String?, teamID: String?, bundleID: String?, package: String?, fingerprint: String?, paths: [String],
        excluded: [String], routes: [String]
    ) throws -> Scaffold {
        // Normalised as fingerprints are: Apple issues team IDs in uppercase.
        let teamID = teamID.map { Identifiers.normalisedTeamID($0) ?? $0 }
        var missing: [String] = []
        if host == nil { missing.append("--host") }
        if bundleID == nil && package == nil { missing.append("--bundle-id or --package") }
        if bundleID != nil && teamID == nil { missing.append("--team-id") }
        if teamID != nil && bundleID == nil { missing.append("--bundle-id") }
        if package != nil && fingerprint == nil { missing.append("--fingerprint") }
        if fingerprint != nil && package == nil { missing.append("--package") }
        if paths.isEmpty { missing.append("--path") }
        guard missing.isEmpty else {
            throw UsageError(
                message: "init needs \(missing.joined(separator: ", ")) (standard input is not a terminal; "
                    + "--interactive reads answers from it)")
        }
        let checks: [(String, String?, (String) -> String?)] = [
            ("--host", host, Self.hostProblem),
            ("--team-id", teamID, { Identifiers.teamIDProblem($0)?.message }),
            ("--bundle-id", bundleID, { Identifiers.bundleIDProblem($0)?.message }),
            ("--package", package, { Identifiers.packageNameProblem($0)?.message }),
            ("--fingerprint", fingerprint, Self.fingerprintProblem),
        ]
        for (option, value, problem) in checks {
            if let value, let message = problem(value) { throw UsageError(message: "\(option) \(value): \(message)") }
        }
        for path in paths + excluded {
            if let problem = Prompter.patternProblem(path) { throw UsageError(message: "--path \(path): \(problem)") }
        }
        if !routes.isEmpty && routes.count != paths.count {
            throw UsageError(
                message: "\(counted(routes.count, "--route")) for \(counted(paths.count, "--path")): "
                    + "give each --path its --route, or none")
        }
        for route in routes where route != "none" {
            if let problem = Identifiers.routeNameProblem(route) {
                throw UsageError(message: "--route \(route): \(problem.message); \(problem.hint)")
            }
        }
        let name =
            arguments[Self.app] ?? Self.appName(from: bundleID ?? package!)
        if let problem = Identifiers.nameProblem(name, what: "app") {
            throw UsageError(message: "--app \(name): \(problem.message)")
        }
        let normalised = fingerprint.flatMap { try? Fingerprint.parse($0).get().value }
        return Scaffold(
            environment: arguments[Self.environment], tier: arguments[Self.tier], app: name, teamID: teamID,
            bundleID: bundleID, package: package, fingerprint: normalised, host: try .argument(host!), paths: paths,
            excludedPaths: excluded, routes: routes)
    }

    /// `com.example.shop` → `shop`; a last word that is no valid name gives `app`.
    static func appName(from identifier: String) -> String {
        let last = identifier.split(separator: ".").last.map { $0.lowercased() } ?? ""
        let name = String(last.map { $0.isLetter || $0.isNumber ? $0 : "-" })
        return Identifiers.nameProblem(name, what: "app") == nil ? name : "app"
    }

    static func hostProblem(_ text: String) -> String? {
        if case .failure(let problem) = LinkwrightCore.Host.parse(text.lowercased()) { return problem.message }
        return nil
    }

    static func fingerprintProblem(_ text: String) -> String? {
        if case .failure(let problem) = Fingerprint.parse(text) { return problem.message }
        return nil
    }
}

/// Questions on standard error, answers from standard input, one line each.
struct Prompter {
    let terminal: Terminal

    /// The answer, asked again while `problem` finds one.
    func ask(_ question: String, problem: (String) -> String?) throws -> String {
        try answer(question, optional: false, problem: problem)!
    }

    /// Path patterns separated by spaces, asked again while one is not a pattern or is written in
    /// a router's syntax; none for an empty answer when `optional`.
    func askForPatterns(_ question: String, optional: Bool) throws -> [String] {
        let problem = { (answer: String) -> String? in
            answer.split(separator: " ").lazy.compactMap { pattern in
                Self.patternProblem(String(pattern)).map { "\(pattern): \($0)" }
                    ?? Identifiers.routerSyntaxProblem(inPath: String(pattern))
            }.first
        }
        let answer = optional ? try askIfAny(question, problem: problem) : try ask(question, problem: problem)
        return answer?.split(separator: " ").map(String.init) ?? []
    }

    /// A route name per path, or none for an empty answer.
    func askForRoutes(of paths: [String]) throws -> [String] {
        let question =
            "Routes the app's router takes \(paths.joined(separator: " ")) to, one per pattern "
            + "(e.g. product, or none; empty: none for every pattern, opening the app at its start)"
        let answer = try askIfAny(question) { answer in
            let names = answer.split(separator: " ").map(String.init)
            if names.count != paths.count { return "give \(counted(paths.count, "route name")), one per pattern" }
            return names.lazy.filter { $0 != "none" }.compactMap {
                Identifiers.routeNameProblem($0).map { "\($0.message): \($0.hint)" }
            }.first
        }
        return answer?.split(separator: " ").map(String.init) ?? []
    }

    /// Why `pattern` cannot be a rule's path.
    static func patternProblem(_ pattern: String) -> String? {
        pattern.hasPrefix("/") || pattern == "*" ? nil : "a path pattern starts with / (or is *)"
    }

    /// The same, or `nil` for an empty answer.
    func askIfAny(_ question: String, problem: (String) -> String?) throws -> String? {
        try answer(question, optional: true, problem: problem)
    }

    private func answer(_ question: String, optional: Bool, problem: (String) -> String?) throws -> String? {
        while true {
            terminal.prompt("\(question): ")
            guard let line = readLine(strippingNewline: true) else {
                throw UsageError(message: "standard input ended before \"\(question)\" was answered")
            }
            let answer = line.trimmingCharacters(in: .whitespaces)
            if answer.isEmpty {
                if optional { return nil }
                terminal.err("  an answer is needed")
                continue
            }
            guard let message = problem(answer) else { return answer }
            terminal.err("  \(PrintableText.escaped(message))")
        }
    }
}
