/// A folder of configuration files: the working tree, a git revision, or memory (tests). The
/// loader sees only this interface, so the same compile runs on every kind of source.
///
/// Configuration is read only from regular files inside the configuration folder. Every kind of
/// tree lists what else it holds (symbolic links, submodules, FIFOs, devices) as refused entries,
/// so the working tree and a commit of the same files give the same findings, and nothing a
/// repository commits can make linkwright read, and quote, a file outside it.
public protocol SourceTree {
    /// The entries directly inside `folder` (a path relative to the configuration root; `""` is
    /// the root), sorted by name; empty when the folder does not exist.
    func entries(in folder: String) throws -> [SourceEntry]
    /// The bytes of the regular file at `path`, relative to the configuration root; throws
    /// `SourceTreeError.tooLarge` for a file over the tree's read limit without reading it whole.
    func contents(of path: String) throws -> [UInt8]
}

/// A name in a configuration folder and what it is.
public struct SourceEntry: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case file, folder
        /// Anything that is not read: the description says what it is ("a symbolic link").
        case refused(String)
    }

    public var name: String
    public var kind: Kind

    public init(name: String, kind: Kind) {
        self.name = name
        self.kind = kind
    }
}

/// One configuration file, read into memory.
public struct SourceFile: Sendable, Hashable {
    public var path: String
    public var bytes: [UInt8]
    /// Set when the entry was not read: the loader reports why instead of loading it.
    public var refusal: Refusal?

    public enum Refusal: Sendable, Hashable {
        /// Not a regular file; the description says what it is ("a symbolic link").
        case notRegularFile(String)
        /// Larger than the tree reads (`limit` bytes), found out without reading it whole.
        case tooLarge(limit: Int)
        /// A configuration folder holding more than `limit` entries: none of them is read.
        case tooManyEntries(count: Int, limit: Int)
        /// A name that is not read but looks meant to be (`merge.YAML`, `merge.yaml `, a
        /// subfolder); the description completes "… is not read: it …".
        case misnamed(String)
    }

    public init(path: String, bytes: [UInt8], refusal: Refusal? = nil) {
        self.path = path
        self.bytes = bytes
        self.refusal = refusal
    }
}

/// Files held in memory, for tests and for trees assembled by other tools.
public struct InMemorySourceTree: SourceTree, Sendable {
    public var files: [String: [UInt8]]

    public init(_ files: [String: String]) {
        self.files = files.mapValues { Array($0.utf8) }
    }

    public func entries(in folder: String) throws -> [SourceEntry] {
        let prefix = folder.isEmpty ? "" : folder + "/"
        var kinds: [String: SourceEntry.Kind] = [:]
        for path in files.keys where path.hasPrefix(prefix) {
            let rest = path.dropFirst(prefix.count)
            let name = String(rest.prefix { $0 != "/" })
            kinds[name] = name.count == rest.count ? .file : .folder
        }
        return kinds.map { SourceEntry(name: $0.key, kind: $0.value) }.sorted { $0.name < $1.name }
    }

    public func contents(of path: String) throws -> [UInt8] {
        guard let bytes = files[path] else { throw SourceTreeError.missing(path) }
        return bytes
    }
}

public enum SourceTreeError: Error, CustomStringConvertible {
    case missing(String)
    case tooLarge(String, limit: Int)

    public var description: String {
        switch self {
        case .missing(let path): "\(path): no such file"
        case .tooLarge(let path, let limit): "\(path): over the limit of \(limit) bytes"
        }
    }
}

/// How many entries one configuration folder may hold: past it the folder is refused, so a tree
/// of millions of names costs one listing, never a read of each.
public let maximumEntriesPerFolder = 100_000

extension SourceTree {
    /// The YAML files of the three configuration folders, in a stable order.
    /// A configuration folder that is a link or holds more than `maximumEntriesPerFolder`
    /// entries, a configuration file that is not a regular file, and a name that looks meant
    /// to be read but is not, come back refused (no bytes) for the loader to report: nothing
    /// in a configuration folder is skipped silently but hidden files.
    public func configurationFiles() throws -> [SourceFile] {
        var files: [SourceFile] = []
        let top = Dictionary(try entries(in: "").map { ($0.name, $0.kind) }, uniquingKeysWith: { first, _ in first })
        for (_, folder, _) in ConfigSchema.files {
            switch top[folder] {
            case .folder?: break
            case .refused(let what)?:
                files.append(SourceFile(path: folder, bytes: [], refusal: .notRegularFile(what)))
                continue
            case .file?, nil: continue
            }
            let entries = try entries(in: folder)
            guard entries.count <= maximumEntriesPerFolder else {
                files.append(
                    SourceFile(
                        path: folder, bytes: [],
                        refusal: .tooManyEntries(count: entries.count, limit: maximumEntriesPerFolder)))
                continue
            }
            for entry in entries {
                let path = folder + "/" + entry.name
                guard ConfigLoader.isConfigurationFileName(entry.name) else {
                    if let why = ConfigLoader.nearMiss(entry.name, kind: entry.kind) {
                        files.append(SourceFile(path: path, bytes: [], refusal: .misnamed(why)))
                    }
                    continue
                }
                switch entry.kind {
                case .file:
                    do {
                        files.append(SourceFile(path: path, bytes: try contents(of: path)))
                    } catch SourceTreeError.tooLarge(_, let limit) {
                        files.append(SourceFile(path: path, bytes: [], refusal: .tooLarge(limit: limit)))
                    }
                case .refused(let what):
                    files.append(SourceFile(path: path, bytes: [], refusal: .notRegularFile(what)))
                case .folder: continue
                }
            }
        }
        return files
    }
}
