/* cachefile.c: the kernel cache's key and its on-disk entry format (pure: no OpenCL).
 *
 * An entry is a 48-byte little-endian header followed by the payload:
 *
 *     offset  size  field
 *          0     8  magic "LZCLCACH"
 *          8     4  format version (LC_CACHE_FORMAT_VERSION)
 *         12     4  kind: 0 = device binary, 1 = SPIR-V, 2 = SPIR bitcode (lc_entry_kind)
 *         16    16  key: lo then hi, each u64
 *         32     8  payload size
 *         40     8  checksum: XXH3-64 of header bytes 0..39 followed by the payload
 *
 * The checksum covers the header as well as the payload, so that any flipped
 * bit anywhere in the file is caught (a kind flipped from 0 to 1 included).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE   /* strcasecmp and friends under -std=c11 too */
#endif
#include "runtime/runtime.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <xxhash.h>

#define ENTRY_MAGIC "LZCLCACH"
#define ENTRY_HEADER 48u

static void key_field(XXH3_state_t *st, const char *s)
{
    if (!s)
        s = "";
    uint64_t n = strlen(s);
    unsigned char len[8];
    for (int i = 0; i < 8; i++)
        len[i] = (unsigned char)(n >> (8 * i));
    XXH3_128bits_update(st, len, sizeof len);
    XXH3_128bits_update(st, s, (size_t)n);
}

struct lc_cache_key lc_cache_key_make(const char *source, const char *options,
                                      const char *device_name, const char *platform_version,
                                      const char *driver_version, const char *compiler)
{
    XXH3_state_t st;
    XXH3_INITSTATE(&st);
    XXH3_128bits_reset(&st);
    char ver[32];
    snprintf(ver, sizeof ver, "lazycl-cache-v%u", LC_CACHE_FORMAT_VERSION);
    key_field(&st, ver);
    key_field(&st, source);
    key_field(&st, options);
    key_field(&st, device_name);
    key_field(&st, platform_version);
    key_field(&st, driver_version);
    key_field(&st, compiler);
    XXH128_hash_t h = XXH3_128bits_digest(&st);
    struct lc_cache_key k = {h.low64, h.high64};
    return k;
}

void lc_cache_key_hex(struct lc_cache_key k, char out[33])
{
    snprintf(out, 33, "%016llx%016llx", (unsigned long long)k.hi, (unsigned long long)k.lo);
}

static void put_u32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static void put_u64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static uint32_t get_u32(const unsigned char *p)
{
    uint32_t v = 0;
    for (int i = 3; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

static uint64_t get_u64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

static uint64_t entry_checksum(const unsigned char *header, const void *payload, size_t n)
{
    XXH3_state_t st;
    XXH3_INITSTATE(&st);
    XXH3_64bits_reset(&st);
    XXH3_64bits_update(&st, header, 40);
    XXH3_64bits_update(&st, payload, n);
    return XXH3_64bits_digest(&st);
}

void *lc_cache_entry_encode(struct lc_cache_key k, uint32_t kind, const void *payload,
                            size_t payload_n, size_t *n)
{
    unsigned char *blob = malloc(ENTRY_HEADER + payload_n);
    if (!blob)
        return NULL;
    memcpy(blob, ENTRY_MAGIC, 8);
    put_u32(blob + 8, LC_CACHE_FORMAT_VERSION);
    put_u32(blob + 12, kind);
    put_u64(blob + 16, k.lo);
    put_u64(blob + 24, k.hi);
    put_u64(blob + 32, (uint64_t)payload_n);
    if (payload_n)
        memcpy(blob + ENTRY_HEADER, payload, payload_n);
    put_u64(blob + 40, entry_checksum(blob, blob + ENTRY_HEADER, payload_n));
    *n = ENTRY_HEADER + payload_n;
    return blob;
}

lc_status lc_cache_entry_decode(const void *blob, size_t n, struct lc_cache_key k,
                                uint32_t *kind, const void **payload, size_t *payload_n,
                                struct lc_error *e)
{
    const unsigned char *b = blob;
    if (!b || n < ENTRY_HEADER)
        return lc_error_set(e, LC_ERR_IO, "cache entry truncated: %zu bytes, the header alone is %u", n,
                            ENTRY_HEADER);
    if (memcmp(b, ENTRY_MAGIC, 8) != 0)
        return lc_error_set(e, LC_ERR_IO, "cache entry has a bad magic (not a lazycl cache entry)");
    uint32_t ver = get_u32(b + 8);
    if (ver != LC_CACHE_FORMAT_VERSION)
        return lc_error_set(e, LC_ERR_IO, "cache entry has format version %u, this lazycl writes %u",
                            ver, LC_CACHE_FORMAT_VERSION);
    uint32_t kd = get_u32(b + 12);
    if (kd > LC_ENTRY_SPIR)
        return lc_error_set(e, LC_ERR_IO, "cache entry has an unknown kind %u", kd);
    if (get_u64(b + 16) != k.lo || get_u64(b + 24) != k.hi)
        return lc_error_set(e, LC_ERR_IO, "cache entry is for another key");
    uint64_t size = get_u64(b + 32);
    if (size != (uint64_t)(n - ENTRY_HEADER))
        return lc_error_set(e, LC_ERR_IO, "cache entry truncated or padded: header says %llu payload "
                            "bytes, file has %zu", (unsigned long long)size, n - ENTRY_HEADER);
    if (entry_checksum(b, b + ENTRY_HEADER, (size_t)size) != get_u64(b + 40))
        return lc_error_set(e, LC_ERR_IO, "cache entry checksum mismatch (corrupt)");
    *kind = kd;
    *payload = b + ENTRY_HEADER;
    *payload_n = (size_t)size;
    return LC_OK;
}

void lc_cache_entry_path(const char *dir, struct lc_cache_key k, char *out, size_t n)
{
    char hex[33];
    lc_cache_key_hex(k, hex);
    snprintf(out, n, "%s/%.2s/%s.bin", dir, hex, hex);
}

int lc_cache_dir(char *out, size_t n)
{
    const char *off = getenv("LAZYCL_CACHE");
    if (off && (strcmp(off, "0") == 0 || strcasecmp(off, "off") == 0 || strcasecmp(off, "no") == 0 ||
                strcasecmp(off, "false") == 0))
        return 0;
    const char *d = getenv("LAZYCL_CACHE_DIR");
    int len;
    if (d && d[0]) {
        len = snprintf(out, n, "%s", d);
    } else if ((d = getenv("XDG_CACHE_HOME")) && d[0] == '/') {
        len = snprintf(out, n, "%s/lazycl", d);
    } else if ((d = getenv("HOME")) && d[0]) {
        len = snprintf(out, n, "%s/.cache/lazycl", d);
    } else {
        return 0;
    }
    if (len < 0 || (size_t)len >= n)
        return 0;
    /* Drop trailing slashes (but keep "/"). */
    while (len > 1 && out[len - 1] == '/')
        out[--len] = '\0';
    return 1;
}

int lc_cache_binary_usable(const void *bin, size_t n)
{
    static const char pocl[] = "poclbin", bitcode[] = "/program.bc";
    const unsigned char *b = bin;
    if (n < sizeof pocl - 1 || memcmp(b, pocl, sizeof pocl - 1) != 0)
        return 1;
    for (size_t i = 0; i + sizeof bitcode - 1 <= n; i++)
        if (b[i] == '/' && !memcmp(b + i, bitcode, sizeof bitcode - 1))
            return 1;
    return 0;
}
