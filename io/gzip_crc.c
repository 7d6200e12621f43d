/* gzip_crc.c — CRC-32 in pieces (gzip_crc.h). Combining multiplies A's CRC
 * by x^(8 len_b) modulo the CRC polynomial, in the reflected bit order of
 * the CRC (bit 31 holds x^0), then adds B's: CRC(A B) = CRC(A) x^(8|B|) + CRC(B)
 * over GF(2), the pre- and post-inversions cancelling out. */
#include "io/gzip_crc.h"

#if COARSEN_HAVE_ISAL
#include <isa-l/crc.h>
#else
#include <zlib.h>
#endif

/* x^32 + x^26 + ... + 1 without its x^32 term, reflected. */
#define CRC32_POLY 0xedb88320u

uint32_t gzip_crc32(uint32_t crc, const void *data, size_t len)
{
#if COARSEN_HAVE_ISAL
    return crc32_gzip_refl(crc, data, len);
#else
    return (uint32_t)crc32_z(crc, data, len);
#endif
}

/* a b mod the polynomial (both reflected). */
static uint32_t poly_mul(uint32_t a, uint32_t b)
{
    uint32_t product = 0;
    for (uint32_t bit = 1u << 31; bit; bit >>= 1) {
        if (a & bit)
            product ^= b;
        b = b & 1 ? (b >> 1) ^ CRC32_POLY : b >> 1; /* b x */
    }
    return product;
}

uint32_t gzip_crc32_combine(uint32_t crc_a, uint32_t crc_b, size_t len_b)
{
    uint32_t shift = 1u << 31, power = 1u << 23; /* 1 and x^8 */
    for (size_t n = len_b; n; n >>= 1) {
        if (n & 1)
            shift = poly_mul(shift, power);
        power = poly_mul(power, power);
    }
    return poly_mul(crc_a, shift) ^ crc_b;
}
