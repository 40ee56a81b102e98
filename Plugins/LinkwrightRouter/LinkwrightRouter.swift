import Foundation
import PackagePlugin

/// Regenerates one app's Swift router on every build, from the Linkwright configuration it finds,
/// so the router and the association files built from the same YAML cannot drift apart.
///
/// The configuration is the nearest folder holding `environments/`, from the target's folder (an
/// Xcode project's folder) up, unless the settings file `.linkwright.json` beside the target's
/// sources names it. The settings also choose the app, environments and access level
/// (docs/build-integration.md). Every YAML file of the configuration is an input, so editing, adding or
/// removing one regenerates the router; the output always has the name `LinkwrightRouter.swift`.
@main
struct LinkwrightRouter: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        // The router is Swift: only a Swift target can compile it.
        guard let target = target as? SwiftSourceModuleTarget else { return [] }
        let tool = try context.tool(named: "linkwright")
        return [
            try RouterGeneration(folder: target.directoryURL).command(
                linkwright: tool.url, workDirectory: context.pluginWorkDirectoryURL)
        ]
    }
}

#if canImport(XcodeProjectPlugin)
    import XcodeProjectPlugin

    // Xcode projects: the same, starting from the project's folder. Only built by Xcode on macOS.
    extension LinkwrightRouter: XcodeBuildToolPlugin {
        func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
            let tool = try context.tool(named: "linkwright")
            return [
                try RouterGeneration(folder: context.xcodeProject.directoryURL).command(
                    linkwright: tool.url, workDirectory: context.pluginWorkDirectoryURL)
            ]
        }
    }
#endif

/// The `linkwright generate swift --file` command of one target, and the files it reads.
struct RouterGeneration {
    static let settingsName = ".linkwright.json"
    static let outputName = "LinkwrightRouter.swift"
    static let configurationFolders = ["environments", "domains", "policies"]

    /// Where the target's sources (or the Xcode project) are.
    let folder: URL

    func command(linkwright: URL, workDirectory: URL) throws -> Command {
        let settingsFile = folder.appendingPathComponent(Self.settingsName)
        let settings = try Settings(readingIfPresent: settingsFile)
        let configuration =
            try settings.configuration.map { path in
                (path.hasPrefix("/") ? URL(fileURLWithPath: path) : folder.appendingPathComponent(path))
                    .standardizedFileURL
            } ?? Self.discoveredConfiguration(from: folder)
        let output = workDirectory.appendingPathComponent(Self.outputName)
        var arguments = ["generate", "swift", "--config", configuration.path, "--file", output.path]
        if let app = settings.app { arguments += ["--app", app] }
        for environment in settings.environments { arguments += ["--env", environment] }
        if let access = settings.access { arguments += ["--access", access] }
        var inputs = try Self.configurationFiles(in: configuration)
        if settings.isPresent { inputs.append(settingsFile) }
        return .buildCommand(
            displayName: "Generating \(Self.outputName) from \(configuration.path)", executable: linkwright,
            arguments: arguments, inputFiles: inputs, outputFiles: [output])
    }

    /// The nearest folder holding `environments/`, from `start` up, as the CLI finds one.
    static func discoveredConfiguration(from start: URL) throws -> URL {
        var candidate = start.standardizedFileURL
        while true {
            if isFolder(candidate.appendingPathComponent("environments")) { return candidate }
            let parent = candidate.deletingLastPathComponent()
            guard parent.path != candidate.path else {
                throw PluginFailure(
                    "no folder holding environments/ from \(start.path) up: write \(settingsName) beside the "
                        + "target's sources with {\"configuration\": \"<path from there>\"}")
            }
            candidate = parent
        }
    }

    /// The files `linkwright` reads: `*.yaml` and `*.yml` directly in each configuration folder.
    static func configurationFiles(in root: URL) throws -> [URL] {
        try configurationFolders.map { root.appendingPathComponent($0) }.filter(isFolder).flatMap { folder in
            try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().filter { name in
                !name.hasPrefix(".") && (name.hasSuffix(".yaml") || name.hasSuffix(".yml"))
            }.map { folder.appendingPathComponent($0) }
        }
    }

    static func isFolder(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}

/// `.linkwright.json`: `{"configuration": "../links", "app": "museo", "environments":
/// ["production"], "access": "public"}`, every key optional (`configuration` from the file's
/// folder, or absolute); an unknown key is an error, so a misspelt one is not silently ignored.
struct Settings {
    var isPresent = false
    var configuration: String?
    var app: String?
    var environments: [String] = []
    var access: String?

    init(readingIfPresent file: URL) throws {
        guard FileManager.default.fileExists(atPath: file.path) else { return }
        isPresent = true
        let json = try? JSONSerialization.jsonObject(with: Data(contentsOf: file))
        guard let object = json as? [String: Any] else {
            throw PluginFailure("\(file.path): write a JSON object, such as {\"app\": \"museo\"}")
        }
        for (key, value) in object {
            switch (key, value) {
            case ("configuration", let text as String): configuration = text
            case ("app", let text as String): app = text
            case ("access", let text as String): access = text
            case ("environments", let names as [String]): environments = names
            case ("configuration", _), ("app", _), ("access", _), ("environments", _):
                throw PluginFailure(
                    "\(file.path): \"\(key)\" takes " + (key == "environments" ? "a list of names" : "a string"))
            default:
                throw PluginFailure(
                    "\(file.path): unknown key \"\(key)\"; the keys are configuration, app, environments and access")
            }
        }
    }
}

struct PluginFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
