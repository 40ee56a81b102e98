import Foundation
import LinkwrightCore

extension OutputFolder {
    /// Starts one build's pass over the folder (see `Update`). `environments` limits which earlier
    /// files count as stale (a build of `--env staging` leaves production's files alone).
    public func update(environments: Set<String>) throws -> Update {
        try Update(self, environments: environments)
    }

    /// One build's pass over the folder. Files are added as soon as they are rendered, a batch
    /// at a time (a domain's files in an environment, an environment's app files): compared with
    /// the folder and, when writing, staged, so that writing overlaps compiling and rendering
    /// the rest. `finish` then finds what is stale and, when writing, switches everything staged
    /// as one transaction; `discard` drops what was staged. Nothing in the folder changes before
    /// `finish` but leftovers of killed builds.
    ///
    /// Batches may come in any order but one: every file of an environment comes after the
    /// first file of the environments before it. The plan lists files by environment, in the
    /// order their first files came, then by path, whatever the batches were.
    public final class Update {
        private let folder: OutputFolder
        private let environments: Set<String>
        /// What the build does to the folder, so far; `created`, `changed` and `unchanged` are
        /// filled, in order, by `finish` from `compared`.
        private var plan = OutputPlan()
        /// Each file added, what it is to the folder, and its environment's place in the order.
        private var compared: [(environment: Int, path: String, change: Change)] = []
        /// Each environment's place in the order, by its first file added.
        private var environmentOrder: [String: Int] = [:]
        /// Every file added: the manifest lists them, and their buffers must outlive the digests
        /// keyed by their addresses.
        private var artifacts: [Artifact] = []
        /// Temporary files of killed writes found beside the artifacts, by folder: listed in
        /// folder order once every environment is added.
        private var temporaryFiles: [(folder: String, path: String)] = []
        /// Nil when checking.
        private var staging: Staging?

        fileprivate init(_ folder: OutputFolder, environments: Set<String>) throws {
            self.folder = folder
            self.environments = environments
            for (name, ours) in try OutputFolder.attempt({ try folder.transactionState() }) {
                if ours {
                    plan.leftovers.append(name)
                } else {
                    plan.foreign.append(OutputPlan.KeptFile(path: name, reason: OutputFolder.foreignReason))
                }
            }
            guard folder.forWriting, let handle = folder.handle else { return }
            if let untrusted = plan.foreign.first { throw folder.foreign(untrusted.path) }
            for leftover in plan.leftovers {
                let (parent, name) = try OutputFolder.split(leftover)
                try OutputFolder.attempt { try handle.folder(at: parent)?.removeTree(name) }
            }
            staging = try OutputFolder.attempt { try Staging(handle) }
        }

        /// Compares one environment's files with the folder and, when writing, stages those that
        /// are new or changed. A failure discards everything staged.
        public func add(_ batch: [Artifact]) throws {
            do {
                try compare(batch)
            } catch {
                discard()
                throw Self.changingNothing(error)
            }
        }

        private func compare(_ batch: [Artifact]) throws {
            artifacts += batch
            staging?.hashes.add(batch)
            guard let handle = folder.handle else {
                compared += batch.map { (environmentPlace($0.environment), $0.path, .created) }
                return
            }
            // Each folder is opened once, for its artifacts and for the temporary files a killed
            // earlier version left beside them, then released (thousands of hosts are thousands
            // of folders, more than a process may hold open).
            var byFolder: [String: [(name: String, artifact: Artifact)]] = [:]
            for artifact in batch {
                let (parent, name) = try OutputFolder.split(artifact.path)
                byFolder[parent, default: []].append((name, artifact))
            }
            // Compared as each is read (`FolderHandle.holds`), so no file is held whole.
            var unchanged: [String: Bool] = [:]
            for (parent, files) in byFolder.sorted(by: { $0.key < $1.key }) {
                guard let opened = try handle.folder(at: parent) else { continue }
                for (name, artifact) in files {
                    unchanged[artifact.path] = try opened.holds(name, bytes: artifact.bytes)
                }
                for entry in try opened.entries()
                where entry.name.hasPrefix(".") && entry.name.hasSuffix(OutputFolder.temporarySuffix)
                    && (entry.kind == .file || entry.kind == .symbolicLink)
                {
                    temporaryFiles.append((parent, parent.isEmpty ? entry.name : parent + "/" + entry.name))
                    if staging != nil { try opened.removeTree(entry.name) }
                }
            }
            for artifact in batch {
                let change: Change
                switch unchanged[artifact.path] {
                case nil:
                    change = .created
                    try staging?.stage(artifact, created: true)
                case true?:
                    change = .unchanged
                case false?:
                    change = .changed
                    try staging?.stage(artifact, created: false)
                }
                compared.append((environmentPlace(artifact.environment), artifact.path, change))
            }
        }

        private enum Change {
            case created, changed, unchanged
        }

        private func environmentPlace(_ name: String) -> Int {
            if let place = environmentOrder[name] { return place }
            environmentOrder[name] = environmentOrder.count
            return environmentOrder.count - 1
        }

