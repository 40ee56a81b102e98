import Foundation
import LinkwrightCore

/// A folder opened by descriptor. Everything below it is reached one path component at a time
/// with `O_NOFOLLOW`, so nothing a checked-out repository holds (a symbolic link committed in
/// place of a folder or a file, a FIFO, a device) can lead a read or a write anywhere else: a
/// link is reported, never followed. Only the path the user gave to open the handle itself is
/// resolved the ordinary way.
public final class FolderHandle {
    /// What a folder entry is, without following links.
    public enum Kind: Equatable, Sendable {
        case file, folder, symbolicLink
        /// A FIFO, socket or device; the description names which.
        case special(String)

        init(mode: mode_t) {
            switch mode & S_IFMT {
            case S_IFREG: self = .file
            case S_IFDIR: self = .folder
            case S_IFLNK: self = .symbolicLink
            case S_IFIFO: self = .special("a FIFO")
            case S_IFSOCK: self = .special("a socket")
            case S_IFCHR: self = .special("a character device")
            case S_IFBLK: self = .special("a block device")
            default: self = .special("not a regular file")
            }
        }

        /// "a symbolic link", for messages.
        public var description: String {
            switch self {
            case .file: "a file"
            case .folder: "a folder"
            case .symbolicLink: "a symbolic link"
            case .special(let what): what
            }
        }
    }

    public struct Failure: Error, CustomStringConvertible, Equatable {
        /// The path as the user knows it: the handle's path and the components below it.
        public var path: String
        public var reason: String
        public var description: String { "\(path): \(reason)" }

        static func system(_ path: String, _ action: String, _ code: Int32 = errno) -> Failure {
            Failure(path: path, reason: "cannot \(action): \(String(cString: strerror(code)))")
        }
    }

    let descriptor: Int32
    /// For messages only: operations go through `descriptor`.
    public let path: String

