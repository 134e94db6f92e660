/* userfn.c: the registry of user elementwise functions and their nodes. */
#include "graph/userfn.h"

#include "graph/internal.h"

#include <ctype.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

static pthread_mutex_t lc_userfn_lock = PTHREAD_MUTEX_INITIALIZER;
static struct lc_userfn **lc_userfns;     /* under the lock; never freed */
static size_t lc_n_userfns, lc_cap_userfns;

static int lc_is_ident(const char *s)
{
    if (!s || !(isalpha((unsigned char)*s) || *s == '_'))
        return 0;
    for (; *s; s++)
        if (!(isalnum((unsigned char)*s) || *s == '_'))
            return 0;
    return 1;
}

/* Whether C text s names a loop keyword (for, while, do, goto) as a token. Comments and strings
 * are not skipped: a false "yes" only costs a schedule choice (codegen/map.c). */
static int lc_has_loop(const char *s)
{
    static const char *const kw[] = {"for", "while", "do", "goto"};
    for (const char *p = s; *p;) {
        if (!(isalpha((unsigned char)*p) || *p == '_')) {
            p++;
            continue;
        }
        const char *q = p;
        while (isalnum((unsigned char)*q) || *q == '_')
            q++;
        for (size_t i = 0; i < sizeof kw / sizeof kw[0]; i++)
            if ((size_t)(q - p) == strlen(kw[i]) && !strncmp(p, kw[i], (size_t)(q - p)))
                return 1;
        p = q;
    }
    return 0;
}

static const struct lc_userfn *lc_find_locked(uint64_t id)
{
    for (size_t i = 0; i < lc_n_userfns; i++)
        if (lc_userfns[i]->id == id)
            return lc_userfns[i];
    return NULL;
}

const struct lc_userfn *lc_userfn_get(uint64_t id)
{
    pthread_mutex_lock(&lc_userfn_lock);
    const struct lc_userfn *f = lc_find_locked(id);
    pthread_mutex_unlock(&lc_userfn_lock);
    return f;
}

/* Hash a string with its length, so that "ab" + "c" differs from "a" + "bc". */
static void lc_hash_str(XXH3_state_t *st, const char *s)
{
    uint64_t n = strlen(s);
    XXH3_64bits_update(st, &n, sizeof n);
    XXH3_64bits_update(st, s, n);
}

static void lc_userfn_free(struct lc_userfn *f)
{
    if (!f)
        return;
    free(f->name);
    for (int i = 0; i < LC_MAXIN; i++) {
        free(f->in_name[i]);
        free(f->out_name[i]);
    }
    free(f->body);
    free(f->preamble);
    free(f);
}

uint64_t lc_userfn_register(const char *name, int n_in, const int *in_dtype,
                            const char *const *in_name, int n_out, const int *out_dtype,
                            const char *const *out_name, const char *body, const char *preamble,
                            struct lc_error *e)
{
    if (!lc_is_ident(name))
        return lc_error_set(e, LC_ERR_INVALID, "a kernel name must be an identifier, not '%s'",
                            name ? name : ""), 0;
    if (n_in < 0 || n_in > LC_MAXIN || n_out < 1 || n_out > LC_MAXIN || n_in + n_out > LC_MAXIN)
        return lc_error_set(e, LC_ERR_INVALID, "kernel '%s': %d inputs and %d outputs (at least "
                            "one output, at most %d parameters in all)", name, n_in, n_out,
                            LC_MAXIN), 0;
    const char *names[2 * LC_MAXIN];
    for (int i = 0; i < n_in + n_out; i++) {
        const char *s = i < n_in ? in_name[i] : out_name[i - n_in];
        int dt = i < n_in ? in_dtype[i] : out_dtype[i - n_in];
        if (!lc_is_ident(s))
            return lc_error_set(e, LC_ERR_INVALID, "kernel '%s': parameter name '%s' is not an "
                                "identifier", name, s ? s : ""), 0;
        for (int j = 0; j < i; j++)
            if (!strcmp(names[j], s))
                return lc_error_set(e, LC_ERR_INVALID, "kernel '%s': parameter '%s' is declared "
                                    "twice", name, s), 0;
        if (dt < 0 || dt >= LC_NDTYPES)
            return lc_error_set(e, LC_ERR_TYPE, "kernel '%s': parameter '%s' has no dtype", name,
                                s), 0;
        if (lc_dtype_is_complex(dt))
            return lc_error_set(e, LC_ERR_TYPE, "kernel '%s': parameter '%s' is %s; user kernels "
                                "take real and bool dtypes", name, s, lc_dtype_name(dt)), 0;
        names[i] = s;
    }
    XXH3_state_t *st = XXH3_createState();
    if (!st)
        return lc_error_set(e, LC_ERR_NOMEM, "out of host memory"), 0;
    XXH3_64bits_reset(st);
    lc_hash_str(st, name);
    int32_t counts[2] = {n_in, n_out};
    XXH3_64bits_update(st, counts, sizeof counts);
    for (int i = 0; i < n_in + n_out; i++) {
        int32_t dt = i < n_in ? in_dtype[i] : out_dtype[i - n_in];
        XXH3_64bits_update(st, &dt, sizeof dt);
        lc_hash_str(st, names[i]);
    }
    lc_hash_str(st, body ? body : "");
    lc_hash_str(st, preamble ? preamble : "");
    uint64_t id = XXH3_64bits_digest(st);
    XXH3_freeState(st);
    if (!id)
        id = 1;   /* 0 is the error value */

