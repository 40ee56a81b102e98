import Foundation
import LinkwrightCore
import LinkwrightIO

/// What a revision (or the working tree) holds of the link contract.
enum RevisionContent: Sendable {
    case snapshot(CachedRevision, notes: [String])
    /// Nothing to compare at this revision: the configuration or file does not exist there.
    case absent(String)
    /// Something is there but cannot be used; the reason and its diagnostics.
    case unusable(String, [Diagnostic])
}

/// Reads the link contract at any revision through libgit2, or from the working tree, caching
/// what it compiled by the git object IDs it read: revisions that did not touch the contract
/// cost one tree lookup.
final class RevisionReader {
    /// Where the contract lives.
    enum Source {
        /// The YAML configuration folder.
        case configuration(Workspace)
        /// Raw association files (`--artifact PATH`, repeatable: the first that exists at a
        /// revision is used, so renames are followed), served on `host`.
        case artifacts(paths: [String], host: LinkwrightCore.Host)
    }

    let source: Source
    private let terminal: Terminal
    private var openedRepository: GitRepository?
    private var cache: [String: RevisionContent] = [:]
    /// The cache key each commit read so far resolved to: equal keys mean equal contracts.
    private(set) var keys: [String: String] = [:]
    /// What the committed revisions read share (each file's reading while they are read, the
    /// association files their evaluators compile while a revision reads them, what the next
    /// revision's compilations are edits of) and what each keeps until released: consecutive
    /// revisions of a fleet's contract change a few domains, and the others' files are read and
    /// compiled once. Kept across `forgetContents`: the first revision of a window is an edit of
    /// the last ones of the window before, and what the cache keeps beyond the revisions it
    /// holds follows the domains, apps and rule texts, not the revisions. The
    /// working tree, the index and raw association files are each compiled in a cache of their
    /// own, sharing nothing: what a cache shares is found again by keys that hold a text's NFC
    /// and NFD spellings equal (`Domain`'s and the documents' `==`), so a head respelling a rule
    /// would be taken for its base.
    private var revisionCache = RevisionCache()

    init(source: Source, terminal: Terminal) {
        self.source = source
        self.terminal = terminal
    }

    static let artifacts = Option<[String]>(
        name: "artifact", valueName: "PATH", help: "Compare a committed association file instead of the configuration")
    static let host = Option<String?>(
        name: "host", valueName: "HOST", help: "With --artifact (required): the host serving it")
    /// The options that choose artifacts over the configuration.
    static let options: [any CommandOption] = [artifacts, host]

    static func source(_ arguments: ParsedArguments, workspace: Workspace) throws -> Source {
        let artifacts = arguments[Self.artifacts]
        guard !artifacts.isEmpty else {
            if arguments.contains(Self.host) { throw UsageError(message: "--host goes with --artifact PATH") }
            return .configuration(workspace)
        }
        // Without the real host every URL shown would be on a made-up one.
        guard let host = arguments[Self.host] else {
            throw UsageError(message: "--artifact needs --host HOST: the host serving the file, whose URLs are shown")
        }
        return .artifacts(paths: artifacts, host: try LinkwrightCore.Host.argument(host))
    }

    var repository: GitRepository {
        get throws {
            if let openedRepository { return openedRepository }
            let folder: String
            switch source {
            case .configuration(let workspace): folder = workspace.root.path
            case .artifacts: folder = terminal.currentDirectory.path
            }
            let opened = try Self.gitAction { try GitRepository(configurationFolder: folder) }
            openedRepository = opened
            return opened
        }
    }

    func resolve(_ revision: String) throws -> GitCommit {
        let repository = try repository
        return try Self.gitAction { try repository.resolve(revision) }
    }

    /// The commit `revision` names, or nil when it is a branch without commits (HEAD before a
    /// repository's first commit): there is nothing to compare with yet, everything is new.
    func resolveUnlessUnborn(_ revision: String) throws -> GitCommit? {
        try repository.isUnbornBranch(revision) ? nil : resolve(revision)
    }

    func mergeBase(_ a: GitCommit, _ b: GitCommit) throws -> GitCommit {
        let repository = try repository
        return try Self.gitAction { try repository.mergeBase(a, b) }
    }

