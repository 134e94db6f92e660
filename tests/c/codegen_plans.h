/* codegen_plans.h: the plans test_codegen.c generates code for (build(), by index; names[],
 * the golden files' stems), each at a size `scale`. Only test_codegen.c includes it. */
#ifndef LC_CODEGEN_PLANS_H
#define LC_CODEGEN_PLANS_H

#include "lc_test.h"

/* relu(x @ y + bias) as the Python layer builds a matmul: x (M x K) as (M, 1, K) times y's
 * transpose as (1, N, K), summed over K (axis 2). x is borrowed; y and bias are taken. */
static struct lc_node *relu_matmul(struct lc_node *x, struct lc_node *y, struct lc_node *bias,
                                   int64_t M, int64_t K, int64_t N)
{
    int64_t perm[2] = {1, 0}, a3[3] = {M, 1, K}, b3[3] = {1, N, K};
    struct lc_node *xa = lc_node_reshape(x, 3, a3, &err);
    struct lc_node *yt = lc_node_permute(y, perm, &err);
    struct lc_node *yb = lc_node_reshape(yt, 3, b3, &err);
    struct lc_node *p = R(LC_OP_SUM, B(LC_OP_MUL, xa, yb), 4, 0);
    lc_node_release(yt);
    lc_node_release(y);
    return B(LC_OP_MAXIMUM, B(LC_OP_ADD, p, bias), scalar(0.0));
}

/* The plans, built at a size; `which` picks one. */
/* bincount(i, weights=x, minlength=bins)'s store: n float32 values widened to float64, added
 * into bins places at int64 indices. */
static struct lc_node *bincount_like(int64_t bins, int64_t n)
{
    int64_t sb[1] = {bins}, sn[1] = {n};
    struct lc_node *t = leaf(LC_FLOAT64, 1, sb), *i = leaf(LC_INT64, 1, sn);
    struct lc_node *x = leaf(LC_FLOAT32, 1, sn);
    struct lc_node *g = lc_node_gather(t, i, 0, 0, &err);
    struct lc_node *v = lc_node_cast(x, LC_FLOAT64, &err);
    struct lc_node *o = g && v ? lc_node_store(g, v, NULL, LC_OP_ADD, &err) : NULL;
    lc_node_release(t);
    lc_node_release(i);
    lc_node_release(g);
    lc_node_release(v);
    lc_node_release(x);
    return o;
}

/* x[x > 0.5] as GPUs compact it: a store of x of dtype dt (n elements) into a result of nout
 * elements, each kept element at its running count less one (an int32 scan of the mask the
 * store computes); with `count`, the mask's sum (the result's length) in *count. */
static struct lc_node *compaction(int dt, int64_t n, int64_t nout, struct lc_node **count)
{
    int64_t sx[1] = {n}, so[1] = {nout};
    struct lc_node *x = leaf(dt, 1, sx), *out = leaf(dt, 1, so);
    struct lc_node *m = B(LC_OP_GT, ref(x), scalar(0.5));
    struct lc_node *one = lc_node_cast(m, LC_INT32, &err);
    struct lc_node *run = lc_node_scan(LC_OP_CUMSUM, one, 0, &err);
    struct lc_node *slot = B(LC_OP_SUB, run, iscalar(1));
    struct lc_node *g = lc_node_gather(out, slot, 0, LC_GATHER_CLAMPED, &err);
    struct lc_node *st = g ? lc_node_store(g, x, m, 0, &err) : NULL;
    if (count)
        *count = lc_node_reduce(LC_OP_SUM, one, 1u, 0, 0, &err);
    lc_node_release(g);
    lc_node_release(slot);
    lc_node_release(one);
    lc_node_release(m);
    lc_node_release(out);
    lc_node_release(x);
    return st;
}

