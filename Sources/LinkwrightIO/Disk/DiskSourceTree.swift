import Foundation
import LinkwrightCore

/// The configuration folder in the working tree, uncommitted changes included.
public struct DiskSourceTree: SourceTree {
    public let root: URL
    /// Files larger than this are read only this far plus one byte: the loader then reports them
    /// as too large without the tool holding a huge file in memory.
    public var readLimit = YAMLParser().maximumBytes

    public init(root: URL) { self.root = root }

    public func fileNames(in folder: String) throws -> [String] {
        let url = root.appendingPathComponent(folder, isDirectory: true)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            return []
        }
        return try FileManager.default.contentsOfDirectory(atPath: url.path).filter { name in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: url.appendingPathComponent(name).path, isDirectory: &isFolder)
                && !isFolder.boolValue
        }.sorted()
    }

    public func contents(of path: String) throws -> [UInt8] {
        let handle = try FileHandle(forReadingFrom: root.appendingPathComponent(path))
        defer { try? handle.close() }
        return Array(try handle.read(upToCount: readLimit + 1) ?? Data())
    }
}
