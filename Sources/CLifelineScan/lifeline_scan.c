// SIMD literal prefilter for Lifeline's hot path.
//
// Each literal gets a bucket (0..7). For the four bytes of its fingerprint window we keep, per bucket, which
// low and high nibbles may occur there. A position p is a candidate for bucket b when the bytes at
// p..p+3 all allow b; candidates are verified with memcmp. With AVX2 this checks 32 positions
// per step with eight shuffles, which is what lets Lifeline skip the ~95% of log lines that mention
// nothing it looks for at close to memory speed.
#include "lifeline_scan.h"

#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define LL_HAVE_X86 1
#include <immintrin.h>
#endif

#define LL_FP 4          /* fingerprint length */
#define LL_BUCKETS 8

struct ll_anchor_set {
    size_t count;
    uint8_t **literals;
    size_t *lengths;
    size_t *window;                  /* offset of the fingerprint window inside each literal */
    uint64_t *prefix, *prefix_mask;  /* first (up to) 8 bytes, for a quick reject */
    size_t *bucket_members[LL_BUCKETS];
    size_t bucket_size[LL_BUCKETS];
    uint8_t scalar[LL_FP][256];      /* bucket mask allowed for each byte value at each position */
    uint8_t lo[LL_FP][32];           /* low-nibble masks, duplicated for both 128-bit lanes */
    uint8_t hi[LL_FP][32];           /* high-nibble masks */
    uint8_t exact[8192];             /* 64 Kbit set of the fingerprints' hashed 4-byte windows */
    uint8_t exact2[8192];            /* 64 Kbit set of the first two bytes of literals shorter than a window */
    uint8_t short_bucket;            /* bucket bit of literals shorter than a fingerprint, or 0 */
    int simd;
};

static inline uint32_t window_hash(const uint8_t *w) {
    uint32_t v;
    memcpy(&v, w, 4);
    return (v * 0x9E3779B1u) >> 16;
}

/* Rough frequency of a byte in log text (higher = more common); used to fingerprint each literal
 * at its rarest three bytes, which keeps false candidates (and verification) rare. */
static double byte_weight(uint8_t c) {
    static const double lower[26] = {8.2, 1.5, 2.8, 4.3, 12.7, 2.2, 2.0, 6.1, 7.0, 0.15, 0.8, 4.0, 2.4,
                                     6.7, 7.5, 1.9, 0.1, 6.0, 6.3, 9.1, 2.8, 1.0, 2.4, 0.15, 2.0, 0.07};
    if (c >= 'a' && c <= 'z') return lower[c - 'a'];
    if (c >= 'A' && c <= 'Z') return 1.2;
    if (c >= '0' && c <= '9') return 3.0;
    if (c == ' ') return 15.0;
    if (c == ':' || c == '.' || c == '-' || c == ',' || c == '[' || c == ']' || c == '(' || c == ')') return 2.5;
    return 0.8;
}

static size_t rarest_window(const uint8_t *lit, size_t n) {
    if (n <= LL_FP) return 0;
    size_t best = 0;
    double best_score = 1e300;
    for (size_t w = 0; w + LL_FP <= n; w++) {
        double score = 1;
        for (int k = 0; k < LL_FP; k++) score *= byte_weight(lit[w + k]);
        if (score < best_score) { best_score = score; best = w; }
    }
    return best;
}

static void add_to_masks(ll_anchor_set *s, const uint8_t *fp, size_t fplen, uint8_t bit) {
    for (int k = 0; k < LL_FP; k++) {
        if ((size_t)k < fplen) {
            uint8_t c = fp[k];
            s->scalar[k][c] |= bit;
            s->lo[k][c & 15] |= bit;
            s->lo[k][16 + (c & 15)] |= bit;
            s->hi[k][c >> 4] |= bit;
            s->hi[k][16 + (c >> 4)] |= bit;
        } else {
            for (int v = 0; v < 256; v++) s->scalar[k][v] |= bit;
            for (int v = 0; v < 32; v++) { s->lo[k][v] |= bit; s->hi[k][v] |= bit; }
        }
    }
}

