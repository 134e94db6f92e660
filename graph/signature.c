/* signature.c: a graph's structure as a plan sees it: a key, and the exact words. */
#include "graph/signature.h"

#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

uint64_t lc_graph_key(struct lc_node *const *outs, size_t n_outs, unsigned flags)
{
    XXH64_hash_t h = XXH3_64bits_withSeed(&flags, sizeof flags, (XXH64_hash_t)n_outs);
    for (size_t r = 0; r < n_outs; r++)
        h = XXH3_64bits_withSeed(&outs[r]->skey, sizeof outs[r]->skey, h);
    return h;
}

static int lc_sig_put(struct lc_graph_sig *s, uint64_t w)
{
    if (s->n_words == s->cap_words) {
        size_t ncap = s->cap_words ? s->cap_words * 2 : 64;
        void *nw = realloc(s->words, ncap * sizeof *s->words);
        if (!nw)
            return -1;
        s->words = nw;
        s->cap_words = ncap;
    }
    s->words[s->n_words++] = w;
    return 0;
}

lc_status lc_graph_sig_make(struct lc_node *const *outs, size_t n_outs, unsigned flags,
                            struct lc_graph_sig *s, struct lc_error *e)
{
    memset(s, 0, sizeof *s);
    s->key = lc_graph_key(outs, n_outs, flags);
    lc_status st = lc_graph_walk(outs, n_outs, &s->walk, e);
    if (st != LC_OK)
        return st;
    /* Per node: its skey, its inputs' places (sharing), and for a buffer leaf
     * the place of the first leaf on the same storage (aliasing) and, in a
     * graph that writes more than one element per store (a store reads its
     * target's storage in place or not, fusion/place.c), their offsets' difference. Where an array lies in its
     * storage is not structure (LC_FROM_OFFSET): the slices C[:, i:i+1] of a
     * loop share one plan. Then the outputs' places and the flags. (Fusion relies on the
     * offsets being held in a graph that writes: fusion/internal.h's offsets_fixed.) */
    int writes = 0;
    for (size_t i = 0; i < s->walk.n; i++) {
        const struct lc_node *n = s->walk.order[i];
        /* A store of one element reads everything before it writes (fusion/place.c):
         * where its reads lie is not structure, so A[i, j] -= dot(A[i, :j], A[j, :j]) has
         * one plan for every i. */
        writes |= lc_op_kind(n->op) == LC_KIND_STORE && lc_shape_size(n->ndim, n->shape) != 1;
    }
    struct lc_ptrmap storage = {0};
    int oom = lc_sig_put(s, (uint64_t)s->walk.n) < 0;
    for (size_t i = 0; i < s->walk.n && !oom; i++) {
        const struct lc_node *n = s->walk.order[i];
        oom |= lc_sig_put(s, n->skey) < 0;
        for (int j = 0; j < n->n_in; j++)
            oom |= lc_sig_put(s, (uint64_t)lc_walk_index(&s->walk, n->in[j])) < 0;
        if (n->op == LC_OP_BUFFER && !oom) {
            int added = lc_ptrmap_put(&storage, n->storage, (long)i);
            oom |= added < 0;
            long first = lc_ptrmap_get(&storage, n->storage);
            oom |= lc_sig_put(s, (uint64_t)first) < 0;
            if (writes && first >= 0 && (size_t)first != i)
                oom |= lc_sig_put(s, (uint64_t)(n->offset - s->walk.order[first]->offset)) < 0;
        }
    }
    for (size_t r = 0; r < n_outs && !oom; r++)
        oom |= lc_sig_put(s, (uint64_t)lc_walk_index(&s->walk, outs[r])) < 0;
    oom = oom || lc_sig_put(s, flags) < 0;
    lc_ptrmap_free(&storage);
    if (oom) {
        lc_graph_sig_free(s);
        return lc_error_set(e, LC_ERR_NOMEM, "out of host memory walking the graph");
    }
    return LC_OK;
}

int lc_graph_sig_equal(const uint64_t *a, size_t na, const uint64_t *b, size_t nb)
{
    return na == nb && !memcmp(a, b, na * sizeof *a);
}

void lc_graph_sig_free(struct lc_graph_sig *s)
{
    lc_walk_free(&s->walk);
    free(s->words);
    memset(s, 0, sizeof *s);
}
