#ifndef CGIT2_SHIM_H
#define CGIT2_SHIM_H
#include <git2.h>
/* git_libgit2_opts is variadic, which Swift cannot call: one wrapper per option we use. */
static inline int cgit2_set_owner_validation(int enabled) {
    return git_libgit2_opts(GIT_OPT_SET_OWNER_VALIDATION, enabled);
}
#endif
