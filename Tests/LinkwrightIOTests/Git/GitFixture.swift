import CGit2
import Foundation
import LinkwrightTestSupport

/// libgit2 reads the global (~/.gitconfig), XDG and system configuration, and tests must not
/// see the machine's. Evaluated once, before the first fixture: it points those levels at
/// /dev/null, which cannot hold a file, so they read as empty.
let libGit2WithoutMachineConfiguration: Void = {
    git_libgit2_init()
    for level in [GIT_CONFIG_LEVEL_SYSTEM, GIT_CONFIG_LEVEL_XDG, GIT_CONFIG_LEVEL_PROGRAMDATA] {
        cgit2_set_config_search_path(level, "/dev/null")
    }
    setLibGit2GlobalConfigurationFolder("/dev/null")
}()

/// Where libgit2 looks for the global `.gitconfig`; process-wide.
func setLibGit2GlobalConfigurationFolder(_ folder: String) {
    cgit2_set_config_search_path(GIT_CONFIG_LEVEL_GLOBAL, folder)
}

/// A fixture repository, with libgit2 kept away from the machine's configuration first.
func makeGitFixture() throws -> GitFixture {
    _ = libGit2WithoutMachineConfiguration
    return try GitFixture()
}
