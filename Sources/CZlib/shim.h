#ifndef CZLIB_SHIM_H
#define CZLIB_SHIM_H
#include <zlib.h>
/* inflateInit and inflateInit2 are macros (they pass the header's version and struct size), which Swift cannot call. */
static inline int czlib_inflate_init(z_stream *stream) { return inflateInit(stream); }
/* Negative window bits: raw DEFLATE without zlib's header, as ZIP entries store it. */
static inline int czlib_inflate_init_raw(z_stream *stream) { return inflateInit2(stream, -MAX_WBITS); }
#endif
