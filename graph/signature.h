/* signature.h: the structure of the graph under a set of outputs, as a plan sees it.
 *
 * Two graphs with equal signatures fuse into the same plan and the same kernels:
 * the same ops, dtypes, shapes, views, leaf strides and offsets mod 16, the
 * same sharing of nodes, the same aliasing of storage between leaves (with
 * their offsets' differences, in a graph that writes), and the same outputs in
 * the same order. What a signature leaves out is bound when a plan runs: the
 * leaves' storage and offsets and the values of constants and aranges.
 *
 * `key` is computed from the outputs' skeys alone (each node's skey is made
 * when the node is built), so finding a candidate plan costs no walk; `words`
 * is the exact structure, compared word for word before a plan is reused, so
 * that a hash collision can never reuse a plan. The walk that fills `words`
 * also lists the leaves a reused plan binds.
 */
#ifndef LC_GRAPH_SIGNATURE_H
#define LC_GRAPH_SIGNATURE_H

#include "graph/walk.h"

#include <stdint.h>

struct lc_graph_sig {
    uint64_t key;
    struct lc_walk walk;     /* the nodes, topological (lc_graph_walk's order) */
    uint64_t *words;
    size_t n_words, cap_words;
};

/* The candidate key of `outs` forced with `flags`: no walk. */
uint64_t lc_graph_key(struct lc_node *const *outs, size_t n_outs, unsigned flags);
/* Fill s (key, walk, words). On failure nothing is held. */
lc_status lc_graph_sig_make(struct lc_node *const *outs, size_t n_outs, unsigned flags,
                            struct lc_graph_sig *s, struct lc_error *e);
/* 1 when a and b describe the same structure. */
int lc_graph_sig_equal(const uint64_t *a, size_t na, const uint64_t *b, size_t nb);
void lc_graph_sig_free(struct lc_graph_sig *s);

#endif
