import Foundation
import LinkwrightCore

/// The output folder of `build`. It remembers what it wrote in a manifest, so a later build can
/// remove files for hosts that no longer exist without ever touching files it did not create.
public struct OutputFolder {
    public static let manifestName = ".linkwright-manifest"

    public let root: URL

    public init(root: URL) { self.root = root }

    /// How the folder differs from a set of artifacts.
    public struct Plan: Equatable, Sendable {
        public var created: [String] = []
        public var changed: [String] = []
        public var unchanged: [String] = []
        /// Files written by an earlier build for environments in scope that this build no longer has.
        public var stale: [String] = []

        public var isUpToDate: Bool { created.isEmpty && changed.isEmpty && stale.isEmpty }
    }

    public enum WriteError: Error, CustomStringConvertible {
        case cannotWrite(path: String, reason: String)
        case unsafePath(String)

        public var description: String {
            switch self {
            case .cannotWrite(let path, let reason): "cannot write \(path): \(reason)"
            case .unsafePath(let path): "refusing to write outside the output folder: \(path)"
            }
        }
    }

    /// Compares `artifacts` with the folder. `environments` limits which earlier files count as
    /// stale (a build of `--env staging` leaves production's files alone).
    public func plan(_ artifacts: [Artifact], environments: Set<String>) throws -> Plan {
        var plan = Plan()
        for artifact in artifacts {
            let url = try location(of: artifact.path)
            if let existing = FileManager.default.contents(atPath: url.path) {
                if Array(existing) == artifact.bytes {
                    plan.unchanged.append(artifact.path)
                } else {
                    plan.changed.append(artifact.path)
                }
            } else {
                plan.created.append(artifact.path)
            }
        }
        let produced = Set(artifacts.map(\.path))
        plan.stale = manifest().filter { path in
            !produced.contains(path) && environments.contains(String(path.prefix { $0 != "/" }))
                && FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path)
        }
        return plan
    }

    /// Writes the plan: new and changed files all or nothing (`AtomicFiles`), then removes the
    /// stale ones and records the manifest.
    public func apply(_ plan: Plan, artifacts: [Artifact], environments: Set<String>) throws {
        let byPath = Dictionary(uniqueKeysWithValues: artifacts.map { ($0.path, $0) })
        do {
            try AtomicFiles.write(try (plan.created + plan.changed).map { (try location(of: $0), byPath[$0]!.bytes) })
        } catch let error as AtomicFiles.WriteError {
            throw WriteError.cannotWrite(path: error.path, reason: error.reason)
        }
        for path in plan.stale {
            let url = try location(of: path)
            try? FileManager.default.removeItem(at: url)
            removeEmptyFolders(from: url.deletingLastPathComponent())
        }
        let kept = manifest().filter { !environments.contains(String($0.prefix { $0 != "/" })) }
        try writeManifest(Set(kept + artifacts.map(\.path)).sorted())
    }

    /// Paths the last build wrote.
    public func manifest() -> [String] {
        guard let data = FileManager.default.contents(atPath: root.appendingPathComponent(Self.manifestName).path)
        else {
            return []
        }
        return String(decoding: data, as: UTF8.self).split(separator: "\n")
            .filter { !$0.hasPrefix("#") && !$0.isEmpty }.map(String.init)
    }

    private func writeManifest(_ paths: [String]) throws {
        let text =
            "# Files written by `linkwright build`; it removes the ones it no longer produces.\n"
            + paths.map { $0 + "\n" }.joined()
        let url = root.appendingPathComponent(Self.manifestName)
        do {
            try Data(text.utf8).write(to: url, options: .atomic)
        } catch {
            throw WriteError.cannotWrite(path: url.path, reason: AtomicFiles.reason(error))
        }
    }

    /// Artifact paths are built from validated names; this is the second lock on the door.
    private func location(of path: String) throws -> URL {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard !path.hasPrefix("/"), !parts.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }),
            !path.contains("\0")
        else { throw WriteError.unsafePath(path) }
        return root.appendingPathComponent(path)
    }

    private func removeEmptyFolders(from folder: URL) {
        var folder = folder.standardizedFileURL
        let top = root.standardizedFileURL.path
        while folder.path.hasPrefix(top + "/"),
            (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.isEmpty == true
        {
            try? FileManager.default.removeItem(at: folder)
            folder = folder.deletingLastPathComponent()
        }
    }
}