    /// Opens the folder at `path`, following links in the path itself (the user chose it).
    public init(path: String) throws {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure.system(path, "open the folder") }
        self.descriptor = descriptor
        self.path = path
    }

    private init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit { close(descriptor) }

    /// Whether `path` still leads to this folder (not removed or replaced since it was opened).
    func isStill(at path: String) -> Bool {
        var opened = stat()
        var named = stat()
        return fstat(descriptor, &opened) == 0 && lstat(path, &named) == 0 && opened.st_dev == named.st_dev
            && opened.st_ino == named.st_ino
    }

    func child(_ name: String) -> String { path.hasSuffix("/") ? path + name : path + "/" + name }

    /// What `name` is, or nil when there is nothing by that name.
    public func kind(of name: String) throws -> Kind? {
        try Self.checkName(name, in: self)
        var status = stat()
        guard fstatat(descriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else {
            if errno == ENOENT { return nil }
            throw Failure.system(child(name), "inspect it")
        }
        return Kind(mode: status.st_mode)
    }

    /// The subfolder `name`; nil when absent (and `create` is false). A link or a file in its
    /// place is an error naming it.
    public func folder(_ name: String, create: Bool = false) throws -> FolderHandle? {
        try Self.checkName(name, in: self)
        if create && mkdirat(descriptor, name, 0o755) != 0 && errno != EEXIST {
            throw Failure.system(child(name), "create the folder")
        }
        let opened = openat(descriptor, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard opened >= 0 else {
            let code = errno
            if code == ENOENT { return nil }
            if let kind = try kind(of: name), kind != .folder {
                throw Failure(path: child(name), reason: "is \(kind.description), not a folder")
            }
            throw Failure.system(child(name), "open the folder", code)
        }
        return FolderHandle(descriptor: opened, path: child(name))
    }

    /// The folder at a `/`-separated path below this one.
    public func folder(at relativePath: String, create: Bool = false) throws -> FolderHandle? {
        var current = self
        for component in relativePath.split(separator: "/") {
            guard let next = try current.folder(String(component), create: create) else { return nil }
            current = next
        }
        return current
    }

    /// Names and kinds of the entries, sorted by name; `.` and `..` are left out.
    public func entries() throws -> [(name: String, kind: Kind)] {
        let copy = dup(descriptor)
        guard copy >= 0, let stream = fdopendir(copy) else {
            if copy >= 0 { close(copy) }
            throw Failure.system(path, "list the folder")
        }
        defer { closedir(stream) }
        rewinddir(stream)
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return try names.sorted().compactMap { name in try kind(of: name).map { (name, $0) } }
    }

    /// The bytes of the regular file `name`, at most `limit + 1` of them (so a caller can tell a
    /// file over its limit without holding it); nil when absent. Opening never blocks on a FIFO
    /// and never follows a link; anything but a regular file is an error naming what it is.
    public func read(_ name: String, limit: Int) throws -> [UInt8]? {
        guard let (file, size) = try openRegularFile(name) else { return nil }
        defer { close(file) }
        guard let bytes = Self.read(file, limit: limit, expected: size) else {
            throw Failure.system(child(name), "read it")
        }
        return bytes
    }

    /// Whether the regular file `name` holds exactly `bytes`; nil when absent. A file of another
    /// size is not read; one of the same size is compared chunk by chunk as it is read, never
    /// held whole, and at most one byte past `bytes` is read (a file growing meanwhile differs).
    public func holds(_ name: String, bytes: [UInt8]) throws -> Bool? {
        guard let (file, size) = try openRegularFile(name) else { return nil }
        defer { close(file) }
        guard size == bytes.count else { return false }
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: min(1 << 16, bytes.count + 1), alignment: 1)
        defer { chunk.deallocate() }
        return try bytes.withUnsafeBytes { expected in
            var offset = 0
            while true {
                let wanted = min(chunk.count, expected.count + 1 - offset)
                let count = systemRead(file, chunk.baseAddress!, wanted)
                if count < 0 && errno == EINTR { continue }
                guard count >= 0 else { throw Failure.system(child(name), "read it") }
                if count == 0 { return offset == expected.count }
                if offset + count > expected.count
                    || memcmp(chunk.baseAddress!, expected.baseAddress! + offset, count) != 0
                {
                    return false
                }
                offset += count
            }
        }
    }

    /// `name` opened for reading and its size, after checking it is a regular file; nil when
    /// absent. Opening never blocks on a FIFO and never follows a link.
    private func openRegularFile(_ name: String) throws -> (descriptor: Int32, size: Int)? {
        try Self.checkName(name, in: self)
        let file = openat(descriptor, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard file >= 0 else {
            let code = errno
            if code == ENOENT { return nil }
            if let kind = try kind(of: name), kind != .file {
                throw Failure(path: child(name), reason: "is \(kind.description), not a regular file")
            }
            throw Failure.system(child(name), "read it", code)
        }
        var status = stat()
        guard fstat(file, &status) == 0 else {
            let code = errno
            close(file)
            throw Failure.system(child(name), "inspect it", code)
        }
        let kind = Kind(mode: status.st_mode)
        guard kind == .file else {
            close(file)
            throw Failure(path: child(name), reason: "is \(kind.description), not a regular file")
        }
        return (file, Int(status.st_size))
    }

    /// At most `limit + 1` bytes from `descriptor`, reading to the limit rather than to the size
    /// fstat gave (`expected`), so a growing file cannot pass as small and an endless one stops
    /// at the limit; nil when a read fails (errno says why). Reads straight into the array,
    /// sized first for `expected` bytes and one more, doubled while it fills.
    static func read(_ descriptor: Int32, limit: Int, expected: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: min(limit + 1, max(expected, 0) + 1))
        var filled = 0
        while filled <= limit {
            if filled == bytes.count {
                bytes += repeatElement(0, count: min(limit + 1, bytes.count * 2) - bytes.count)
            }
            let count = bytes.withUnsafeMutableBytes {
                systemRead(descriptor, $0.baseAddress! + filled, $0.count - filled)
            }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { break }
            filled += count
        }
        bytes.removeLast(bytes.count - filled)
        return bytes
    }

    /// Creates `name` with `bytes`, failing if anything already has that name (`O_EXCL`), and
    /// unless `flush` is false (the caller then syncs many files at once) flushes it to disk.
    public func createFile(_ name: String, bytes: [UInt8], flush: Bool = true) throws {
        try Self.checkName(name, in: self)
        let file = openat(descriptor, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard file >= 0 else { throw Failure.system(child(name), "create it") }
        defer { close(file) }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes {
                systemWrite(file, $0.baseAddress! + written, bytes.count - written)
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                let code = errno
                unlinkat(descriptor, name, 0)
                throw Failure.system(child(name), "write it", code)
            }
            written += count
        }
        guard !flush || fsync(file) == 0 else {
            let code = errno
            unlinkat(descriptor, name, 0)
            throw Failure.system(child(name), "flush it to disk", code)
        }
    }

    /// A name no other process can have chosen: `.<base>.<random>.linkwright-tmp`.
    public static func temporaryName(for base: String) -> String {
        ".\(base.prefix(100)).\(String(UInt64.random(in: 0...UInt64.max), radix: 36)).linkwright-tmp"
    }

    /// Writes `bytes` to a new temporary file here and returns its name; `rename(_:to:in:)`
    /// then puts it in place.
    public func stage(_ bytes: [UInt8], for base: String) throws -> String {
        // 64 random bits: no one can place a link under the name in advance, and O_EXCL refuses
        // one if they could.
        let name = Self.temporaryName(for: base)
        try createFile(name, bytes: bytes)
        return name
    }

    /// Moves `name` to `newName` in `folder`, replacing what is there (a link there is replaced,
    /// not followed).
    public func rename(_ name: String, to newName: String, in folder: FolderHandle) throws {
        try Self.checkName(name, in: self)
        try Self.checkName(newName, in: folder)
        if try folder.kind(of: newName) == .folder {
            throw Failure(path: folder.child(newName), reason: "is a folder; remove it or rename it")
        }
        guard renameat(descriptor, name, folder.descriptor, newName) == 0 else {
            throw Failure.system(folder.child(newName), "replace it")
        }
    }

    /// Removes the file or link `name` (a link itself, never what it points to).
    public func removeFile(_ name: String) throws {
        try Self.checkName(name, in: self)
        guard unlinkat(descriptor, name, 0) == 0 || errno == ENOENT else {
            throw Failure.system(child(name), "remove it")
        }
    }

    /// Removes the folder `name` if it is empty; true when it was removed.
    @discardableResult
    public func removeFolderIfEmpty(_ name: String) -> Bool {
        unlinkat(descriptor, name, AT_REMOVEDIR) == 0
    }

    /// Removes `name` and, when it is a real folder, everything in it. Links are removed, never
    /// followed, so this never reaches outside the folder.
    public func removeTree(_ name: String) throws {
        switch try kind(of: name) {
        case nil: return
        case .folder?:
            guard let inner = try folder(name) else { return }
            for entry in try inner.entries() { try inner.removeTree(entry.name) }
            guard unlinkat(descriptor, name, AT_REMOVEDIR) == 0 else { throw Failure.system(child(name), "remove it") }
        default:
            try removeFile(name)
        }
    }

    // MARK: - Seals

    /// Marks the regular file `name` as written by linkwright on this machine: its modification
    /// time's microseconds become a digest of its device, inode and second. Git, which carries
    /// a repository's files, records no times and no inodes, so a file a checkout made cannot
    /// carry the mark (but for a one-in-a-million accident of the clock); a rename keeps it, a
    /// rewrite loses it. Nothing secret is involved: the mark binds the file to its inode here.
    public func seal(_ name: String) throws {
        try Self.checkName(name, in: self)
        var status = stat()
        guard fstatat(descriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else {
            throw Failure.system(child(name), "inspect it")
        }
        let second = Int(Self.modified(status).tv_sec)
        var times = [
            Self.accessed(status),
            timespec(tv_sec: second, tv_nsec: Self.sealNanoseconds(status, second: second)),
        ]
        guard utimensat(descriptor, name, &times, AT_SYMLINK_NOFOLLOW) == 0 else {
            throw Failure.system(child(name), "set its modification time")
        }
    }

    /// Whether `name` is a regular file that `seal` marked (a link, folder or missing file is not).
    public func isSealed(_ name: String) throws -> Bool {
        try Self.checkName(name, in: self)
        var status = stat()
        guard fstatat(descriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else {
            if errno == ENOENT { return false }
            throw Failure.system(child(name), "inspect it")
        }
        guard Kind(mode: status.st_mode) == .file else { return false }
        let modified = Self.modified(status)
        return Int(modified.tv_nsec) == Self.sealNanoseconds(status, second: Int(modified.tv_sec))
    }

    // The C library names a file's times differently on Linux and Darwin.
    private static func modified(_ status: stat) -> timespec {
        #if canImport(Darwin)
            status.st_mtimespec
        #else
            status.st_mtim
        #endif
    }

    private static func accessed(_ status: stat) -> timespec {
        #if canImport(Darwin)
            status.st_atimespec
        #else
            status.st_atim
        #endif
    }

    /// Whole microseconds, so file systems keeping only microseconds keep the mark.
    private static func sealNanoseconds(_ status: stat, second: Int) -> Int {
        let digest = SHA256.digest(Array("linkwright seal \(status.st_dev) \(status.st_ino) \(second)".utf8))
        let word = digest.prefix(4).reduce(0) { $0 << 8 | Int($1) }
        return word % 1_000_000 * 1000
    }

    /// Flushes the folder's entries (new names, renames) to disk.
    public func sync() { fsync(descriptor) }

    /// Takes an advisory lock on the folder itself, held until the handle is released. With
    /// `wait` false a lock held elsewhere returns false at once.
    public func lock(exclusive: Bool, wait: Bool) throws -> Bool {
        let operation = (exclusive ? LOCK_EX : LOCK_SH) | (wait ? 0 : LOCK_NB)
        while flock(descriptor, operation) != 0 {
            if errno == EINTR { continue }
            if errno == EWOULDBLOCK { return false }
            throw Failure.system(path, "lock the folder")
        }
        return true
    }

    /// A name is one plain path component: anything else would let a caller's string walk
    /// somewhere the component-by-component discipline does not cover.
    static func checkName(_ name: String, in folder: FolderHandle) throws {
        guard !name.isEmpty, name != ".", name != "..", !name.contains("/"), !name.contains("\0") else {
            throw Failure(path: folder.path, reason: "refusing the path component \"\(name)\"")
        }
    }
}
