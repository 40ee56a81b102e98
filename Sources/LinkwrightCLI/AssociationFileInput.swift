import Foundation
import LinkwrightCore

/// An association file named on the command line (`--aasa FILE` or `--assetlinks FILE`), read,
/// parsed and compiled for matching. Problems the platform would shrug off are printed as the
/// file's diagnostics; a file the platform could not read at all is an input error (exit 2).
enum AssociationFileInput {
    case apple(CompiledAASA)
    case android(CompiledAssetLinks, package: String)

    static let aasa = Option<String?>(
        name: "aasa", valueName: "FILE", help: "An apple-app-site-association file (ours or anyone's)")
    static let assetLinks = Option<String?>(
        name: "assetlinks", valueName: "FILE", help: "An assetlinks.json file (with --package)")
    static let package = Option<String?>(
        name: "package", valueName: "NAME", help: "The Android package to evaluate in --assetlinks")
    static let apps = Option<[String]>(
        name: "app", valueName: "APPID", help: "With --aasa: only this app ID (default: every app in the file)")
    static let androidRelease = Option<AndroidRelease>(
        name: "android-release", valueName: "RELEASE", choices: AndroidRelease.allCases, default: .latest,
        help: "With --assetlinks: decide dynamic rules as this Android release's parser reads them")
    static let options: [any CommandOption] = [aasa, assetLinks, package, apps]
    /// `--aasa FILE [--app APPID]... | --assetlinks FILE --package NAME`
    static let choice = Syntax.oneOf([
        .all([.option(aasa.spec), .usual(apps.spec)]), .all([.option(assetLinks.spec), .option(package.spec)]),
    ])

    /// Whether the arguments name a file; checks that they name exactly one, correctly.
    static func isRequested(_ arguments: ParsedArguments) throws -> Bool {
        let aasa = arguments[Self.aasa]
        let assetLinks = arguments[Self.assetLinks]
        if aasa != nil && assetLinks != nil { throw UsageError(message: "give --aasa or --assetlinks, not both") }
        if assetLinks != nil && arguments[Self.package] == nil {
            throw UsageError(message: "--assetlinks needs --package NAME")
        }
        if assetLinks == nil && arguments[Self.package] != nil {
            throw UsageError(message: "--package goes with --assetlinks FILE")
        }
        return aasa != nil || assetLinks != nil
    }

    static func load(_ arguments: ParsedArguments, terminal: Terminal) throws -> AssociationFileInput {
        let printer = DiagnosticPrinter(terminal: terminal, configPath: ".")
        if let path = arguments[Self.aasa] {
            let result = AASAReader().read(try terminal.readInput(path, .associationFile), file: path)
            printer.printText(result.diagnostics.sorted())
            guard let document = result.document else { throw Halt(status: .unusable) }
            let compiled = CompiledAASA(document)
            printer.printText(compiled.diagnostics.sorted())
            return .apple(compiled)
        }
        let path = arguments[Self.assetLinks]!
        let result = AssetLinksReader().read(try terminal.readInput(path, .associationFile), file: path)
        printer.printText(result.diagnostics.sorted())
        guard let document = result.document else { throw Halt(status: .unusable) }
        return .android(
            CompiledAssetLinks(document, release: arguments[Self.androidRelease]), package: arguments[Self.package]!)
    }

    /// The apps to evaluate: `--app` (iOS) or the package (Android); every app of an AASA file otherwise.
    func apps(_ arguments: ParsedArguments) -> [String] {
        switch self {
        case .apple(let compiled): arguments[Self.apps].isEmpty ? compiled.appIDs : arguments[Self.apps]
        case .android(_, let package): [package]
        }
    }

    func decision(for url: LinkURL, app: String, tracing: Bool = false) -> LinkDecision {
        switch self {
        case .apple(let compiled): compiled.decision(for: url, appID: app, tracing: tracing)
        case .android(let compiled, _): compiled.decision(for: url, package: app, tracing: tracing)
        }
    }

    /// Where in the file the deciding rule is: `details[1] rule 0`, `statements[0] rule 3`
    /// (zero-based; an Android statement without dynamic rules has no rule).
    func place(of decision: LinkDecision) -> String? {
        guard let entry = decision.entryIndex else { return nil }
        let array = if case .apple = self { "details" } else { "statements" }
        return "\(array)[\(entry)]" + (decision.ruleIndex.map { " rule \($0)" } ?? "")
    }
}
