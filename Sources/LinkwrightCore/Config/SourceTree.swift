/// A folder of configuration files: the working tree, a git revision, or memory (tests). The
/// loader sees only this interface, so the same compile runs on every kind of source.
public protocol SourceTree {
    /// Names of the regular files directly inside `folder` (a path relative to the configuration
    /// root), sorted; empty when the folder does not exist.
    func fileNames(in folder: String) throws -> [String]
    /// The bytes of the file at `path`, relative to the configuration root.
    func contents(of path: String) throws -> [UInt8]
}

/// One configuration file, read into memory.
public struct SourceFile: Sendable, Equatable {
    public var path: String
    public var bytes: [UInt8]

    public init(path: String, bytes: [UInt8]) {
        self.path = path
        self.bytes = bytes
    }
}

/// Files held in memory, for tests and for trees assembled by other tools.
public struct InMemorySourceTree: SourceTree, Sendable {
    public var files: [String: [UInt8]]

    public init(_ files: [String: String]) {
        self.files = files.mapValues { Array($0.utf8) }
    }

    public func fileNames(in folder: String) throws -> [String] {
        files.keys.compactMap { path in
            guard path.hasPrefix(folder + "/") else { return nil }
            let name = path.dropFirst(folder.count + 1)
            return name.contains("/") ? nil : String(name)
        }.sorted()
    }

    public func contents(of path: String) throws -> [UInt8] {
        guard let bytes = files[path] else { throw SourceTreeError.missing(path) }
        return bytes
    }
}

public enum SourceTreeError: Error, CustomStringConvertible {
    case missing(String)

    public var description: String {
        switch self {
        case .missing(let path): "\(path): no such file"
        }
    }
}

extension SourceTree {
    /// The YAML files of the three configuration folders, in a stable order.
    public func configurationFiles() throws -> [SourceFile] {
        var files: [SourceFile] = []
        for (_, folder, _) in ConfigSchema.files {
            for name in try fileNames(in: folder) where ConfigLoader.isConfigurationFileName(name) {
                let path = folder + "/" + name
                files.append(SourceFile(path: path, bytes: try contents(of: path)))
            }
        }
        return files
    }
}
