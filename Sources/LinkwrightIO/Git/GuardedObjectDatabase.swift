import CGit2
import Foundation

/// The object database linkwright gives libgit2 in place of its default one: the same packs and
/// alternates, but loose objects are read by `LooseObject`, never by libgit2's own inflate loop
/// (see `LooseObject` for the libgit2 1.5.1 bugs this avoids).
///
/// Guarding the database rather than each lookup covers every object libgit2 reads for us,
/// including those no call names: the commits `HEAD~3`, a merge base or a history walk pass
/// through, the subtrees of a path lookup, the tree `git status` compares with. And since
/// libgit2 never inflates a loose object itself, each one is inflated once, by the check.
///
/// Packed objects stay with libgit2's pack backend: its inflate loop stops as soon as a round
/// makes no progress, and truncated or damaged packs end in an error, not a spin. It trusts an
/// index's tables, though, so every index is checked first (`PackIndex`).
enum GuardedObjectDatabase {
    /// Replaces the object database of `repository` (before anything was read from it). The
    /// returned log receives every loose object the guard refused.
    static func install(on repository: OpaquePointer) throws -> CorruptObjectLog {
        var path = git_buf()
        defer { git_buf_dispose(&path) }
        try LibGit2.check(
            git_repository_item_path(&path, repository, GIT_REPOSITORY_ITEM_OBJECTS), "locating the object database")
        let objects = String(cString: path.ptr)
        var database: OpaquePointer?
        try LibGit2.check(git_odb_new(&database), "creating the object database")
        defer { git_odb_free(database) }
        let log = CorruptObjectLog()
        for (index, folder) in ([objects] + alternates(of: objects)).enumerated() {
            try addBackends(reading: folder, to: database, asAlternate: index > 0, log: log)
        }
        try LibGit2.check(git_repository_set_odb(repository, database), "opening the object database")
        return log
    }

    /// libgit2's default priorities: the pack backend is asked first, most objects live in packs.
    private static let packPriority: Int32 = 2
    private static let loosePriority: Int32 = 1

    private static func addBackends(
        reading folder: String, to database: OpaquePointer?, asAlternate: Bool, log: CorruptObjectLog
    ) throws {
        let add = asAlternate ? git_odb_add_alternate : git_odb_add_backend
        do {
            try PackIndex.checkPacks(in: folder)
        } catch {
            throw GitError.corruptPack(path: error.path, defect: error.reason)
        }
        var pack: Backend?
        try LibGit2.check(git_odb_backend_pack(&pack, folder), "opening the packs in \(folder)")
        let packCode = add(database, pack, packPriority)
        if packCode < 0 { pack?.pointee.free(pack) }
        try LibGit2.check(packCode, "opening the packs in \(folder)")

        var loose: Backend?
        try LibGit2.check(git_odb_backend_loose(&loose, folder, -1, 0, 0, 0), "opening the loose objects in \(folder)")
        guard let loose else { return }
        let guarded = LooseObjectFolder.backend(folder: folder, log: log, delegatingTo: loose)
        let looseCode = add(database, guarded, loosePriority)
        if looseCode < 0 { guarded.pointee.free(guarded) }
        try LibGit2.check(looseCode, "opening the loose objects in \(folder)")
        // libgit2 sets this on the backends it is given; the write streams of the loose backend
        // use it to skip objects the database already has, and skip every write without it.
        loose.pointee.odb = database
    }

    /// The object folders `objects/info/alternates` lends objects from, and theirs in turn, as
    /// git reads them: one path a line, `#` comments, relative paths from the folder naming them,
    /// five levels at most; folders that do not exist are skipped, as libgit2 skips them.
    static func alternates(of objects: String) -> [String] {
        var found: [String] = []
        var seen: Set<String> = [canonical(objects)]
        func visit(_ folder: String, depth: Int) {
            guard depth < 5, let text = try? String(contentsOfFile: folder + "/info/alternates", encoding: .utf8)
            else { return }
            for line in text.split(whereSeparator: \.isNewline) where !line.isEmpty && !line.hasPrefix("#") {
                let path = line.hasPrefix("/") ? String(line) : folder + "/" + line
                var isFolder: ObjCBool = false
                guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue,
                    seen.insert(canonical(path)).inserted
                else { continue }
                found.append(path)
                visit(path, depth: depth + 1)
            }
        }
        visit(objects.hasSuffix("/") ? String(objects.dropLast()) : objects, depth: 0)
        return found
    }

    private static func canonical(_ path: String) -> String {
        URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path
    }
}

/// The loose objects the guard refused in one repository. A libgit2 call that fails after a
/// refusal failed because of it; the repository reports the object instead of libgit2's words.
final class CorruptObjectLog {
    private var refused: CorruptObject?

