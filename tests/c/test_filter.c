/* test_filter.c: device filter strings, good and bad (no device needed). */
#include "runtime/runtime.h"

#include <stdio.h>
#include <string.h>

#include "lc_test.h"

#define ALL (LC_DEVICE_CPU | LC_DEVICE_GPU | LC_DEVICE_ACCELERATOR | LC_DEVICE_OTHER)

static void good(const char *s, const char *platform, int type, int index)
{
    struct lc_filter f;
    struct lc_error e = {0};
    lc_status st = lc_filter_parse(s, &f, &e);
    if (st != LC_OK)
        fprintf(stderr, "  \"%s\": %s\n", s, e.msg);
    CHECK(st == LC_OK);
    CHECK(strcmp(f.platform, platform) == 0);
    CHECK(f.type == type);
    CHECK(f.index == index);
    lc_error_clear(&e);
}

static void bad(const char *s, const char *msg_part)
{
    struct lc_filter f;
    struct lc_error e = {0};
    lc_status st = lc_filter_parse(s, &f, &e);
    CHECK(st == LC_ERR_INVALID);
    CHECK(e.code == LC_ERR_INVALID);
    if (msg_part && !strstr(e.msg, msg_part)) {
        fprintf(stderr, "  \"%s\": message \"%s\" lacks \"%s\"\n", s ? s : "(null)", e.msg, msg_part);
        failed++;
    }
    CHECK(strstr(e.msg, "[platform:]type[:index]") != NULL);
    lc_error_clear(&e);
}

int main(void)
{
    good("cpu", "", LC_DEVICE_CPU, -1);
    good("CPU", "", LC_DEVICE_CPU, -1);
    good("gpu", "", LC_DEVICE_GPU, -1);
    good("gpu:0", "", LC_DEVICE_GPU, 0);
    good("gpu:12", "", LC_DEVICE_GPU, 12);
    good("accelerator", "", LC_DEVICE_ACCELERATOR, -1);
    good("accel:1", "", LC_DEVICE_ACCELERATOR, 1);
    good("all", "", ALL, -1);
    good("any:2", "", ALL, 2);
    good("*", "", ALL, -1);
    good("pocl:cpu", "pocl", LC_DEVICE_CPU, -1);
    good("intel:cpu", "intel", LC_DEVICE_CPU, -1);
    good("nvidia:gpu:1", "nvidia", LC_DEVICE_GPU, 1);
    good("NVIDIA:GPU:0", "NVIDIA", LC_DEVICE_GPU, 0);
    good("portable computing:*:0", "portable computing", ALL, 0);
    good("  cpu:0  ", "", LC_DEVICE_CPU, 0);

    bad(NULL, "empty");
    bad("", "empty");
    bad("   ", "empty");
    bad("pocl", "platform alone");
    bad("tpu", "not a device type");
    bad("gpu:", "empty part");
    bad(":gpu", "empty part");
    bad("gpu:x", "not a device type");
    bad("gpu:-1", "not a device type");
    bad("pocl:cpu:x", "not a device index");
    bad("pocl:cpu:-1", "not a device index");
    bad("pocl:tpu:0", "not a device type");
    bad("cpu:gpu", "is a type, not a platform");
    bad("a:cpu:0:1", "too many");
    bad("a::0", "empty part");

    /* Matching: type mask and case-insensitive platform substring. */
    struct lc_filter f;
    struct lc_error e = {0};
    CHECK(lc_filter_parse("pocl:cpu", &f, &e) == LC_OK);
    CHECK(lc_filter_match(&f, "The pocl project", LC_DEVICE_CPU));
    CHECK(lc_filter_match(&f, "POCL", LC_DEVICE_CPU));
    CHECK(!lc_filter_match(&f, "Portable Computing Language", LC_DEVICE_CPU));
    CHECK(!lc_filter_match(&f, "The pocl project", LC_DEVICE_GPU));
    CHECK(lc_filter_parse("gpu", &f, &e) == LC_OK);
    CHECK(lc_filter_match(&f, "NVIDIA CUDA", LC_DEVICE_GPU));
    CHECK(!lc_filter_match(&f, "NVIDIA CUDA", LC_DEVICE_CPU));
    CHECK(lc_filter_parse("*", &f, &e) == LC_OK);
    CHECK(lc_filter_match(&f, "x", LC_DEVICE_OTHER));
    CHECK(lc_filter_match(&f, "x", LC_DEVICE_ACCELERATOR));
    CHECK(lc_filter_parse("intel:all", &f, &e) == LC_OK);
    CHECK(lc_filter_match(&f, "Intel(R) OpenCL", LC_DEVICE_CPU));
    CHECK(!lc_filter_match(&f, "NVIDIA CUDA", LC_DEVICE_GPU));

    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
