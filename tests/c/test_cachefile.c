/* test_cachefile.c: the kernel cache key and entry format (no device needed). */
#include "runtime/runtime.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "lc_test.h"

/* Recompute an entry's checksum after editing its header (the format of cachefile.c). */
static void reseal(unsigned char *b, size_t n)
{
    XXH3_state_t st;
    XXH3_INITSTATE(&st);
    XXH3_64bits_reset(&st);
    XXH3_64bits_update(&st, b, 40);
    XXH3_64bits_update(&st, b + 48, n - 48);
    uint64_t h = XXH3_64bits_digest(&st);
    for (int i = 0; i < 8; i++)
        b[40 + i] = (unsigned char)(h >> (8 * i));
}

static int key_eq(struct lc_cache_key a, struct lc_cache_key b)
{
    return a.lo == b.lo && a.hi == b.hi;
}

/* Decode must fail with LC_ERR_IO and a message. */
static int rejects(const void *blob, size_t n, struct lc_cache_key k)
{
    struct lc_error e = {0};
    uint32_t kind;
    const void *p;
    size_t pn;
    lc_status st = lc_cache_entry_decode(blob, n, k, &kind, &p, &pn, &e);
    int ok = st == LC_ERR_IO && e.msg[0];
    lc_error_clear(&e);
    return ok;
}

static void test_binary_usable(void)
{
    static const char good[] = "poclbin\0\x01/lc_k/program.bc\0\x02\x03";
    static const char bad[] = "poclbin\0\x01/lc_k/0-0-0/lc_k.so\0";
    CHECK(lc_cache_binary_usable(good, sizeof good));
    CHECK(!lc_cache_binary_usable(bad, sizeof bad));
    CHECK(!lc_cache_binary_usable(good, 20)); /* cut before the bitcode's name ends */
    CHECK(lc_cache_binary_usable("\x7f" "ELF other driver", 16));
    CHECK(lc_cache_binary_usable("", 0));
}

