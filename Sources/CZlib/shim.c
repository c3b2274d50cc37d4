#include "CZlib.h"

int parlor_deflate_init_raw(z_streamp stream, int level, int window_bits, int mem_level) {
    return deflateInit2(stream, level, Z_DEFLATED, -window_bits, mem_level, Z_DEFAULT_STRATEGY);
}

int parlor_inflate_init_raw(z_streamp stream, int window_bits) {
    return inflateInit2(stream, -window_bits);
}

int parlor_deflate_init_gzip(z_streamp stream, int level) {
    // 15 window bits plus 16 asks zlib for a gzip wrapper instead of a zlib one.
    return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}