    pthread_mutex_lock(&lc_userfn_lock);
    if (lc_find_locked(id)) {
        pthread_mutex_unlock(&lc_userfn_lock);
        return id;
    }
    struct lc_userfn *f = calloc(1, sizeof *f);
    int ok = f != NULL;
    if (ok) {
        f->id = id;
        f->n_in = n_in;
        f->n_out = n_out;
        ok = (f->name = strdup(name)) && (f->body = strdup(body ? body : "")) &&
             (f->preamble = strdup(preamble ? preamble : ""));
        f->loops = ok && (lc_has_loop(f->body) || lc_has_loop(f->preamble));
        for (int i = 0; ok && i < n_in; i++) {
            f->in_dtype[i] = in_dtype[i];
            ok = (f->in_name[i] = strdup(in_name[i])) != NULL;
        }
        for (int i = 0; ok && i < n_out; i++) {
            f->out_dtype[i] = out_dtype[i];
            ok = (f->out_name[i] = strdup(out_name[i])) != NULL;
        }
    }
    if (ok && lc_n_userfns == lc_cap_userfns) {
        size_t nc = lc_cap_userfns ? 2 * lc_cap_userfns : 16;
        struct lc_userfn **nf = realloc(lc_userfns, nc * sizeof *nf);
        ok = nf != NULL;
        if (ok) {
            lc_userfns = nf;
            lc_cap_userfns = nc;
        }
    }
    if (ok)
        lc_userfns[lc_n_userfns++] = f;
    pthread_mutex_unlock(&lc_userfn_lock);
    if (!ok) {
        lc_userfn_free(f);
        return lc_error_set(e, LC_ERR_NOMEM, "out of host memory"), 0;
    }
    return id;
}

struct lc_node *lc_node_user(uint64_t fn, int out, struct lc_node *const *in, int n_in,
                             struct lc_error *e)
{
    const struct lc_userfn *f = lc_userfn_get(fn);
    if (!f) {
        lc_error_set(e, LC_ERR_INVALID, "internal: no user function %016llx",
                     (unsigned long long)fn);
        return NULL;
    }
    if (n_in != f->n_in || out < 0 || out >= f->n_out) {
        lc_error_set(e, LC_ERR_INVALID, "kernel '%s' takes %d inputs and has %d outputs (got %d "
                     "inputs, output %d)", f->name, f->n_in, f->n_out, n_in, out);
        return NULL;
    }
    if (n_in == 0) {
        lc_error_set(e, LC_ERR_INVALID, "kernel '%s': a node needs at least one input",
                     f->name);
        return NULL;
    }
    if (lc_check_owner(in, n_in, e) < 0)
        return NULL;
    int64_t shape[LC_MAXDIM];
    int ndim = lc_broadcast_nodes(in, n_in, shape, e);
    if (ndim < 0)
        return NULL;
    struct lc_node *args[LC_MAXIN] = {0};
    struct lc_node *n = NULL;
    for (int i = 0; i < n_in; i++) {
        struct lc_node *c = lc_node_cast(in[i], f->in_dtype[i], e);
        if (!c)
            goto done;
        args[i] = lc_node_broadcast_to(c, ndim, shape, e);
        lc_node_release(c);
        if (!args[i])
            goto done;
    }
    n = lc_node_new(LC_OP_USER, f->out_dtype[out], ndim, shape, args, n_in, e);
    if (n) {
        n->p.user.fn = fn;
        n->p.user.out = out;
        lc_node_seal(n);
    }
done:
    for (int j = 0; j < n_in; j++)
        lc_node_release(args[j]);
    return n;
}