    /// The contract as committed at `commit`.
    func content(at commit: GitCommit) throws -> RevisionContent { try contents(at: [commit])[0] }

    /// The contracts as committed at each of `commits`, in order. They are read one after
    /// another (libgit2's objects are not shared between threads), then the distinct ones not
    /// read before are compiled on every core rather than one after another.
    func contents(at commits: [GitCommit]) throws -> [RevisionContent] {
        let reads = try commits.map(read(at:))
        var uncompiled: [String] = []
        var compilers: [String: @Sendable () -> RevisionContent] = [:]
        var lastFiles: [SourceFile] = []
        for case .uncompiled(let key, let files, let compile) in reads {
            lastFiles = files
            guard compilers[key] == nil else { continue }
            uncompiled.append(key)
            compilers[key] = compile
        }
        let toCompile = compilers
        for (key, content) in zip(uncompiled, uncompiled.parallelMap { toCompile[$0]!() }) { cache[key] = content }
        // The next call reads edits of the last revision read here.
        revisionCache.forgetReadings(keeping: lastFiles)
        return reads.map { read in
            switch read {
            case .known(let content): content
            case .uncompiled(let key, _, _): cache[key]!
            }
        }
    }

    /// Forgets the contracts compiled so far except those `commits` read, so a walk over a long
    /// range holds the revisions it is comparing rather than every one it compared.
    func forgetContents(except commits: [GitCommit]) {
        let kept = Set(commits.compactMap { keys[$0.id] })
        cache = cache.filter { kept.contains($0.key) }
    }

    /// A revision as read: its contract known (cached, or absent), or files to compile under
    /// their cache key (the configuration's files; none for raw association files).
    private enum Read {
        case known(RevisionContent)
        case uncompiled(key: String, files: [SourceFile], compile: @Sendable () -> RevisionContent)
    }

    private func read(at commit: GitCommit) throws -> Read {
        let repository = try repository
        switch source {
        case .configuration:
            let tree = try Self.gitAction { try GitTreeSource(repository: repository, commit: commit) }
            guard let treeID = tree.treeID else { return .known(.absent("no configuration folder")) }
            keys[commit.id] = treeID
            if Caching.isEnabled, let cached = cache[treeID] { return .known(cached) }
            let files = try read(tree, at: commit.shortID)
            let revisionCache = Caching.isEnabled ? self.revisionCache : RevisionCache()
            return .uncompiled(key: treeID, files: files) { Self.compile(files, in: revisionCache) }
        case .artifacts(let paths, let host):
            var files: [(path: String, bytes: [UInt8])] = []
            var key = ""
            for (kind, group) in Self.byKind(paths) {
                for path in group {
                    let relative = relativeToWorkTree(path, repository)
                    if let file = try Self.gitAction({ try repository.file(at: relative, in: commit) }) {
                        files.append((path, file.bytes))
                        key += kind + file.blobID
                        break
                    }
                }
            }
            keys[commit.id] = key
            if Caching.isEnabled, let cached = cache[key] { return .known(cached) }
            let read = files
            return .uncompiled(key: key, files: []) { Self.artifactContent(read, host: host) }
        }
    }

    /// The contract as staged in the index: what the next commit records.
    func index() throws -> RevisionContent {
        let repository = try repository
        switch source {
        case .configuration:
            let staged = try Self.gitAction { try GitIndexSource(repository: repository) }
            guard staged.exists else { return .absent("no configuration is staged") }
            return Self.compile(try read(staged, at: "the index"), in: RevisionCache())
        case .artifacts(let paths, let host):
            var files: [(path: String, bytes: [UInt8])] = []
            for (_, group) in Self.byKind(paths) {
                for path in group {
                    let relative = relativeToWorkTree(path, repository)
                    let limit = InputFileKind.associationFile.maximumBytes
                    if let file = try Self.gitAction({ try repository.stagedFile(at: relative, limit: limit) }) {
                        files.append((path, file))
                        break
                    }
                }
            }
            return Self.artifactContent(files, host: host)
        }
    }

