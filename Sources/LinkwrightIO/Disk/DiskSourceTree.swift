import Foundation
import LinkwrightCore

/// The configuration folder in the working tree, uncommitted changes included. Every path below
/// the root is walked without following links (`FolderHandle`): a link, FIFO or device in the
/// tree is listed as refused, never opened.
public struct DiskSourceTree: SourceTree {
    public let root: URL
    /// Files larger than this are read only this far plus one byte, then refused as too large,
    /// so the tool never holds a huge file in memory.
    public var readLimit = YAMLParser().maximumBytes

    public init(root: URL) { self.root = root }

    public func entries(in folder: String) throws -> [SourceEntry] {
        guard let handle = try FolderHandle(path: root.path).folder(at: folder) else { return [] }
        return try handle.entries().map { name, kind in
            switch kind {
            case .file: SourceEntry(name: name, kind: .file)
            case .folder: SourceEntry(name: name, kind: .folder)
            case .symbolicLink, .special: SourceEntry(name: name, kind: .refused(kind.description))
            }
        }
    }

    public func contents(of path: String) throws -> [UInt8] {
        let folder = path.split(separator: "/").dropLast().joined(separator: "/")
        let name = String(path.split(separator: "/").last ?? "")
        guard let handle = try FolderHandle(path: root.path).folder(at: folder),
            let bytes = try handle.read(name, limit: readLimit)
        else { throw SourceTreeError.missing(path) }
        guard bytes.count <= readLimit else { throw SourceTreeError.tooLarge(path, limit: readLimit) }
        return bytes
    }
}