static size_t build(int which, int64_t scale, struct lc_node **outs)
{
    int64_t s1[1] = {1000 * scale}, s2[2] = {64 * scale, 100 * scale};
    struct lc_node *x, *y;
    switch (which) {
    case 0: /* map: exp(x) * y + 1.5 over f32 */
        x = leaf(LC_FLOAT32, 1, s1);
        y = leaf(LC_FLOAT32, 1, s1);
        outs[0] = B(LC_OP_ADD, B(LC_OP_MUL, U(LC_OP_EXP, x), y), scalar(1.5));
        return 1;
    case 1: /* full reduction: sum((x - y)**2) */
        x = leaf(LC_FLOAT32, 1, s1);
        y = leaf(LC_FLOAT32, 1, s1);
        {
            struct lc_node *d = B(LC_OP_SUB, x, y);
            outs[0] = R(LC_OP_SUM, B(LC_OP_MUL, ref(d), ref(d)), 1, 0);
            lc_node_release(d);
        }
        return 1;
    case 2: /* row reduction, mean and var siblings with a sqrt epilogue (std) */
        x = leaf(LC_FLOAT64, 2, s2);
        outs[0] = R(LC_OP_MEANVAR, ref(x), 2, 1);
        outs[1] = U(LC_OP_SQRT, R(LC_OP_MEANVAR, x, 2, 0));
        return 2;
    case 3: /* column reduction of an int32 array: argmax over axis 0 and max */
        x = leaf(LC_INT32, 2, s2);
        outs[0] = R(LC_OP_ARGMAX, ref(x), 1, 0);
        outs[1] = R(LC_OP_RMAX, x, 1, 0);
        return 2;
    case 4: /* scan with a prologue: cumsum(x * x) over the last axis of a 2-d array */
        x = leaf(LC_FLOAT32, 2, s2);
        {
            struct lc_node *sq = B(LC_OP_MUL, ref(x), ref(x));
            outs[0] = lc_node_scan(LC_OP_CUMSUM, sq, 1, &err);
            lc_node_release(sq);
        }
        lc_node_release(x);
        return 1;
    case 5: /* column mean and std of a tall f32 matrix (PoCL: column blocks x row chunks) */
        {
            int64_t s3[2] = {300 * scale, 64 * scale};
            x = leaf(LC_FLOAT32, 2, s3);
            outs[0] = R(LC_OP_MEANVAR, ref(x), 1, 1);
            outs[1] = U(LC_OP_SQRT, R(LC_OP_MEANVAR, x, 1, 0));
        }
        return 2;
    case 6: /* softmax: the max and sumexp in one pass, then the map */
        x = leaf(LC_FLOAT32, 1, s1);
        {
            struct lc_node *e = U(LC_OP_EXP, B(LC_OP_SUB, ref(x), R(LC_OP_RMAX, ref(x), 1, 0)));
            struct lc_node *sum = R(LC_OP_SUM, ref(e), 1, 0);
            outs[0] = B(LC_OP_DIV, e, sum);
        }
        lc_node_release(x);
        return 1;
    case 7: /* a long 1-d scan (GPU: tiles per work-group, three launches, warps scanning by
               shuffles on NVIDIA; work-groups under 32 items: chunks) */
        {
            int64_t s4[1] = {20000 * scale};
            x = leaf(LC_FLOAT32, 1, s4);
            outs[0] = lc_node_scan(LC_OP_CUMSUM, x, 0, &err);
            lc_node_release(x);
        }
        return 1;
    case 8: /* a transposed, negatively strided view of a leaf, with where and a cast */
        x = leaf(LC_FLOAT32, 2, s2);
        {
            int64_t perm[2] = {1, 0}, st[2] = {0, 100 * scale - 1}, step[2] = {1, -1},
                    len[2] = {64 * scale, 100 * scale};
            struct lc_node *v = lc_node_slice(x, st, step, len, &err);
            struct lc_node *t = lc_node_permute(v, perm, &err);
            lc_node_release(v);
            struct lc_node *c = B(LC_OP_GT, ref(t), scalar(0));
            struct lc_node *z = scalar(0);
            struct lc_node *w = lc_node_where(c, t, z, &err);
            outs[0] = lc_node_cast(w, LC_INT32, &err);
            lc_node_release(w);
            lc_node_release(z);
            lc_node_release(c);
            lc_node_release(t);
        }
        lc_node_release(x);
        return 1;
    case 9: /* column sum of a short matrix (PoCL: SIMD across outputs, one item per 8) */
        {
            int64_t s3[2] = {100 * scale, 64 * scale};
            x = leaf(LC_FLOAT32, 2, s3);
            outs[0] = R(LC_OP_SUM, x, 1, 0);
        }
        return 1;
    case 10: /* a long full sum (CPUs: split over items, SIMD chunks) */
        {
            int64_t s4[1] = {20000 * scale};
            x = leaf(LC_FLOAT32, 1, s4);
            outs[0] = R(LC_OP_SUM, x, 1, 0);
        }
        return 1;
    case 11: /* a long int32 argmax (split, scalar chunks) */
        {
            int64_t s4[1] = {20000 * scale};
            x = leaf(LC_INT32, 1, s4);
            outs[0] = R(LC_OP_ARGMAX, x, 1, 0);
        }
        return 1;
    case 12: /* sums of many short rows (GPU: one item per output) */
        {
            int64_t s3[2] = {1000 * scale, 10};
            x = leaf(LC_FLOAT32, 2, s3);
            outs[0] = R(LC_OP_SUM, x, 2, 0);
        }
        return 1;
    case 13: /* a 2-d map with a broadcast row (GPU: four elements of a row per item) */
        x = leaf(LC_FLOAT32, 2, s2);
        {
            int64_t s3[1] = {100 * scale};
            y = leaf(LC_FLOAT32, 1, s3);
            outs[0] = B(LC_OP_MUL, U(LC_OP_EXP, x), y);
        }
        return 1;
    case 14: /* a 1-d map over a strided view (no vector loads, no SIMD) */
        {
            int64_t s4[1] = {2000 * scale}, st[1] = {0}, step[1] = {2}, len[1] = {1000 * scale};
            x = leaf(LC_FLOAT32, 1, s4);
            struct lc_node *v = lc_node_slice(x, st, step, len, &err);
            lc_node_release(x);
            outs[0] = B(LC_OP_ADD, B(LC_OP_MUL, v, scalar(2.0)), scalar(1.0));
        }
        return 1;
    case 15: /* a map over a 4-d transposed view (unravelled index) */
        {
            int64_t s4[4] = {2, 3, 4, 5 * scale}, perm[4] = {3, 2, 1, 0};
            x = leaf(LC_FLOAT32, 4, s4);
            struct lc_node *t = lc_node_permute(x, perm, &err);
            lc_node_release(x);
            outs[0] = B(LC_OP_ADD, t, scalar(1.0));
        }
        return 1;
    case 16: /* a long 1-d cummax (PoCL: chunks without SIMD; GPUs: one pass, a look-back: a float
                maximum does not depend on the association) */
        {
            int64_t s4[1] = {20000 * scale};
            x = leaf(LC_FLOAT32, 1, s4);
            outs[0] = lc_node_scan(LC_OP_CUMMAX, x, 0, &err);
            lc_node_release(x);
        }
        return 1;
    case 17: /* row sums of 2 * x[idx] (a gather along axis 0 in the reduction's prologue) */
        {
            int64_t si[1] = {32 * scale}, si2[2] = {32 * scale, 1}, so[2] = {32 * scale, 100 * scale};
            x = leaf(LC_FLOAT32, 2, s2);
            struct lc_node *i = leaf(LC_INT32, 1, si);
            struct lc_node *i2 = lc_node_reshape(i, 2, si2, &err);
            struct lc_node *ib = lc_node_broadcast_to(i2, 2, so, &err);
            struct lc_node *g = lc_node_gather(x, ib, 0, 0, &err);
            outs[0] = R(LC_OP_SUM, B(LC_OP_MUL, g, scalar(2.0)), 2, 0);
            lc_node_release(x);
            lc_node_release(i);
            lc_node_release(i2);
            lc_node_release(ib);
        }
        return 1;
    case 18: /* np.add.at(t, idx, 2 * x) into 16 float64 bins (CPUs: private copies, summed) */
        {
            int64_t sb[1] = {16 * scale};
            struct lc_node *t = leaf(LC_FLOAT64, 1, sb);
            struct lc_node *i = leaf(LC_INT64, 1, s1);
            x = leaf(LC_FLOAT64, 1, s1);
            struct lc_node *g = lc_node_gather(t, i, 0, 0, &err);
            struct lc_node *v = B(LC_OP_MUL, x, scalar(2.0));
            outs[0] = g && v ? lc_node_store(g, v, NULL, LC_OP_ADD, &err) : NULL;
            lc_node_release(t);
            lc_node_release(i);
            lc_node_release(g);
            lc_node_release(v);
        }
        return 1;
    case 19: /* bincount-like: adds into 65536 float64 bins, more than the elements (atomics) */
        outs[0] = bincount_like(65536 * scale, s1[0]);
        return 1;
    case 20: /* sort(x * x), long 1-d (GPUs: tiles, passes of count, scan, move; CPUs: past
                sort_net_max, the radix passes over chunks) */
        {
            int64_t s4[1] = {70000 * scale};
            x = leaf(LC_FLOAT32, 1, s4);
            struct lc_node *sq = B(LC_OP_MUL, ref(x), ref(x));
            outs[0] = lc_node_sort(LC_OP_SORT, sq, 0, 0, &err);
            lc_node_release(sq);
            lc_node_release(x);
        }
        return 1;
    case 21: /* argsort of short int16 rows, descending (GPUs: each row in one tile) */
        {
            int64_t s4[2] = {32 * scale, 100 * scale};
            x = leaf(LC_INT16, 2, s4);
            outs[0] = lc_node_sort(LC_OP_ARGSORT, x, 1, 1, &err);
            lc_node_release(x);
        }
        return 1;
    case 22: /* relu((x * 2) @ y + bias): a product with an operand's producer and an epilogue
                (GPUs: tiles in local memory; PoCL: rows x vectors over panels; generic CPUs:
                the reduction) */
        {
            int64_t sa[2] = {96 * scale, 80 * scale}, sy[2] = {80 * scale, 72 * scale};
            int64_t sbias[1] = {72 * scale};
            x = leaf(LC_FLOAT32, 2, sa);
            y = leaf(LC_FLOAT32, 2, sy);
            struct lc_node *xs = B(LC_OP_MUL, x, scalar(2.0));
            outs[0] = relu_matmul(xs, y, leaf(LC_FLOAT32, 1, sbias), 96 * scale, 80 * scale,
                                  72 * scale);
            lc_node_release(xs);
        }
        return 1;
    case 23: /* a long softmax (CPUs: split sums of exp with blocked maxima) */
        {
            int64_t s4[1] = {20000 * scale};
            x = leaf(LC_FLOAT32, 1, s4);
            struct lc_node *e = U(LC_OP_EXP, B(LC_OP_SUB, ref(x), R(LC_OP_RMAX, ref(x), 1, 0)));
            struct lc_node *sum = R(LC_OP_SUM, ref(e), 1, 0);
            outs[0] = B(LC_OP_DIV, e, sum);
            lc_node_release(x);
        }
        return 1;
    case 24: /* argtopk(|x * 2 - 1|, 10, axis 0): the 10 largest of each column, the key
                computed inside (PoCL: 8 columns per item in SIMD lanes; GPUs: neighbouring
                items on neighbouring columns, chunks merged; generic CPUs: one item a column) */
        {
            int64_t s4[2] = {3000 * scale, 32 * scale};
            x = leaf(LC_FLOAT32, 2, s4);
            struct lc_node *key = U(LC_OP_ABS, B(LC_OP_SUB, B(LC_OP_MUL, x, scalar(2.0)),
                                               scalar(1.0)));
            outs[0] = lc_node_topk(key, 0, 10, 1, &err);
            lc_node_release(key);
        }
        return 1;
    case 26: /* x[x > 0.5] over 16 chunks of x (CPUs' compaction, python/lazycl/_write.py):
                a store in row order whose slot is each chunk's first plus the running count
                before it (a scan computed in the store), every element written at the current
                slot up to the chunk's last kept one, where the row's writes end; the slots
                are bounded by that, neither checked nor clamped */
        {
            int64_t c = 1000 * scale, sx[1] = {16 * c}, sr[2] = {16, c}, sc[2] = {16, 1},
                    no = 7000 * scale, so[1] = {no}, sn[2] = {no, 1};
            x = leaf(LC_FLOAT32, 1, sx);
            struct lc_node *out = leaf(LC_FLOAT32, 1, so);
            struct lc_node *first = leaf(LC_INT64, 2, sc), *cnt = leaf(LC_INT64, 2, sc);
            struct lc_node *xr = lc_node_reshape(x, 2, sr, &err);
            struct lc_node *m = B(LC_OP_GT, ref(xr), scalar(0.5));
            struct lc_node *one = lc_node_cast(m, LC_INT64, &err);
            struct lc_node *run = lc_node_scan(LC_OP_CUMSUM, one, 1, &err);
            struct lc_node *before = B(LC_OP_SUB, run, ref(one));
            struct lc_node *slots = lc_node_reshape(out, 2, sn, &err);
            struct lc_node *pos = B(LC_OP_ADD, first, ref(before));
            struct lc_node *g = lc_node_gather(slots, pos, 0, LC_GATHER_BOUNDED, &err);
            struct lc_node *pred = B(LC_OP_LT, before, cnt);
            outs[0] = g && pred ? lc_node_store(g, xr, pred, LC_STORE_IN_ORDER, &err) : NULL;
            lc_node_release(g);
            lc_node_release(pos);
            lc_node_release(pred);
            lc_node_release(slots);
            lc_node_release(one);
            lc_node_release(m);
            lc_node_release(xr);
            lc_node_release(out);
            lc_node_release(x);
        }
        return 1;
    case 27: /* o[:] = cumsum(x * 2) as float64, long 1-d: the scan in the store (CPUs: chunks,
                three launches; GPUs: none takes a float scan, the scan is written first) */
        {
            int64_t s4[1] = {20000 * scale};
            x = leaf(LC_FLOAT32, 1, s4);
            struct lc_node *o = leaf(LC_FLOAT64, 1, s4);
            struct lc_node *x2 = B(LC_OP_MUL, x, scalar(2.0));
            struct lc_node *cs = lc_node_scan(LC_OP_CUMSUM, x2, 0, &err);
            struct lc_node *v = cs ? lc_node_cast(cs, LC_FLOAT64, &err) : NULL;
            outs[0] = v ? lc_node_store(o, v, NULL, 0, &err) : NULL;
            lc_node_release(x2);
            lc_node_release(cs);
            lc_node_release(v);
            lc_node_release(o);
        }
        return 1;
    case 28: /* o[:] = cumsum(x, axis 1) + 1 over many rows: the scan in the store, a row per
                item */
        x = leaf(LC_FLOAT32, 2, s2);
        {
            struct lc_node *o = leaf(LC_FLOAT32, 2, s2);
            struct lc_node *cs = lc_node_scan(LC_OP_CUMSUM, x, 1, &err);
            struct lc_node *v = cs ? B(LC_OP_ADD, cs, scalar(1.0)) : NULL;
            outs[0] = v ? lc_node_store(o, v, NULL, 0, &err) : NULL;
            lc_node_release(v);
            lc_node_release(o);
            lc_node_release(x);
        }
        return 1;
    case 29: /* column sum beside column std of a tall f32 matrix (PoCL: the sum from the
                variance's shifted sums, no accumulator of its own) */
        {
            int64_t s3[2] = {300 * scale, 64 * scale};
            x = leaf(LC_FLOAT32, 2, s3);
            outs[0] = R(LC_OP_SUM, ref(x), 1, 0);
            outs[1] = U(LC_OP_SQRT, R(LC_OP_MEANVAR, x, 1, 0));
        }
        return 2;
    case 30: /* relu(A @ v + bias), a product's sum (kind 1) of 200 rows (PoCL: 8 rows per
                item sharing v's loads, float32 accumulators; GPUs: a row per group) */
        {
            int64_t sa[2] = {200 * scale, 3000 * scale}, sv[2] = {1, 3000 * scale};
            int64_t sbias[1] = {200 * scale};
            x = leaf(LC_FLOAT32, 2, sa);
            struct lc_node *v = leaf(LC_FLOAT32, 2, sv);
            struct lc_node *bias = leaf(LC_FLOAT32, 1, sbias);
            struct lc_node *p = R(LC_OP_SUM, B(LC_OP_MUL, x, v), 1u << 1, 1);
            outs[0] = B(LC_OP_MAXIMUM, B(LC_OP_ADD, p, bias), scalar(0.0));
        }
        return 1;
    case 31: /* v @ A * 2, a product's sum (kind 1) along 600 rows (PoCL: panels of columns
                x chunks of rows, 4 rows a step, then a combining launch) */
        {
            int64_t sa[2] = {600 * scale, 300 * scale}, sv[2] = {600 * scale, 1};
            x = leaf(LC_FLOAT32, 2, sa);
            struct lc_node *v = leaf(LC_FLOAT32, 2, sv);
            struct lc_node *p = R(LC_OP_SUM, B(LC_OP_MUL, v, x), 1u, 1);
            outs[0] = B(LC_OP_MUL, p, scalar(2.0));
        }
        return 1;
    case 32: /* relu(x @ W + bias) of 8 rows (GPUs: gemm_skinny, 4 columns of W per item
                with 16-byte loads, K in slices, a combining launch with the epilogue; the
                rows stay 8 at every scale: the schedule takes at most 16) */
        {
            int64_t sa[2] = {8, 300 * scale}, sy[2] = {300 * scale, 100 * scale};
            int64_t sbias[1] = {100 * scale};
            x = leaf(LC_FLOAT32, 2, sa);
            y = leaf(LC_FLOAT32, 2, sy);
            outs[0] = relu_matmul(x, y, leaf(LC_FLOAT32, 1, sbias), 8, 300 * scale, 100 * scale);
            lc_node_release(x);
        }
        return 1;
    case 33: /* a long 1-d cumsum of complex128 (GPU: its accumulator is wider than a tree
                node's word: tiles, three launches) */
        {
            int64_t s4[1] = {20000 * scale};
            x = leaf(LC_COMPLEX128, 1, s4);
            outs[0] = lc_node_scan(LC_OP_CUMSUM, x, 0, &err);
            lc_node_release(x);
        }
        return 1;
    case 34: /* x[x > 0.5] in one store (GPUs' compaction, python/lazycl/_write.py): each kept
                element written at its running count less one, an int32 scan computed in the
                store (GPUs: tiles in one pass, a decoupled look-back; CPUs: chunks); the slots
                are clamped, not checked */
        outs[0] = compaction(LC_FLOAT32, 20000 * scale, 7000 * scale, NULL);
        return 1;
    case 35: /* sort(x * 3) of 40 float32 rows of 300 (CPUs: one launch, the vector merge
                sort of codegen/sort_net.c, keys made 16 at a time; rows with -0.0 or an
                unusual NaN take the radix passes) */
        {
            int64_t s2[2] = {40 * scale, 300 * scale};
            x = leaf(LC_FLOAT32, 2, s2);
            struct lc_node *k3 = B(LC_OP_MUL, ref(x), scalar(3.0));
            outs[0] = lc_node_sort(LC_OP_SORT, k3, 1, 0, &err);
            lc_node_release(k3);
            lc_node_release(x);
        }
        return 1;
    case 36: /* argtopk(x * x, 16) of one long row (GPUs: chunks interleaved, the group's shared
                bound, 16 elements read per step since the row is cut into >= 1024 chunks) */
        {
            int64_t s1[1] = {(int64_t)524288 * scale};
            x = leaf(LC_FLOAT32, 1, s1);
            struct lc_node *key = B(LC_OP_MUL, ref(x), x);
            outs[0] = lc_node_topk(key, 0, 16, 1, &err);
            lc_node_release(key);
        }
        return 1;
    case 37: /* x[x > 0.5] of float64 in one store that writes its count too (GPUs'
                compaction, python/lazycl/_compact.py): the store of case 34 into a result of
                x's size, and the sum of the int32 mask over the row, the scan's total
                (fusion.h's LC_FUSE_SCAN_TOTAL: GPUs' look-back writes it, the last tile's
                inclusive prefix, the mask counted by warp ballots as the items keep 8 bytes of
                x an element; CPUs: the store's chunks, and a reduction of its own) */
        outs[0] = compaction(LC_FLOAT64, 20000 * scale, 20000 * scale, &outs[1]);
        return 2;
    case 38: /* bincount-like over 2^22 elements: float32 values widened, added into 65536
                float64 bins (GPUs: by ranges of 2048 bins, each summed in local memory, the
                values carried as float32) */
        outs[0] = bincount_like(65536 * scale, ((int64_t)1 << 22) * scale);
        return 1;
    case 39: /* 2 * x[idx] + 1 over 2^18 elements (CPUs: wrapped and clamped indices, checked
                by a kernel of their own; GPUs: each item reports its own) */
        {
            int64_t sn[1] = {((int64_t)1 << 18) * scale};
            struct lc_node *i = leaf(LC_INT64, 1, sn);
            x = leaf(LC_FLOAT32, 1, sn);
            struct lc_node *g = lc_node_gather(x, i, 0, 0, &err);
            outs[0] = g ? B(LC_OP_ADD, B(LC_OP_MUL, g, scalar(2.0)), scalar(1.0)) : NULL;
            lc_node_release(i);
            lc_node_release(x);
        }
        return 1;
    default: /* sqrt(sum(relu(x @ y + bias)**2, axis=0)): the column norms of a product's
                epilogue as its post-reduction (GPUs, PoCL and generic CPUs: per-block partials
                and a combining launch; the product is never written) */
        {
            int64_t sa[2] = {96 * scale, 80 * scale}, sy[2] = {80 * scale, 72 * scale};
            int64_t sbias[1] = {72 * scale};
            x = leaf(LC_FLOAT32, 2, sa);
            y = leaf(LC_FLOAT32, 2, sy);
            struct lc_node *r = relu_matmul(x, y, leaf(LC_FLOAT32, 1, sbias), 96 * scale,
                                            80 * scale, 72 * scale);
            outs[0] = U(LC_OP_SQRT, R(LC_OP_SUM, B(LC_OP_MUL, ref(r), r), 1, 0));
            lc_node_release(x);
        }
        return 1;
    }
}

static const char *names[] = {"map", "sum_sqdiff", "row_meanstd", "col_argmax", "scan_prologue",
                              "col_meanstd", "softmax", "long_scan", "view_where_cast", "col_sum_short",
                              "long_sum", "long_argmax", "row_sum_short", "map_rows",
                              "map_strided", "map_4d", "long_cummax", "gather_rowsum",
                              "scatter_add", "scatter_add_wide", "sort_square", "argsort_rows",
                              "gemm_relu", "long_softmax", "topk_cols", "gemm_colnorm",
                              "compact_rows", "scan_store_long", "scan_store_rows",
                              "col_sum_std", "gemv_rows", "gemv_cols", "gemm_skinny",
                              "long_scan_c128", "compact_one_pass", "sort_rows_net",
                              "topk_long", "compact_total", "scatter_add_ranges",
                              "gather_long"};

#endif
