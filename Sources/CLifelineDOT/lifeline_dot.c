/*
 * lifeline_dot.c — see include/lifeline_dot.h.
 */
#include "lifeline_dot.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>


typedef struct {
    Agraph_t *g;           /* the root graph, whose string pool holds the names */
    char **names;          /* names[k] has id 2 * (k + 1); each holds one reference in the pool */
    size_t count, capacity;
    size_t *slots;         /* open-addressing table of k + 1 (0: empty), by name hash */
    size_t slot_count;     /* a power of two, at least twice count */
    IDTYPE next_anonymous; /* odd */
} lifeline_ids;

static size_t lifeline_ids_hash(const char *s) {
    size_t h = 1469598103934665603ULL;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h;
}

static void *lifeline_ids_open(Agraph_t *g, Agdisc_t *disc) {
    (void)disc;
    lifeline_ids *ids = calloc(1, sizeof *ids);
    if (ids) {
        ids->g = g;
        ids->next_anonymous = 1;
    }
    return ids;
}

/* The index + 1 of `name`'s slot content, 0 when absent; `*slot` is where it is or would go. */
static size_t lifeline_ids_find(lifeline_ids *ids, const char *name, size_t *slot) {
    size_t mask = ids->slot_count - 1, i = lifeline_ids_hash(name) & mask;
    while (ids->slots[i] != 0) {
        if (strcmp(ids->names[ids->slots[i] - 1], name) == 0) { *slot = i; return ids->slots[i]; }
        i = (i + 1) & mask;
    }
    *slot = i;
    return 0;
}

static int lifeline_ids_grow(lifeline_ids *ids) {
    if (ids->count == ids->capacity) {
        size_t capacity = ids->capacity ? ids->capacity * 2 : 64;
        char **names = realloc(ids->names, capacity * sizeof *names);
        if (!names) return 0;
        ids->names = names;
        ids->capacity = capacity;
    }
    if ((ids->count + 1) * 2 > ids->slot_count) {
        size_t slot_count = ids->slot_count ? ids->slot_count * 2 : 128;
        size_t *slots = calloc(slot_count, sizeof *slots);
        if (!slots) return 0;
        free(ids->slots);
        ids->slots = slots;
        ids->slot_count = slot_count;
        for (size_t k = 0; k < ids->count; k++) {
            size_t slot;
            lifeline_ids_find(ids, ids->names[k], &slot);
            ids->slots[slot] = k + 1;
        }
    }
    return 1;
}

static long lifeline_ids_map(void *state, int objtype, char *str, IDTYPE *id, int createflag) {
    (void)objtype;
    lifeline_ids *ids = state;
    if (!ids) return 0;
    if (!str) {
        *id = ids->next_anonymous;
        ids->next_anonymous += 2;
        return 1;
    }
    size_t slot = 0, found = ids->slot_count ? lifeline_ids_find(ids, str, &slot) : 0;
    if (found) {
        *id = (IDTYPE)found * 2;
        return 1;
    }
    if (!createflag) return 0;
    if (!lifeline_ids_grow(ids)) return 0;
    /* Interned in the graph's pool, as cgraph's own discipline does: writers ask the pool whether
       a name is an HTML-like string. */
    char *name = agstrdup(ids->g, str);
    if (!name) return 0;
    lifeline_ids_find(ids, str, &slot);
    ids->names[ids->count++] = name;
    ids->slots[slot] = ids->count;
    *id = (IDTYPE)ids->count * 2;
    return 1;
}

/* Ids are never chosen by the caller, as in cgraph's own discipline. */
static long lifeline_ids_alloc(void *state, int objtype, IDTYPE request) {
    (void)state; (void)objtype; (void)request;
    return 0;
}

/* Names live until the graph is closed, so an id never comes to stand for another name. */
static void lifeline_ids_free(void *state, int objtype, IDTYPE id) {
    (void)state; (void)objtype; (void)id;
}

static char *lifeline_ids_print(void *state, int objtype, IDTYPE id) {
    (void)objtype;
    lifeline_ids *ids = state;
    if (!ids || id == 0 || id % 2 != 0 || id / 2 > ids->count) return NULL;
    return ids->names[id / 2 - 1];
}

static void lifeline_ids_close(void *state) {
    lifeline_ids *ids = state;
    if (!ids) return;
    /* cgraph closes the id discipline before the string pool. */
    for (size_t k = 0; k < ids->count; k++) agstrfree(ids->g, ids->names[k]);
    free(ids->names);
    free(ids->slots);
    free(ids);
}

static void lifeline_ids_register(void *state, int objtype, void *obj) {
    (void)state; (void)objtype; (void)obj;
}

static Agiddisc_t lifeline_id_disc = {
    lifeline_ids_open, lifeline_ids_map, lifeline_ids_alloc, lifeline_ids_free,
    lifeline_ids_print, lifeline_ids_close, lifeline_ids_register,
};

typedef struct {
    const char *text;
    size_t length, at;
} lifeline_dot_reader;

/* Hands the parser one line at a time (as agmemread does), at most `size` bytes. */
static int lifeline_dot_read(void *channel, char *buffer, int size) {
    lifeline_dot_reader *r = channel;
    if (size <= 0 || r->at >= r->length) return 0;
    size_t n = 0;
    while (n < (size_t)size && r->at + n < r->length) {
        char c = r->text[r->at + n++];
        if (c == '\n') break;
    }
    memcpy(buffer, r->text + r->at, n);
    r->at += n;
    return (int)n;
}

/* Writing (never done with these graphs) goes through cgraph's own functions, set on first read. */
static Agiodisc_t lifeline_dot_io = { lifeline_dot_read, NULL, NULL };

Agraph_t *lifeline_read_dot(const char *text) {
    lifeline_dot_io.afread = lifeline_dot_read;
    lifeline_dot_io.putstr = AgIoDisc.putstr;
    lifeline_dot_io.flush = AgIoDisc.flush;
    Agdisc_t disc = { &AgMemDisc, &lifeline_id_disc, &lifeline_dot_io };
    lifeline_dot_reader reader = { text, strlen(text), 0 };
    return agread(&reader, &disc);
}

