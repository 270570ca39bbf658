// SIMD literal prefilter for Lifeline's hot path.
//
// Each literal gets a bucket (0..7). For the first three byte positions we keep, per bucket, which
// low and high nibbles may occur there. A position p is a candidate for bucket b when the bytes at
// p, p+1 and p+2 all allow b; candidates are verified with memcmp. With AVX2 this checks 32 positions
// per step with six shuffles, which is what lets Lifeline skip the ~95% of log lines that mention
// nothing it looks for at close to memory speed.
#include "lifeline_scan.h"

#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define LL_HAVE_X86 1
#include <immintrin.h>
#endif

#define LL_FP 3          /* fingerprint length */
#define LL_BUCKETS 8

struct ll_anchor_set {
    size_t count;
    uint8_t **literals;
    size_t *lengths;
    uint8_t *bucket_of;              /* bucket of each literal */
    uint8_t scalar[LL_FP][256];      /* bucket mask allowed for each byte value at each position */
    uint8_t lo[LL_FP][32];           /* low-nibble masks, duplicated for both 128-bit lanes */
    uint8_t hi[LL_FP][32];           /* high-nibble masks */
    int simd;
};

static int same_fingerprint(const uint8_t *a, size_t la, const uint8_t *b, size_t lb) {
    size_t n = la < LL_FP ? la : LL_FP;
    size_t m = lb < LL_FP ? lb : LL_FP;
    return n == m && memcmp(a, b, n) == 0;
}

ll_anchor_set *ll_anchor_set_create(const char *const *literals, const size_t *lengths, size_t count) {
    ll_anchor_set *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->count = count;
    s->literals = calloc(count ? count : 1, sizeof *s->literals);
    s->lengths = calloc(count ? count : 1, sizeof *s->lengths);
    s->bucket_of = calloc(count ? count : 1, 1);
    if (!s->literals || !s->lengths || !s->bucket_of) { ll_anchor_set_destroy(s); return NULL; }

    size_t next_bucket = 0;
    for (size_t i = 0; i < count; i++) {
        size_t n = lengths[i];
        if (n == 0 || n > 255) { ll_anchor_set_destroy(s); return NULL; }
        s->literals[i] = malloc(n);
        if (!s->literals[i]) { ll_anchor_set_destroy(s); return NULL; }
        memcpy(s->literals[i], literals[i], n);
        s->lengths[i] = n;
        /* Literals with the same fingerprint share a bucket; others are spread round-robin. */
        int bucket = -1;
        for (size_t j = 0; j < i; j++) {
            if (same_fingerprint(s->literals[i], n, s->literals[j], s->lengths[j])) { bucket = s->bucket_of[j]; break; }
        }
        if (bucket < 0) bucket = (int)(next_bucket++ % LL_BUCKETS);
        s->bucket_of[i] = (uint8_t)bucket;
        uint8_t bit = (uint8_t)(1u << bucket);
        for (int k = 0; k < LL_FP; k++) {
            if ((size_t)k < n) {
                uint8_t c = s->literals[i][k];
                s->scalar[k][c] |= bit;
                s->lo[k][c & 15] |= bit;
                s->lo[k][16 + (c & 15)] |= bit;
                s->hi[k][c >> 4] |= bit;
                s->hi[k][16 + (c >> 4)] |= bit;
            } else {
                /* Shorter than the fingerprint: any byte may follow. */
                for (int v = 0; v < 256; v++) s->scalar[k][v] |= bit;
                for (int v = 0; v < 32; v++) { s->lo[k][v] |= bit; s->hi[k][v] |= bit; }
            }
        }
    }
#ifdef LL_HAVE_X86
    __builtin_cpu_init();
    s->simd = __builtin_cpu_supports("avx2") ? 1 : 0;
#else
    s->simd = 0;
#endif
    return s;
}

void ll_anchor_set_destroy(ll_anchor_set *s) {
    if (!s) return;
    if (s->literals) for (size_t i = 0; i < s->count; i++) free(s->literals[i]);
    free(s->literals);
    free(s->lengths);
    free(s->bucket_of);
    free(s);
}