        /// Lists what is stale and, when writing, switches the staged files, the removals and the
        /// new manifest as one transaction; returns what the build did (or would do).
        public func finish() throws -> OutputPlan {
            do {
                for (_, path, change) in compared.sorted(by: { ($0.environment, $0.path) < ($1.environment, $1.path) })
                {
                    switch change {
                    case .created: plan.created.append(path)
                    case .changed: plan.changed.append(path)
                    case .unchanged: plan.unchanged.append(path)
                    }
                }
                compared = []
                plan.leftovers += temporaryFiles.enumerated()
                    .sorted { ($0.element.folder, $0.offset) < ($1.element.folder, $1.offset) }.map(\.element.path)
                temporaryFiles = []
                let produced = Set(artifacts.map(\.path))
                let (entries, sealed) = try OutputFolder.attempt { try folder.manifest() }
                for entry in entries where !produced.contains(entry.path) && environments.contains(entry.environment) {
                    switch try folder.removability(of: entry, listedBySealedManifest: sealed) {
                    case .gone: break
                    case .removable: plan.stale.append(entry.path)
                    case .kept(let reason): plan.kept.append(OutputPlan.KeptFile(path: entry.path, reason: reason))
                    }
                }
                guard let staging else { return plan }
                let digest = staging.hashes.digests()
                let recordedHashes = Dictionary(
                    entries.map { ($0.path, $0.hash) }, uniquingKeysWith: { first, _ in first })
                let removals = plan.stale.compactMap { path in
                    recordedHashes[path].flatMap { $0 }.map { BuildJournal.Removal(path: path, hash: $0) }
                }
                // Another environment's lines are carried over; from a manifest no build here
                // wrote, without their hashes, so that sealing the new one cannot make them
                // removable.
                let manifest =
                    entries.filter { !environments.contains($0.environment) }
                    .map { sealed ? $0 : ManifestEntry(path: $0.path, hash: nil) }
                    + artifacts.map { ManifestEntry(path: $0.path, hash: digest($0.bytes)) }
                guard
                    let journal = try staging.journal(
                        removing: removals, manifest: OutputFolder.manifestText(manifest),
                        replacingSealedManifest: sealed, digest: digest)
                else {
                    removeStaging()
                    return plan
                }
                self.staging = nil
                try folder.complete(journal)
                return plan
            } catch {
                discard()
                throw Self.changingNothing(error)
            }
        }

        /// Removes what was staged, and the output folder itself when opening made it: the folder
        /// is as it was (but for leftovers of killed builds).
        public func discard() {
            guard staging != nil else { return }
            removeStaging()
            folder.removeMadeFolders()
        }

        private func removeStaging() {
            guard let staging else { return }
            self.staging = nil
            try? folder.handle?.removeTree(staging.name)
        }

        /// Failures of the file system before the journal is in place changed nothing.
        private static func changingNothing(_ error: any Error) -> any Error {
            guard let failure = error as? FolderHandle.Failure else { return error }
            return WriteError(path: failure.path, reason: failure.reason, changedNothing: true)
        }
    }
}

/// The staging folder of one `Update` and the journal that will switch it in.
private final class Staging {
    let root: FolderHandle
    let name = OutputFolder.stagingPrefix + String(UInt64.random(in: 0...UInt64.max), radix: 36)
    let folder: FolderHandle
    let hashes = ArtifactHashes()
    private var journal: BuildJournal
    private var absent: AbsentFolders
    private var stagedFolders: FolderCursor
    /// The staged folder standing for each folder the output does not have.
    private var trees: [String: String] = [:]
    /// The bytes of each move of `journal`, for its digest.
    private var movedBytes: [[UInt8]] = []

    init(_ root: FolderHandle) throws {
        self.root = root
        journal = BuildJournal(staging: name)
        guard let folder = try root.folder(name, create: true) else {
            throw FolderHandle.Failure(path: root.path + "/" + name, reason: "cannot create the staging folder")
        }
        self.folder = folder
        try folder.createFile(OutputFolder.stagingOwner, bytes: [], flush: false)
        try folder.seal(OutputFolder.stagingOwner)
        absent = AbsentFolders(root)
        stagedFolders = FolderCursor(folder)
    }

    /// Stages one file. A new file under a folder the output does not have yet is staged in that
    /// folder's shape, and the folder moves in with one rename: a fresh `dist/` is switched with
    /// a rename per environment, not one per file into folders made a second time.
    func stage(_ artifact: Artifact, created: Bool) throws {
        let (parent, fileName) = try OutputFolder.split(artifact.path)
        guard created, let (tree, inside) = try absent.outermost(along: parent) else {
            let staged = String(journal.moves.count)
            try folder.createFile(staged, bytes: artifact.bytes, flush: false)
            journal.moves.append(.init(staged: staged, path: artifact.path, hash: ""))
            movedBytes.append(artifact.bytes)
            return
        }
        let staged: String
        if let known = trees[tree] {
            staged = known
        } else {
            staged = "tree-\(journal.trees.count)"
            trees[tree] = staged
            journal.trees.append(.init(staged: staged, path: tree))
        }
        let within = inside.isEmpty ? staged : staged + "/" + inside
        guard let destination = try stagedFolders.open(within, create: true) else {
            throw FolderHandle.Failure(path: folder.path + "/" + within, reason: "cannot create the folder")
        }
        try destination.createFile(fileName, bytes: artifact.bytes, flush: false)
    }

