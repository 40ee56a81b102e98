#ifndef CGIT2_SHIM_H
#define CGIT2_SHIM_H
#include <git2.h>
/* git_libgit2_opts is variadic, which Swift cannot call: one wrapper per option we use. */
static inline int cgit2_set_owner_validation(int enabled) {
    return git_libgit2_opts(GIT_OPT_SET_OWNER_VALIDATION, enabled);
}
/* Tests point the global, XDG and system configuration levels at an empty location so that
   the machine's own git configuration cannot change their results. */
static inline int cgit2_set_config_search_path(git_config_level_t level, const char *path) {
    return git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH, level, path);
}
#endif