    func record(_ object: CorruptObject) { refused = object }

    /// The latest refusal not yet reported, which is then forgotten.
    func take() -> CorruptObject? {
        defer { refused = nil }
        return refused
    }
}

/// A loose object that cannot be read, and why.
struct CorruptObject {
    let id: String
    let defect: LooseObjectDefect
}

/// A `git_odb_backend*`: what libgit2 passes every backend callback.
private typealias Backend = UnsafeMutablePointer<git_odb_backend>

/// One object folder's loose objects, behind a `git_odb_backend` whose reads inflate with
/// `LooseObject`. Writes, existence checks and abbreviated-ID searches, which inflate nothing,
/// go to libgit2's loose backend for the same folder.
private final class LooseObjectFolder {
    let folder: String
    let log: CorruptObjectLog

    private init(folder: String, log: CorruptObjectLog) {
        self.folder = folder.hasSuffix("/") ? String(folder.dropLast()) : folder
        self.log = log
    }

    /// A new backend, freed by libgit2 through its `free` callback (or by the caller if adding
    /// it to a database fails).
    static func backend(folder: String, log: CorruptObjectLog, delegatingTo loose: Backend) -> Backend {
        let guardStruct = UnsafeMutablePointer<cgit2_loose_guard>.allocate(capacity: 1)
        guardStruct.initialize(to: cgit2_loose_guard())
        git_odb_init_backend(&guardStruct.pointee.parent, UInt32(GIT_ODB_BACKEND_VERSION))
        guardStruct.pointee.loose = loose
        guardStruct.pointee.owner = Unmanaged.passRetained(LooseObjectFolder(folder: folder, log: log)).toOpaque()
        // libgit2 falls back to `read` for headers and never streams a read we do not offer.
        guardStruct.pointee.parent.read = { data, length, kind, backend, id in
            guard let data, let length, let kind, let backend, let id else { return GIT_ERROR.rawValue }
            return LooseObjectFolder.owner(of: backend).read(id.pointee, into: backend, data, length, kind)
        }
        // Without it libgit2 reads the whole object to learn its size: a blob of 200 MiB that
        // compresses to 200 KB was inflated whole before being refused as too large.
        guardStruct.pointee.parent.read_header = { length, kind, backend, id in
            guard let length, let kind, let backend, let id else { return GIT_ERROR.rawValue }
            return LooseObjectFolder.owner(of: backend).readHeader(id.pointee, length, kind)
        }
        guardStruct.pointee.parent.read_prefix = { fullID, data, length, kind, backend, shortID, hexLength in
            guard let fullID, let data, let length, let kind, let backend, let shortID else {
                return GIT_ERROR.rawValue
            }
            // libgit2 finds the one file the prefix names (or reports it ambiguous) by name alone.
            let loose = LooseObjectFolder.delegate(of: backend)
            let found = loose.pointee.exists_prefix?(fullID, loose, shortID, hexLength) ?? GIT_ERROR.rawValue
            guard found == 0 else { return found }
            return LooseObjectFolder.owner(of: backend).read(fullID.pointee, into: backend, data, length, kind)
        }
        guardStruct.pointee.parent.exists = { backend, id in
            let loose = LooseObjectFolder.delegate(of: backend)
            return loose.pointee.exists?(loose, id) ?? 0
        }
        guardStruct.pointee.parent.exists_prefix = { fullID, backend, shortID, hexLength in
            let loose = LooseObjectFolder.delegate(of: backend)
            return loose.pointee.exists_prefix?(fullID, loose, shortID, hexLength) ?? GIT_ERROR.rawValue
        }
        guardStruct.pointee.parent.write = { backend, id, data, length, kind in
            let loose = LooseObjectFolder.delegate(of: backend)
            return loose.pointee.write?(loose, id, data, length, kind) ?? GIT_ERROR.rawValue
        }
        guardStruct.pointee.parent.writestream = { stream, backend, length, kind in
            let loose = LooseObjectFolder.delegate(of: backend)
            return loose.pointee.writestream?(stream, loose, length, kind) ?? GIT_ERROR.rawValue
        }
        guardStruct.pointee.parent.freshen = { backend, id in
            let loose = LooseObjectFolder.delegate(of: backend)
            return loose.pointee.freshen?(loose, id) ?? GIT_ERROR.rawValue
        }
        guardStruct.pointee.parent.free = { backend in
            guard let backend else { return }
            let guardStruct = UnsafeMutableRawPointer(backend).assumingMemoryBound(to: cgit2_loose_guard.self)
            if let loose = guardStruct.pointee.loose { loose.pointee.free(loose) }
            if let owner = guardStruct.pointee.owner { Unmanaged<LooseObjectFolder>.fromOpaque(owner).release() }
            guardStruct.deinitialize(count: 1)
            guardStruct.deallocate()
        }
        return UnsafeMutableRawPointer(guardStruct).assumingMemoryBound(to: git_odb_backend.self)
    }

