#ifndef MENURANK_CZLIB_SHIM_H
#define MENURANK_CZLIB_SHIM_H
#include <zlib.h>
/* inflateInit2 is a macro; expose it as a function Swift can call. */
static inline int menurank_inflate_init2(z_stream *stream, int windowBits) {
    return inflateInit2(stream, windowBits);
}
static inline int menurank_deflate_init2(z_stream *stream, int level, int windowBits) {
    return deflateInit2(stream, level, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY);
}
#endif