    /// Stages `manifestBytes` and puts the journal of the staged files and `removals` in place,
    /// flushed; nil when the build changes nothing (no file, no removal, the same manifest over
    /// a sealed one).
    func journal(
        removing removals: [BuildJournal.Removal], manifest manifestBytes: [UInt8],
        replacingSealedManifest sealed: Bool,
        digest: ([UInt8]) -> String
    ) throws -> BuildJournal? {
        for (move, bytes) in zip(journal.moves.indices, movedBytes) {
            journal.moves[move].hash = digest(bytes)
        }
        journal.removals = removals
        let unchangedManifest = try sealed && root.holds(OutputFolder.manifestName, bytes: manifestBytes) == true
        if journal.moves.isEmpty && journal.removals.isEmpty && unchangedManifest { return nil }
        try folder.createFile("manifest", bytes: manifestBytes, flush: false)
        try folder.seal("manifest")
        journal.moves.append(
            .init(staged: "manifest", path: OutputFolder.manifestName, hash: SHA256.hex(manifestBytes)))
        // One flush for every staged file (an fsync each costs seconds for thousands of
        // hosts): the journal must never name a file whose bytes are not yet on disk.
        systemSync()
        // Written in the staging folder and renamed into place: a build killed between the
        // two leaves nothing beside the artifacts but the staging folder, which the next
        // build removes (a temporary journal beside them outlived such a build).
        try folder.createFile("journal", bytes: journal.encoded())
        try folder.seal("journal")
        try folder.rename("journal", to: OutputFolder.journalName, in: root)
        root.sync()
        return journal
    }
}

/// SHA-256 of artifacts' bytes, computed once per buffer on a queue of its own as each
/// environment's files are added, so that hashing overlaps writing: every host of a domain
/// shares one rendered buffer (`ArtifactRenderer`), so thousands of files cost a few hundred
/// digests. The `Update` holds the artifacts until it is done, so a buffer's address cannot be
/// reused for other bytes meanwhile.
private final class ArtifactHashes: @unchecked Sendable {
    private struct Buffer: Hashable, Sendable {
        let address: UInt
        let count: Int

        init(_ bytes: [UInt8]) {
            (address, count) = bytes.withUnsafeBufferPointer { (UInt(bitPattern: $0.baseAddress), $0.count) }
        }
    }

    private let queue = DispatchQueue(label: "linkwright.artifact-hashes")
    /// Read and written only on `queue`.
    private var known: [Buffer: String] = [:]

    /// Starts hashing the buffers of `artifacts` not hashed yet.
    func add(_ artifacts: [Artifact]) {
        var buffers: [Buffer: [UInt8]] = [:]
        for artifact in artifacts { buffers[Buffer(artifact.bytes)] = artifact.bytes }
        queue.async { [self, buffers] in
            for (buffer, bytes) in buffers where known[buffer] == nil { known[buffer] = SHA256.hex(bytes) }
        }
    }

    /// Waits for every digest started, and looks them up (hashing any other bytes itself).
    func digests() -> @Sendable ([UInt8]) -> String {
        let known = queue.sync { self.known }
        return { known[Buffer($0)] ?? SHA256.hex($0) }
    }
}

/// Which folders along artifact paths the output does not have, each looked up once: nothing
/// below an absent folder is looked up, so a fresh output costs a lookup per environment.
private struct AbsentFolders {
    let root: FolderHandle
    /// Whether anything (a folder, or a link or file in its place) is at each path looked up.
    private var present: [Substring: Bool] = [:]

    init(_ root: FolderHandle) { self.root = root }

    /// The outermost absent folder along `folder` and the rest of `folder` below it; nil when
    /// every folder along it is there.
    mutating func outermost(along folder: String) throws -> (tree: String, inside: String)? {
        var end = folder.startIndex
        while end < folder.endIndex {
            let start = end == folder.startIndex ? end : folder.index(after: end)
            end = folder[start...].firstIndex(of: "/") ?? folder.endIndex
            let path = folder[..<end]
            let isPresent: Bool
            if let known = present[path] {
                isPresent = known
            } else {
                let parent =
                    start == folder.startIndex
                    ? root : try root.folder(at: String(folder[..<folder.index(before: start)]))
                isPresent = try parent?.kind(of: String(folder[start..<end])) != nil
                present[path] = isPresent
            }
            if !isPresent {
                let inside = end == folder.endIndex ? "" : String(folder[folder.index(after: end)...])
                return (String(path), inside)
            }
        }
        return nil
    }
}