/* Number of 4-byte sequences a bucket accepts when it holds the fingerprints assigned to it (`plus`
 * added, `minus` removed): per position, accepted low nibbles times accepted high nibbles (the nibble
 * split makes a bucket accept cross-products of its fingerprints), multiplied over the positions.
 * Counting byte values (rather than weighting them by frequency) keeps buckets from saturating. */
static double volume_of(uint8_t (*fps)[LL_FP], const int *assign, int nfp, int bucket, int plus, int minus) {
    double volume = 1;
    for (int k = 0; k < LL_FP; k++) {
        uint16_t lo = 0, hi = 0;
        int any = 0;
        for (int f = 0; f < nfp; f++) {
            int member = (assign[f] == bucket && f != minus) || f == plus;
            if (!member) continue;
            any = 1;
            lo |= (uint16_t)(1u << (fps[f][k] & 15));
            hi |= (uint16_t)(1u << (fps[f][k] >> 4));
        }
        if (!any) return 0;
        volume *= (double)(__builtin_popcount(lo) * __builtin_popcount(hi));
    }
    return volume;
}

ll_anchor_set *ll_anchor_set_create(const char *const *literals, const size_t *lengths, size_t count) {
    return ll_anchor_set_create_windows(literals, lengths, NULL, count);
}

