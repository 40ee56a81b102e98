#ifndef CZLIB_SHIM_H
#define CZLIB_SHIM_H
#include <zlib.h>
/* inflateInit is a macro (it passes the header's version and struct size), which Swift cannot call. */
static inline int czlib_inflate_init(z_stream *stream) { return inflateInit(stream); }
#endif
