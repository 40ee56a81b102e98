#ifndef CGIT2_SHIM_H
#define CGIT2_SHIM_H
#include <git2.h>
#include <git2/sys/odb_backend.h>
#include <git2/sys/repository.h>
/* git_libgit2_opts is variadic, which Swift cannot call: one wrapper per option we use. */
static inline int cgit2_set_owner_validation(int enabled) {
    return git_libgit2_opts(GIT_OPT_SET_OWNER_VALIDATION, enabled);
}
static inline int cgit2_set_strict_hash_verification(int enabled) {
    return git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, enabled);
}
/* Tests point the global, XDG and system configuration levels at an empty location so that
   the machine's own git configuration cannot change their results. */
static inline int cgit2_set_config_search_path(git_config_level_t level, const char *path) {
    return git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH, level, path);
}
/* An object database backend implemented in Swift. libgit2 passes each callback the
   git_odb_backend pointer, which is also the address of the whole struct; `owner` is the Swift
   object (retained) and `loose` the libgit2 loose backend it delegates writes to. */
typedef struct {
    git_odb_backend parent;
    git_odb_backend *loose;
    void *owner;
} cgit2_loose_guard;
#endif