    /// The contract in the working tree, uncommitted changes included.
    func workingTree() throws -> RevisionContent {
        switch source {
        case .configuration(let workspace):
            let files = try read(DiskSourceTree(root: workspace.root), at: "the working tree")
            return files.isEmpty ? .absent("no configuration") : Self.compile(files, in: RevisionCache())
        case .artifacts(let paths, let host):
            var files: [(path: String, bytes: [UInt8])] = []
            for (_, group) in Self.byKind(paths) {
                for path in group {
                    if let bytes = try terminal.readInputIfPresent(path, .associationFile) {
                        files.append((path, bytes))
                        break
                    }
                }
            }
            return Self.artifactContent(files, host: host)
        }
    }

    private static func compile(_ files: [SourceFile], in cache: RevisionCache) -> RevisionContent {
        guard !files.isEmpty else { return .absent("no configuration") }
        let (revision, diagnostics) = cache.make(files)
        guard let revision else {
            let errors = diagnostics.filter { $0.severity == .error }
            return .unusable(
                "the configuration does not compile (\(counted(errors.count, "error")))", errors)
        }
        return .snapshot(revision, notes: [])
    }

    private func read(_ tree: some SourceTree, at place: String) throws -> [SourceFile] {
        do {
            return try tree.configurationFiles()
        } catch let error as GitError {
            // A git failure names what it was reading and carries its own hint, such as the
            // repair of a corrupt object.
            return try Self.gitAction { throw error }
        } catch {
            throw UnusableInput(message: "cannot read the configuration at \(place): \(error)", hint: nil)
        }
    }

    private func relativeToWorkTree(_ path: String, _ repository: GitRepository) -> String {
        let absolute = terminal.url(path).path
        let root = repository.workTreeRoot + "/"
        return absolute.hasPrefix(root) ? String(absolute.dropFirst(root.count)) : path
    }

    /// Artifact paths grouped by what they are (`assetlinks` in the name, else an AASA), in order.
    static func byKind(_ paths: [String]) -> [(String, [String])] {
        let assetLinks = paths.filter { $0.lowercased().contains("assetlinks") }
        let aasa = paths.filter { !$0.lowercased().contains("assetlinks") }
        return [("aasa", aasa), ("assetlinks", assetLinks)].filter { !$0.1.isEmpty }
    }

    /// Reads raw files into a revision of a cache of its own (see `revisionCache`). An invalid,
    /// empty or signed file is said so.
    static func artifactContent(_ files: [(path: String, bytes: [UInt8])], host: LinkwrightCore.Host) -> RevisionContent
    {
        guard !files.isEmpty else { return .absent("none of the artifact paths exists") }
        var aasa: AASADocument?
        var assetLinks: AssetLinksDocument?
        var notes: [String] = []
        for file in files {
            if file.bytes.allSatisfy({ $0 == 32 || $0 == 10 || $0 == 13 || $0 == 9 }) {
                return .unusable("\(file.path) is empty", [])
            }
            if file.path.lowercased().contains("assetlinks") {
                let result = AssetLinksReader().read(file.bytes, file: file.path)
                guard let document = result.document else {
                    return .unusable(
                        "\(file.path) is not a statement list", result.diagnostics.filter { $0.severity == .error })
                }
                assetLinks = document
            } else {
                let result = AASAReader().read(file.bytes, file: file.path)
                guard let document = result.document else {
                    let reason = result.wasSigned ? "is signed and its payload cannot be read" : "is not valid JSON"
                    return .unusable("\(file.path) \(reason)", result.diagnostics.filter { $0.severity == .error })
                }
                if result.wasSigned { notes.append("\(file.path) is PKCS#7 signed; its signature was not verified") }
                aasa = document
            }
        }
        return .snapshot(
            RevisionCache().revision(.artifacts(aasa: aasa, assetLinks: assetLinks, host: host)), notes: notes)
    }

    /// Runs a git operation, turning its errors into the message, hint and command to run.
    static func gitAction<T>(_ action: () throws -> T) throws -> T {
        do {
            return try action()
        } catch let error as GitError {
            let hint = [error.hint, error.command.map { "run: \($0)" }].compactMap { $0 }.joined(separator: "; ")
            throw UnusableInput(message: error.message, hint: hint.isEmpty ? nil : hint)
        }
    }
}
