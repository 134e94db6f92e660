/* walk.h: iterative walks of the DAG (no recursion: a chain of a million nodes
 * must not overflow a stack), and the pointer map they index nodes with. */
#ifndef LC_GRAPH_WALK_H
#define LC_GRAPH_WALK_H

#include "graph/graph.h"

#include <stddef.h>

/* A map from non-NULL pointers to longs. Zero-initialize to start. (The walk's
 * index below is one keyed by node serials instead.) */
struct lc_ptrmap_slot {
    uint64_t key;            /* 0: an empty slot */
    long value;
};
struct lc_ptrmap {
    struct lc_ptrmap_slot *slots;
    size_t cap, n;
};
/* The value of key, or -1 when absent. */
long lc_ptrmap_get(const struct lc_ptrmap *m, const void *key);
/* 1 if added, 0 if present (the value is left alone), -1 on no memory. */
int lc_ptrmap_put(struct lc_ptrmap *m, const void *key, long value);
void lc_ptrmap_free(struct lc_ptrmap *m);

/* What one walk did, counted so that tests bound its growth without a clock.
 * Each count is at most a constant times the nodes and edges walked (a lookup
 * probes O(1) slots on average; growth by doubling moves each entry O(1) times). */
struct lc_walk_stats {
    size_t edges;    /* outputs and inputs looked up in the index */
    size_t probes;   /* index slots examined, by lookups and by growth */
    size_t moved;    /* index entries moved when the index grew */
    size_t allocs;   /* blocks allocated or grown: index, order, stack */
};

/* The nodes under some outputs, each once, inputs before their consumers. The
 * order depends only on the graph's shape: the outputs in order, each node's
 * inputs in order, depth first. `index` maps each node (by serial) to its place. */
struct lc_walk {
    struct lc_node **order;  /* borrowed */
    size_t n, cap;
    struct lc_ptrmap index;
    struct lc_walk_stats stats;
};
lc_status lc_graph_walk(struct lc_node *const *outs, size_t n_outs, struct lc_walk *w,
                        struct lc_error *e);
/* The topological index of n in w, or -1. */
long lc_walk_index(const struct lc_walk *w, const struct lc_node *n);
void lc_walk_free(struct lc_walk *w);

/* 1 if every value under n is computed to the same bits by every code path of a device
 * (scalar or SIMD, any schedule): no transcendental math (libm's vector and scalar forms may
 * differ in the last place), no normal random source, no user function; else 0; -1 with e
 * set on no memory. Basic arithmetic, comparisons, casts, sqrt and rounding are correctly
 * rounded everywhere. */
int lc_graph_exact(struct lc_node *n, struct lc_error *e);

#endif
