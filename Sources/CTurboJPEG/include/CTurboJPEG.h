// libjpeg-turbo's TurboJPEG API (libturbojpeg0-dev) for decoding, scaling and encoding uploaded photos,
// and the pixel loops around it: written in C so they cost the same in a debug build as in a release one.
#ifndef PARLOR_CTURBOJPEG_H
#define PARLOR_CTURBOJPEG_H

#include <stddef.h>
#include <stdint.h>
#include <turbojpeg.h>

/// Scales packed RGB `src` (sw × sh) to `dst` (dw × dh, each at most the source's) by averaging the
/// source pixels each destination pixel covers (a box filter, weighted by overlap).
void parlor_rgb_scale(const uint8_t *src, int sw, int sh, uint8_t *dst, int dw, int dh);

/// Turns packed RGB `src` (w × h) upright as EXIF orientation `orientation` (1…8) says into `dst`,
/// which is h × w for orientations 5…8 and w × h otherwise.
void parlor_rgb_orient(const uint8_t *src, int w, int h, int orientation, uint8_t *dst);

/// Copies the rectangle at (x, y) of size cw × ch out of packed RGB `src` (w pixels wide) into `dst`.
void parlor_rgb_crop(const uint8_t *src, int w, int x, int y, int cw, int ch, uint8_t *dst);

#endif