    private static func owner(of backend: Backend?) -> LooseObjectFolder {
        let guardStruct = UnsafeMutableRawPointer(backend!).assumingMemoryBound(to: cgit2_loose_guard.self)
        return Unmanaged<LooseObjectFolder>.fromOpaque(guardStruct.pointee.owner).takeUnretainedValue()
    }

    private static func delegate(of backend: Backend?) -> Backend {
        UnsafeMutableRawPointer(backend!).assumingMemoryBound(to: cgit2_loose_guard.self).pointee.loose
    }

    /// libgit2's `read`: the object `id` as a buffer libgit2 owns, `GIT_ENOTFOUND` when this
    /// folder has no such file, or an error that names the object when the file is corrupt.
    func read(
        _ id: git_oid, into backend: Backend,
        _ data: UnsafeMutablePointer<UnsafeMutableRawPointer?>, _ length: UnsafeMutablePointer<Int>,
        _ kind: UnsafeMutablePointer<git_object_t>
    ) -> Int32 {
        let hex = id.hex
        let object: LooseObject
        do {
            guard let file = try Self.contents(of: path(of: hex)) else { return GIT_ENOTFOUND.rawValue }
            object = try LooseObject(decoding: file)
        } catch let defect as LooseObjectDefect {
            return refuse(hex, defect)
        } catch {
            git_error_set_str(Int32(GIT_ERROR_OS.rawValue), "\(error)")
            return GIT_ERROR.rawValue
        }
        // libgit2 allocates one byte more than the object and ends it with NUL, as it does itself.
        guard let buffer = git_odb_backend_data_alloc(backend, object.body.count + 1) else {
            return GIT_ERROR.rawValue
        }
        object.body.withUnsafeBytes { body in
            // An empty blob (an empty file) has no bytes to copy, and may have no address.
            if let bytes = body.baseAddress { buffer.copyMemory(from: bytes, byteCount: body.count) }
        }
        buffer.storeBytes(of: 0, toByteOffset: object.body.count, as: UInt8.self)
        data.pointee = buffer
        length.pointee = object.body.count
        kind.pointee = object.kind.gitType
        return 0
    }

    /// libgit2's `read_header`: the kind and size of object `id` from the start of its file.
    func readHeader(
        _ id: git_oid, _ length: UnsafeMutablePointer<Int>, _ kind: UnsafeMutablePointer<git_object_t>
    ) -> Int32 {
        let hex = id.hex
        do {
            guard let file = try Self.contents(of: path(of: hex)) else { return GIT_ENOTFOUND.rawValue }
            let (objectKind, size) = try LooseObject.kindAndSize(of: file)
            length.pointee = size
            kind.pointee = objectKind.gitType
            return 0
        } catch let defect as LooseObjectDefect {
            return refuse(hex, defect)
        } catch {
            git_error_set_str(Int32(GIT_ERROR_OS.rawValue), "\(error)")
            return GIT_ERROR.rawValue
        }
    }

    private func path(of hex: String) -> String { folder + "/" + hex.prefix(2) + "/" + hex.dropFirst(2) }

    private func refuse(_ hex: String, _ defect: LooseObjectDefect) -> Int32 {
        log.record(CorruptObject(id: hex, defect: defect))
        git_error_set_str(Int32(GIT_ERROR_ODB.rawValue), "corrupt loose object \(hex): \(defect)")
        return GIT_ERROR.rawValue
    }

    /// The bytes of the file at `path`, or nil when there is none. Reading stops soon after
    /// `LooseObject.maximumSize`: a larger file is refused without reading it all.
    private static func contents(of path: String) throws -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 {
            if errno == ENOENT { return nil }
            throw UnreadableFile(path: path, reason: String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while bytes.count <= LooseObject.maximumSize {
            let count = chunk.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw UnreadableFile(path: path, reason: String(cString: strerror(errno)))
            }
            if count == 0 { break }
            bytes += chunk[..<count]
        }
        return bytes
    }
}

private struct UnreadableFile: Error, CustomStringConvertible {
    let path: String
    let reason: String

    var description: String { "cannot read \(path): \(reason)" }
}

extension LooseObject.Kind {
    fileprivate var gitType: git_object_t {
        switch self {
        case .commit: GIT_OBJECT_COMMIT
        case .tree: GIT_OBJECT_TREE
        case .blob: GIT_OBJECT_BLOB
        case .tag: GIT_OBJECT_TAG
        }
    }
}
