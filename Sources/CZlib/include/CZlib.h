// zlib (zlib1g-dev) for permessage-deflate. deflateInit2/inflateInit2 are macros, so they get functions here.
#ifndef PARLOR_CZLIB_H
#define PARLOR_CZLIB_H

#include <zlib.h>

/// Raw deflate (no zlib header) with the given window bits (9...15) and memory level (1...9).
int parlor_deflate_init_raw(z_streamp stream, int level, int window_bits, int mem_level);

/// Raw inflate (no zlib header) with the given window bits (8...15).
int parlor_inflate_init_raw(z_streamp stream, int window_bits);

/// A gzip stream (RFC 1952: header, deflate, CRC-32 and length) for HTTP's `Content-Encoding: gzip`.
int parlor_deflate_init_gzip(z_streamp stream, int level);

#endif
