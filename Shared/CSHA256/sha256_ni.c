// SHA-256 (FIPS 180-4) with the x86 SHA extensions: SHA256RNDS2 does two rounds on the state
// held as the register pair ABEF/CDGH, SHA256MSG1/SHA256MSG2 compute the message schedule four
// words at a time. Padding and the digest's byte order are done here in plain C.
#include "csha256.h"

#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <immintrin.h>

static const uint32_t roundConstants[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

/// Runs the compression function over `blocks` 64-byte blocks at `data`.
__attribute__((target("sha,sse4.1,ssse3"))) static void compress(
    uint32_t state[8], const uint8_t *data, size_t blocks)
{
    // Big-endian words: reverse the bytes of each 32-bit lane.
    const __m128i byteSwap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);

    // From a..d, e..h in memory to the instructions' ABEF, CDGH (A in the highest lane).
    __m128i dcba = _mm_loadu_si128((const __m128i *)&state[0]);
    __m128i hgfe = _mm_loadu_si128((const __m128i *)&state[4]);
    __m128i cdab = _mm_shuffle_epi32(dcba, 0xB1);
    __m128i efgh = _mm_shuffle_epi32(hgfe, 0x1B);
    __m128i abef = _mm_alignr_epi8(cdab, efgh, 8);
    __m128i cdgh = _mm_blend_epi16(efgh, cdab, 0xF0);

    while (blocks-- > 0) {
        const __m128i abefBefore = abef;
        const __m128i cdghBefore = cdgh;
        __m128i schedule[4];  // the last four groups of four message words, a ring
#pragma clang loop unroll(full)
        for (int group = 0; group < 16; group++) {
            __m128i words;
            if (group < 4) {
                words = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 16 * group)), byteSwap);
            } else {
                // W[t] = σ1(W[t-2]) + W[t-7] + σ0(W[t-15]) + W[t-16], four at a time.
                const __m128i older = schedule[group & 3];  // W[t-16 .. t-13]
                const __m128i old = schedule[(group + 1) & 3];  // W[t-12 .. t-9]
                const __m128i recent = schedule[(group + 2) & 3];  // W[t-8 .. t-5]
                const __m128i latest = schedule[(group + 3) & 3];  // W[t-4 .. t-1]
                words = _mm_sha256msg1_epu32(older, old);
                words = _mm_add_epi32(words, _mm_alignr_epi8(latest, recent, 4));
                words = _mm_sha256msg2_epu32(words, latest);
            }
            schedule[group & 3] = words;
            const __m128i constants = _mm_loadu_si128((const __m128i *)&roundConstants[4 * group]);
            __m128i input = _mm_add_epi32(words, constants);
            cdgh = _mm_sha256rnds2_epu32(cdgh, abef, input);
            input = _mm_shuffle_epi32(input, 0x0E);
            abef = _mm_sha256rnds2_epu32(abef, cdgh, input);
        }
        abef = _mm_add_epi32(abef, abefBefore);
        cdgh = _mm_add_epi32(cdgh, cdghBefore);
        data += 64;
    }

    // Back to a..d, e..h.
    __m128i feba = _mm_shuffle_epi32(abef, 0x1B);
    __m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);
    dcba = _mm_blend_epi16(feba, dchg, 0xF0);
    hgfe = _mm_alignr_epi8(dchg, feba, 8);
    _mm_storeu_si128((__m128i *)&state[0], dcba);
    _mm_storeu_si128((__m128i *)&state[4], hgfe);
}

int csha256_hardware_available(void)
{
    static int available = -1;
    int known = __atomic_load_n(&available, __ATOMIC_RELAXED);
    if (known >= 0) return known;
    unsigned int eax, ebx, ecx, edx;
    int result = 0;
    if (__get_cpuid(1, &eax, &ebx, &ecx, &edx)) {
        const int sse41 = (ecx & bit_SSE4_1) != 0;
        const int ssse3 = (ecx & bit_SSSE3) != 0;
        if (sse41 && ssse3 && __get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) {
            result = (ebx & bit_SHA) != 0;
        }
    }
    __atomic_store_n(&available, result, __ATOMIC_RELAXED);
    return result;
}

static void storeBigEndian32(uint8_t *out, uint32_t value)
{
    out[0] = (uint8_t)(value >> 24);
    out[1] = (uint8_t)(value >> 16);
    out[2] = (uint8_t)(value >> 8);
    out[3] = (uint8_t)value;
}

int csha256_hardware(uint8_t digest[32], const uint8_t *data, size_t length)
{
    if (!csha256_hardware_available()) return 0;
    uint32_t state[8] = {
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
    };
    const size_t whole = length / 64;
    if (whole > 0) compress(state, data, whole);

    // The rest, the 0x80 byte, zeros and the length in bits: one block or two.
    uint8_t tail[128] = {0};
    const size_t rest = length % 64;
    if (rest > 0) memcpy(tail, data + 64 * whole, rest);
    tail[rest] = 0x80;
    const size_t tailLength = rest < 56 ? 64 : 128;
    const uint64_t bits = (uint64_t)length * 8;
    for (int i = 0; i < 8; i++) tail[tailLength - 1 - i] = (uint8_t)(bits >> (8 * i));
    compress(state, tail, tailLength / 64);

    for (int i = 0; i < 8; i++) storeBigEndian32(digest + 4 * i, state[i]);
    return 1;
}

#else

int csha256_hardware_available(void) { return 0; }

int csha256_hardware(uint8_t digest[32], const uint8_t *data, size_t length)
{
    (void)digest;
    (void)data;
    (void)length;
    return 0;
}

#endif