int main(void)
{
    test_binary_usable();
    const char *f[6] = {"__kernel void k(){}", "-cl-fast-relaxed-math", "pthread-haswell",
                        "OpenCL 3.0 PoCL", "3.1", "source"};
    struct lc_cache_key base = lc_cache_key_make(f[0], f[1], f[2], f[3], f[4], f[5]);
    CHECK(key_eq(base, lc_cache_key_make(f[0], f[1], f[2], f[3], f[4], f[5])));

    /* Each field changes the key. */
    for (int i = 0; i < 6; i++) {
        const char *g[6];
        memcpy(g, f, sizeof g);
        g[i] = "something else";
        CHECK(!key_eq(base, lc_cache_key_make(g[0], g[1], g[2], g[3], g[4], g[5])));
    }
    /* Fields are length-prefixed: moving a character between fields changes the key. */
    CHECK(!key_eq(lc_cache_key_make("ab", "c", "", "", "", ""), lc_cache_key_make("a", "bc", "", "", "", "")));
    CHECK(!key_eq(lc_cache_key_make("", "x", "", "", "", ""), lc_cache_key_make("", "", "x", "", "", "")));
    /* NULL is the empty string. */
    CHECK(key_eq(lc_cache_key_make(NULL, "", "", "", "", ""), lc_cache_key_make("", "", "", "", "", "")));

    char hex[33];
    lc_cache_key_hex(base, hex);
    CHECK(strlen(hex) == 32);
    CHECK(strspn(hex, "0123456789abcdef") == 32);
    char path[512];
    lc_cache_entry_path("/tmp/c", base, path, sizeof path);
    char want[512];
    snprintf(want, sizeof want, "/tmp/c/%.2s/%s.bin", hex, hex);
    CHECK(strcmp(path, want) == 0);

    /* Round trip. */
    unsigned char payload[1000];
    for (size_t i = 0; i < sizeof payload; i++)
        payload[i] = (unsigned char)(i * 7 + 3);
    size_t n = 0;
    unsigned char *blob = lc_cache_entry_encode(base, 1, payload, sizeof payload, &n);
    CHECK(blob != NULL);
    CHECK(n == 48 + sizeof payload);
    CHECK(memcmp(blob, "LZCLCACH", 8) == 0);
    struct lc_error e = {0};
    uint32_t kind = 99;
    const void *p = NULL;
    size_t pn = 0;
    CHECK(lc_cache_entry_decode(blob, n, base, &kind, &p, &pn, &e) == LC_OK);
    CHECK(kind == 1);
    CHECK(pn == sizeof payload);
    CHECK(p && memcmp(p, payload, pn) == 0);

    /* Empty payload round trip. */
    size_t n0 = 0;
    unsigned char *blob0 = lc_cache_entry_encode(base, 0, NULL, 0, &n0);
    CHECK(blob0 && n0 == 48);
    CHECK(lc_cache_entry_decode(blob0, n0, base, &kind, &p, &pn, &e) == LC_OK);
    CHECK(kind == 0 && pn == 0);
    free(blob0);

    /* The SPIR bitcode kind round trips; the next kind is unknown. */
    size_t n2 = 0;
    unsigned char *blob2 = lc_cache_entry_encode(base, LC_ENTRY_SPIR, payload, sizeof payload, &n2);
    CHECK(blob2 && lc_cache_entry_decode(blob2, n2, base, &kind, &p, &pn, &e) == LC_OK);
    CHECK(kind == LC_ENTRY_SPIR && pn == sizeof payload);
    free(blob2);
    blob2 = lc_cache_entry_encode(base, LC_ENTRY_SPIR + 1, payload, sizeof payload, &n2);
    CHECK(blob2 && lc_cache_entry_decode(blob2, n2, base, &kind, &p, &pn, &e) != LC_OK);
    lc_error_clear(&e);
    free(blob2);

    /* Truncated, at every length short of the whole. */
    int ok = 1;
    for (size_t cut = 0; cut < n; cut += (cut < 64 ? 1 : 37))
        ok &= rejects(blob, cut, base);
    CHECK(ok);
    CHECK(rejects(NULL, 0, base));

    /* Padded. */
    unsigned char *big = malloc(n + 1);
    memcpy(big, blob, n);
    big[n] = 0;
    CHECK(rejects(big, n + 1, base));
    free(big);

    /* Every single bit flipped, header and payload. */
    unsigned char *c = malloc(n);
    ok = 1;
    for (size_t bit = 0; bit < n * 8; bit++) {
        memcpy(c, blob, n);
        c[bit / 8] ^= (unsigned char)(1u << (bit % 8));
        if (!rejects(c, n, base)) {
            fprintf(stderr, "  flipped bit %zu (byte %zu) was accepted\n", bit, bit / 8);
            ok = 0;
            break;
        }
    }
    CHECK(ok);
    free(c);

    /* Wrong version and unknown kind, with a checksum that matches, so the
     * field checks themselves are what rejects them. */
    c = malloc(n);
    memcpy(c, blob, n);
    c[8] = 2;
    reseal(c, n);
    CHECK(rejects(c, n, base));
    memcpy(c, blob, n);
    c[12] = 7;
    reseal(c, n);
    CHECK(rejects(c, n, base));
    memcpy(c, blob, n);
    reseal(c, n);
    CHECK(!rejects(c, n, base));   /* resealing alone changes nothing */
    free(c);

    /* Wrong key: asked with another key, and a stored key edited and resealed. */
    struct lc_cache_key other = lc_cache_key_make("x", "", "", "", "", "");
    CHECK(rejects(blob, n, other));
    c = malloc(n);
    memcpy(c, blob, n);
    c[20] ^= 1;
    reseal(c, n);
    CHECK(rejects(c, n, base));
    free(c);

    free(blob);
    lc_error_clear(&e);
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