int ll_anchor_simd_available(void) {
#ifdef LL_HAVE_X86
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") ? 1 : 0;
#else
    return 0;
#endif
}

/* Verifies the literals of the buckets in `mask` at offset p. */
static inline int verify(const ll_anchor_set *s, const uint8_t *buf, size_t len, size_t p, uint8_t mask, int *which) {
    for (size_t i = 0; i < s->count; i++) {
        if (!(mask & (1u << s->bucket_of[i]))) continue;
        size_t n = s->lengths[i];
        if (p + n <= len && memcmp(buf + p, s->literals[i], n) == 0) {
            if (which) *which = (int)i;
            return 1;
        }
    }
    return 0;
}

long ll_anchor_find_scalar(const ll_anchor_set *s, const uint8_t *buf, size_t len, size_t from, int *which) {
    for (size_t p = from; p < len; p++) {
        uint8_t m = s->scalar[0][buf[p]];
        if (!m) continue;
        if (p + 1 < len) m &= s->scalar[1][buf[p + 1]];
        if (p + 2 < len) m &= s->scalar[2][buf[p + 2]];
        if (m && verify(s, buf, len, p, m, which)) return (long)p;
    }
    return -1;
}

#ifdef LL_HAVE_X86
__attribute__((target("avx2")))
static long find_avx2(const ll_anchor_set *s, const uint8_t *buf, size_t len, size_t from, int *which) {
    const __m256i nib = _mm256_set1_epi8(0x0f);
    const __m256i zero = _mm256_setzero_si256();
    const __m256i lo0 = _mm256_loadu_si256((const __m256i *)s->lo[0]);
    const __m256i hi0 = _mm256_loadu_si256((const __m256i *)s->hi[0]);
    const __m256i lo1 = _mm256_loadu_si256((const __m256i *)s->lo[1]);
    const __m256i hi1 = _mm256_loadu_si256((const __m256i *)s->hi[1]);
    const __m256i lo2 = _mm256_loadu_si256((const __m256i *)s->lo[2]);
    const __m256i hi2 = _mm256_loadu_si256((const __m256i *)s->hi[2]);
    size_t p = from;
    while (p + 32 + (LL_FP - 1) <= len) {
        __m256i v0 = _mm256_loadu_si256((const __m256i *)(buf + p));
        __m256i v1 = _mm256_loadu_si256((const __m256i *)(buf + p + 1));
        __m256i v2 = _mm256_loadu_si256((const __m256i *)(buf + p + 2));
        __m256i m = _mm256_and_si256(
            _mm256_shuffle_epi8(lo0, _mm256_and_si256(v0, nib)),
            _mm256_shuffle_epi8(hi0, _mm256_and_si256(_mm256_srli_epi16(v0, 4), nib)));
        m = _mm256_and_si256(m, _mm256_and_si256(
            _mm256_shuffle_epi8(lo1, _mm256_and_si256(v1, nib)),
            _mm256_shuffle_epi8(hi1, _mm256_and_si256(_mm256_srli_epi16(v1, 4), nib))));
        m = _mm256_and_si256(m, _mm256_and_si256(
            _mm256_shuffle_epi8(lo2, _mm256_and_si256(v2, nib)),
            _mm256_shuffle_epi8(hi2, _mm256_and_si256(_mm256_srli_epi16(v2, 4), nib))));
        uint32_t bits = ~(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(m, zero));
        if (bits) {
            uint8_t masks[32];
            _mm256_storeu_si256((__m256i *)masks, m);
            while (bits) {
                int j = __builtin_ctz(bits);
                bits &= bits - 1;
                if (verify(s, buf, len, p + (size_t)j, masks[j], which)) return (long)(p + (size_t)j);
            }
        }
        p += 32;
    }
    return ll_anchor_find_scalar(s, buf, len, p, which);
}
#endif

long ll_anchor_find(const ll_anchor_set *s, const uint8_t *buf, size_t len, size_t from, int *which) {
    if (from >= len) return -1;
#ifdef LL_HAVE_X86
    if (s->simd) return find_avx2(s, buf, len, from, which);
#endif
    return ll_anchor_find_scalar(s, buf, len, from, which);
}