ll_anchor_set *ll_anchor_set_create_windows(const char *const *literals, const size_t *lengths, const long *windows,
                                            size_t count) {
    ll_anchor_set *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    size_t c1 = count ? count : 1;
    s->count = count;
    s->literals = calloc(c1, sizeof *s->literals);
    s->lengths = calloc(c1, sizeof *s->lengths);
    s->window = calloc(c1, sizeof *s->window);
    s->prefix = calloc(c1, sizeof *s->prefix);
    s->prefix_mask = calloc(c1, sizeof *s->prefix_mask);
    for (int b = 0; b < LL_BUCKETS; b++) s->bucket_members[b] = calloc(c1, sizeof(size_t));
    if (!s->literals || !s->lengths || !s->window || !s->prefix || !s->prefix_mask) { ll_anchor_set_destroy(s); return NULL; }
    for (int b = 0; b < LL_BUCKETS; b++) if (!s->bucket_members[b]) { ll_anchor_set_destroy(s); return NULL; }

    for (size_t i = 0; i < count; i++) {
        size_t n = lengths[i];
        if (n == 0 || n > 255) { ll_anchor_set_destroy(s); return NULL; }
        s->literals[i] = malloc(n);
        if (!s->literals[i]) { ll_anchor_set_destroy(s); return NULL; }
        memcpy(s->literals[i], literals[i], n);
        s->lengths[i] = n;
        long w = windows ? windows[i] : -1;
        s->window[i] = (w >= 0 && (size_t)w + LL_FP <= n) ? (size_t)w : rarest_window(s->literals[i], n);
        uint64_t pre = 0, mask = 0;
        for (size_t k = 0; k < 8 && k < n; k++) { pre |= (uint64_t)s->literals[i][k] << (8 * k); mask |= (uint64_t)0xFF << (8 * k); }
        s->prefix[i] = pre;
        s->prefix_mask[i] = mask;
    }
    /* Buckets: literals shorter than the fingerprint (wildcards) get the last bucket to themselves;
     * distinct fingerprints of the others are spread over the remaining buckets greedily,
     * each where it adds least volume. (A hill-climb on the same measure, and weighting bytes by
     * their frequency in logs, were both tried: each merges fingerprints into one saturated bucket
     * and makes the search several times slower.) */
    int *fp_of = calloc(c1, sizeof(int));
    uint8_t (*fps)[LL_FP] = calloc(c1, sizeof *fps);
    int *assign = calloc(c1, sizeof(int));
    if (!fp_of || !fps || !assign) { free(fp_of); free(fps); free(assign); ll_anchor_set_destroy(s); return NULL; }
    int have_short = 0;
    for (size_t i = 0; i < count; i++) if (s->lengths[i] < LL_FP) have_short = 1;
    int long_buckets = have_short ? LL_BUCKETS - 1 : LL_BUCKETS;
    int nfp = 0;
    for (size_t i = 0; i < count; i++) {
        if (s->lengths[i] < LL_FP) { fp_of[i] = -1; continue; }
        const uint8_t *fp = s->literals[i] + s->window[i];
        int found = -1;
        for (int f = 0; f < nfp && found < 0; f++) if (memcmp(fps[f], fp, LL_FP) == 0) found = f;
        if (found < 0) { memcpy(fps[nfp], fp, LL_FP); found = nfp++; }
        fp_of[i] = found;
    }
    for (int f = 0; f < nfp; f++) {
        double best = 1e300;
        int chosen = 0;
        assign[f] = -1;
        for (int b = 0; b < long_buckets; b++) {
            /* Cost of a bucket: false candidates it accepts times the fingerprints each is verified
             * against. A saturated bucket is then no cheaper home than any other. */
            int members = 0;
            for (int g = 0; g < f; g++) members += assign[g] == b;
            double before = volume_of(fps, assign, f, b, -1, -1) * members;
            double c = volume_of(fps, assign, f, b, f, -1) * (members + 1) - before;
            if (c < best) { best = c; chosen = b; }
        }
        assign[f] = chosen;
    }
    for (size_t i = 0; i < count; i++) {
        int chosen = fp_of[i] < 0 ? LL_BUCKETS - 1 : assign[fp_of[i]];
        size_t fplen = s->lengths[i] < LL_FP ? s->lengths[i] : LL_FP;
        add_to_masks(s, s->literals[i] + s->window[i], fplen, (uint8_t)(1u << chosen));
        s->bucket_members[chosen][s->bucket_size[chosen]++] = i;
        if (fplen == LL_FP) {
            uint32_t h = window_hash(s->literals[i] + s->window[i]);
            s->exact[h >> 3] |= (uint8_t)(1u << (h & 7));
        } else {
            s->short_bucket = (uint8_t)(1u << chosen);
            uint16_t two = (uint16_t)(s->literals[i][0] | (s->lengths[i] > 1 ? s->literals[i][1] << 8 : 0));
            if (s->lengths[i] > 1) s->exact2[two >> 3] |= (uint8_t)(1u << (two & 7));
            else for (int v = 0; v < 256; v++) { uint16_t t = (uint16_t)(s->literals[i][0] | v << 8); s->exact2[t >> 3] |= (uint8_t)(1u << (t & 7)); }
        }
    }
    free(fp_of);
    free(fps);
    free(assign);
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
    free(s->window);
    free(s->prefix);
    free(s->prefix_mask);
    for (int b = 0; b < LL_BUCKETS; b++) free(s->bucket_members[b]);
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

/* Verifies the literals of the buckets in `mask` whose fingerprint window sits at q. Returns the
 * literal's start offset (>= from), or -1. Literal starts and q lie on the same line when no literal
 * contains a newline, so results come in line order. */
static inline long verify(const ll_anchor_set *s, const uint8_t *buf, size_t len, size_t from, size_t q,
                          uint8_t mask, int *which) {
    /* Most candidates are nibble cross-products, not real fingerprints: one bitmap probe drops them. */
    if (q + LL_FP <= len && (mask & ~s->short_bucket)) {
        uint32_t h = window_hash(buf + q);
        if (!(s->exact[h >> 3] & (1u << (h & 7)))) mask &= s->short_bucket;
        if (!mask) return -1;
    }
    while (mask) {
        int b = __builtin_ctz(mask);
        mask &= (uint8_t)(mask - 1);
        for (size_t m = 0; m < s->bucket_size[b]; m++) {
            size_t i = s->bucket_members[b][m];
            size_t w = s->window[i];
            if (q < from + w) continue;
            size_t start = q - w, n = s->lengths[i];
            if (start + n > len) continue;
            if (start + 8 <= len) {
                uint64_t v;
                memcpy(&v, buf + start, 8);
                if ((v & s->prefix_mask[i]) != s->prefix[i]) continue;
                if (n <= 8 || memcmp(buf + start + 8, s->literals[i] + 8, n - 8) == 0) {
                    if (which) *which = (int)i;
                    return (long)start;
                }
            } else if (memcmp(buf + start, s->literals[i], n) == 0) {
                if (which) *which = (int)i;
                return (long)start;
            }
        }
    }
    return -1;
}

/* Scalar scan of fingerprint windows starting at q0 or later, for literals starting at or after
 * `from` (a literal may start before q0 when its window does not). */
static long scan_scalar(const ll_anchor_set *s, const uint8_t *buf, size_t len, size_t from, size_t q0, int *which) {
    for (size_t q = q0; q < len; q++) {
        uint8_t m = s->scalar[0][buf[q]];
        if (!m) continue;
        for (int k = 1; k < LL_FP && m; k++) if (q + (size_t)k < len) m &= s->scalar[k][buf[q + (size_t)k]];
        if (m) {
            long r = verify(s, buf, len, from, q, m, which);
            if (r >= 0) return r;
        }
    }
    return -1;
}

long ll_anchor_find_scalar(const ll_anchor_set *s, const uint8_t *buf, size_t len, size_t from, int *which) {
    return scan_scalar(s, buf, len, from, from, which);
}

#ifdef LL_HAVE_X86
/* Bucket bits of the fingerprint windows starting at each of the 32 positions from p. */
#define LL_TEDDY(p)                                                                                    \
    ({                                                                                                 \
        __m256i v0 = _mm256_loadu_si256((const __m256i *)(p));                                         \
        __m256i v1 = _mm256_loadu_si256((const __m256i *)((p) + 1));                                   \
        __m256i v2 = _mm256_loadu_si256((const __m256i *)((p) + 2));                                   \
        __m256i v3 = _mm256_loadu_si256((const __m256i *)((p) + 3));                                   \
        __m256i r = _mm256_and_si256(                                                                  \
            _mm256_shuffle_epi8(lo0, _mm256_and_si256(v0, nib)),                                       \
            _mm256_shuffle_epi8(hi0, _mm256_and_si256(_mm256_srli_epi16(v0, 4), nib)));                \
        r = _mm256_and_si256(r, _mm256_and_si256(                                                      \
            _mm256_shuffle_epi8(lo1, _mm256_and_si256(v1, nib)),                                       \
            _mm256_shuffle_epi8(hi1, _mm256_and_si256(_mm256_srli_epi16(v1, 4), nib))));               \
        r = _mm256_and_si256(r, _mm256_and_si256(                                                      \
            _mm256_shuffle_epi8(lo2, _mm256_and_si256(v2, nib)),                                       \
            _mm256_shuffle_epi8(hi2, _mm256_and_si256(_mm256_srli_epi16(v2, 4), nib))));               \
        r = _mm256_and_si256(r, _mm256_and_si256(                                                      \
            _mm256_shuffle_epi8(lo3, _mm256_and_si256(v3, nib)),                                       \
            _mm256_shuffle_epi8(hi3, _mm256_and_si256(_mm256_srli_epi16(v3, 4), nib))));               \
        r;                                                                                             \
    })

/* Checks the candidates of one 32-byte block; most are nibble cross-products, dropped with the
 * exact-window bitmaps before the bucket masks are read or literals verified. */
__attribute__((target("avx2")))
static inline long block_candidates(const ll_anchor_set *s, const uint8_t *buf, size_t len, size_t from, size_t q,
                                    __m256i m, int *which) {
    uint32_t bits = ~(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(m, _mm256_setzero_si256()));
    uint8_t masks[32];
    int stored = 0;
    while (bits) {
        int j = __builtin_ctz(bits);
        bits &= bits - 1;
        const uint8_t *w = buf + q + (size_t)j;
        uint32_t h = window_hash(w);
        uint16_t two = (uint16_t)(w[0] | w[1] << 8);
        if (!((s->exact[h >> 3] >> (h & 7)) & 1) && !((s->exact2[two >> 3] >> (two & 7)) & 1)) continue;
        if (!stored) { _mm256_storeu_si256((__m256i *)masks, m); stored = 1; }
        long r = verify(s, buf, len, from, q + (size_t)j, masks[j], which);
        if (r >= 0) return r;
    }
    return -1;
}

__attribute__((target("avx2")))
static long find_avx2(const ll_anchor_set *s, const uint8_t *buf, size_t len, size_t from, int *which) {
    const __m256i nib = _mm256_set1_epi8(0x0f);
    const __m256i lo0 = _mm256_loadu_si256((const __m256i *)s->lo[0]);
    const __m256i hi0 = _mm256_loadu_si256((const __m256i *)s->hi[0]);
    const __m256i lo1 = _mm256_loadu_si256((const __m256i *)s->lo[1]);
    const __m256i hi1 = _mm256_loadu_si256((const __m256i *)s->hi[1]);
    const __m256i lo2 = _mm256_loadu_si256((const __m256i *)s->lo[2]);
    const __m256i hi2 = _mm256_loadu_si256((const __m256i *)s->hi[2]);
    const __m256i lo3 = _mm256_loadu_si256((const __m256i *)s->lo[3]);
    const __m256i hi3 = _mm256_loadu_si256((const __m256i *)s->hi[3]);
    size_t q = from;
    /* 64 bytes a step: two independent chains, one test for the usual case of no candidate. */
    while (q + 64 + (LL_FP - 1) <= len) {
        __m256i ma = LL_TEDDY(buf + q);
        __m256i mb = LL_TEDDY(buf + q + 32);
        __m256i any = _mm256_or_si256(ma, mb);
        if (!_mm256_testz_si256(any, any)) {
            long r = block_candidates(s, buf, len, from, q, ma, which);
            if (r >= 0) return r;
            r = block_candidates(s, buf, len, from, q + 32, mb, which);
            if (r >= 0) return r;
        }
        q += 64;
    }
    while (q + 32 + (LL_FP - 1) <= len) {
        __m256i m = LL_TEDDY(buf + q);
        if (!_mm256_testz_si256(m, m)) {
            long r = block_candidates(s, buf, len, from, q, m, which);
            if (r >= 0) return r;
        }
        q += 32;
    }
    return scan_scalar(s, buf, len, from, q, which);
}
#endif

long ll_anchor_find(const ll_anchor_set *s, const uint8_t *buf, size_t len, size_t from, int *which) {
    if (from >= len) return -1;
#ifdef LL_HAVE_X86
    if (s->simd) return find_avx2(s, buf, len, from, which);
#endif
    return ll_anchor_find_scalar(s, buf, len, from, which);
}

long ll_find_bytes(const uint8_t *haystack, size_t len, const uint8_t *needle, size_t nlen) {
    if (nlen == 0) return 0;
    if (nlen > len) return -1;
#if defined(__GLIBC__) || defined(__APPLE__)
    extern void *memmem(const void *, size_t, const void *, size_t);
    const uint8_t *p = memmem(haystack, len, needle, nlen);
    return p ? (long)(p - haystack) : -1;
#else
    for (size_t i = 0; i + nlen <= len; i++)
        if (haystack[i] == needle[0] && memcmp(haystack + i, needle, nlen) == 0) return (long)i;
    return -1;
#endif
}
