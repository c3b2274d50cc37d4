#include "CTurboJPEG.h"

#include <string.h>

void parlor_rgb_scale(const uint8_t *src, int sw, int sh, uint8_t *dst, int dw, int dh) {
    // Each destination pixel covers [dx·sw/dw, (dx+1)·sw/dw) of the source horizontally (likewise
    // vertically); source pixels are weighted by how much of them it covers, in units of 1/(dw·dh).
    for (int dy = 0; dy < dh; dy++) {
        long y0 = (long)dy * sh, y1 = (long)(dy + 1) * sh;  // in units of 1/dh source rows
        for (int dx = 0; dx < dw; dx++) {
            long x0 = (long)dx * sw, x1 = (long)(dx + 1) * sw;  // in units of 1/dw source columns
            double sum[3] = {0, 0, 0};
            double total = 0;
            for (long sy = y0 / dh; sy < sh && sy * dh < y1; sy++) {
                long top = sy * dh > y0 ? sy * dh : y0;
                long bottom = (sy + 1) * dh < y1 ? (sy + 1) * dh : y1;
                double wy = (double)(bottom - top);
                const uint8_t *row = src + (size_t)sy * (size_t)sw * 3;
                for (long sx = x0 / dw; sx < sw && sx * dw < x1; sx++) {
                    long left = sx * dw > x0 ? sx * dw : x0;
                    long right = (sx + 1) * dw < x1 ? (sx + 1) * dw : x1;
                    double weight = wy * (double)(right - left);
                    const uint8_t *pixel = row + sx * 3;
                    sum[0] += weight * pixel[0];
                    sum[1] += weight * pixel[1];
                    sum[2] += weight * pixel[2];
                    total += weight;
                }
            }
            uint8_t *out = dst + ((size_t)dy * (size_t)dw + (size_t)dx) * 3;
            for (int c = 0; c < 3; c++) {
                double value = total > 0 ? sum[c] / total + 0.5 : 0;
                out[c] = value >= 255 ? 255 : (uint8_t)value;
            }
        }
    }
}

void parlor_rgb_orient(const uint8_t *src, int w, int h, int orientation, uint8_t *dst) {
    int transposed = orientation >= 5 && orientation <= 8;
    int ow = transposed ? h : w;
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            int ox, oy;
            switch (orientation) {
            case 2: ox = w - 1 - x; oy = y; break;              // mirrored horizontally
            case 3: ox = w - 1 - x; oy = h - 1 - y; break;      // turned 180°
            case 4: ox = x; oy = h - 1 - y; break;              // mirrored vertically
            case 5: ox = y; oy = x; break;                      // transposed
            case 6: ox = h - 1 - y; oy = x; break;              // turned 90° clockwise to stand up
            case 7: ox = h - 1 - y; oy = w - 1 - x; break;      // transversed
            case 8: ox = y; oy = w - 1 - x; break;              // turned 90° counter-clockwise
            default: ox = x; oy = y; break;
            }
            memcpy(dst + ((size_t)oy * (size_t)ow + (size_t)ox) * 3, src + ((size_t)y * (size_t)w + (size_t)x) * 3, 3);
        }
    }
}

void parlor_rgb_crop(const uint8_t *src, int w, int x, int y, int cw, int ch, uint8_t *dst) {
    for (int row = 0; row < ch; row++) {
        memcpy(dst + (size_t)row * (size_t)cw * 3, src + ((size_t)(y + row) * (size_t)w + (size_t)x) * 3, (size_t)cw * 3);
    }
}
