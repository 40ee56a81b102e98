import Foundation

/// Where a command run without `--config` finds the configuration: the nearest folder at or
/// above the current one that holds `environments/`, so that any command works from anywhere
/// inside the configuration (from `domains/`, say), as git works from any folder of a repository.
public enum ConfigurationDiscovery {
    /// How many folders above `start` the nearest folder holding an `environments` folder is
    /// (0: `start` itself). The search stops at the top of the git working tree around `start`,
    /// or at the filesystem root outside one: a configuration of an enclosing project is never
    /// picked up. Only a real folder counts; a symbolic link named `environments` does not.
    /// nil when no folder qualifies.
    public static func levelsUp(from start: String) -> Int? {
        guard let canonical = GitRepository.canonicalPath(start) else { return nil }
        var candidate = URL(fileURLWithPath: canonical)
        if isFolder(candidate.appendingPathComponent("environments").path) { return 0 }
        // Asked only on the way up: starting libgit2 reads the system's certificates, a serial
        // 55 million instructions before a command run from its configuration's folder reads it.
        let top = GitRepository.workTreeRoot(containing: canonical)
        var levels = 0
        while true {
            let parent = candidate.deletingLastPathComponent()
            if candidate.path == top || parent.path == candidate.path { return nil }
            candidate = parent
            levels += 1
            if isFolder(candidate.appendingPathComponent("environments").path) { return levels }
        }
    }

    private static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }
}
