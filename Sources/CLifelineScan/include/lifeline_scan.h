#ifndef LIFELINE_SCAN_H
#define LIFELINE_SCAN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A set of literal byte strings searched for together (a "Teddy"-style SIMD prefilter:
/// a 4-byte fingerprint per literal in 8 buckets, then exact verification).
typedef struct ll_anchor_set ll_anchor_set;

/// Builds a set from `count` literals; every literal must be 1...255 bytes long.
/// Returns NULL if memory is exhausted or a literal is empty.
ll_anchor_set *ll_anchor_set_create(const char *const *literals, const size_t *lengths, size_t count);
/// Same, with the offset of each literal's 4-byte fingerprint window (-1: the rarest window by a
/// byte-frequency estimate). Pick windows that are rare in logs: they decide how often the
/// prefilter has to verify a false candidate.
ll_anchor_set *ll_anchor_set_create_windows(const char *const *literals, const size_t *lengths, const long *windows,
                                            size_t count);
void ll_anchor_set_destroy(ll_anchor_set *set);

/// Offset of the first literal occurrence that starts at or after `from` and lies wholly inside
/// buf[0, len), or -1. `*which` (if not NULL) receives the index of the literal found.
/// When several literals start at the same offset, the lowest index wins.
long ll_anchor_find(const ll_anchor_set *set, const uint8_t *buf, size_t len, size_t from, int *which);

/// Same as ll_anchor_find, but never uses SIMD (for tests that compare both paths).
long ll_anchor_find_scalar(const ll_anchor_set *set, const uint8_t *buf, size_t len, size_t from, int *which);

/// 1 when the SIMD path is in use on this machine.
int ll_anchor_simd_available(void);

#ifdef __cplusplus
}
#endif
#endif

#ifndef LIFELINE_SCAN_MEMMEM
#define LIFELINE_SCAN_MEMMEM
#ifdef __cplusplus
extern "C" {
#endif
/// Offset of `needle` in `haystack`, or -1 (memmem, available on every platform).
long ll_find_bytes(const uint8_t *haystack, size_t len, const uint8_t *needle, size_t nlen);
#ifdef __cplusplus
}
#endif
#endif
