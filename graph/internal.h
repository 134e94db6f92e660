/* internal.h: what graph/'s own files share and nobody else calls. */
#ifndef LC_GRAPH_INTERNAL_H
#define LC_GRAPH_INTERNAL_H

#include "graph/graph.h"

enum lc_rule { LC_RULE_NONE, LC_RULE_SAME, LC_RULE_NOBOOL, LC_RULE_INTBOOL, LC_RULE_TOBOOL,
               LC_RULE_BOOL8, LC_RULE_FLOAT, LC_RULE_ROUND, LC_RULE_ARITH, LC_RULE_DIVIDE,
               LC_RULE_CMP, LC_RULE_SHIFT, LC_RULE_LOGICAL, LC_RULE_WHERE, LC_RULE_COMPLEX };

int lc_op_rule(int op);
/* A new node holding references to `in`; the caller sets parameters, then seals. */
struct lc_node *lc_node_new(int op, int dtype, int ndim, const int64_t *shape,
                            struct lc_node *const *in, int n_in, struct lc_error *e);
/* Compute the structural hash once the node's fields are final. */
void lc_node_seal(struct lc_node *n);

/* "(2,3)", "(4,)", "()" as NumPy prints shapes, into buf (view.c); returns buf. */
const char *lc_fmt_shape(int ndim, const int64_t *shape, char *buf, size_t n);
/* The shape that in[0..n_in) broadcast to, in `shape` (LC_MAXDIM): its ndim, or -1 with e set
 * (NumPy's message for shapes that do not broadcast) (elementwise.c). */
int lc_broadcast_nodes(struct lc_node *const *in, int n_in, int64_t *shape, struct lc_error *e);
/* 0 when every node of `in` has in[0]'s owner, else -1 with e set to a placement error
 * (elementwise.c). */
int lc_check_owner(struct lc_node *const *in, int n, struct lc_error *e);

#endif
