/* The chain's canonical JSON is RFC 8785 (JCS): canonical_json gives the
 * bytes the npm `canonicalize` package (an independent implementation of
 * RFC 8785) gives, for the values where a careless serializer differs:
 * member order by UTF-16 code units, escapes, numbers. Run from the
 * repository root (make test does), after `npm ci` in tests/node. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ledger/canonical.h"

#define CHECKER "tests/node/jcs-check.mjs"

/* The examples of RFC 8785 and a few more, as JSON text. */
static const char *const samples[] = {
    "{\"numbers\":[333333333.33333329,1E30,4.50,2e-3,0.000000000000000000000000001],"
    "\"string\":\"\\u20ac$\\u000F\\u000aA'\\u0042\\u0022\\u005c\\\\\\\"\\/\","
    "\"literals\":[null,true,false]}",
    "{\"\\u20ac\":\"Euro Sign\",\"\\r\":\"Carriage Return\","
    "\"\\ufb33\":\"Hebrew Letter Dalet With Dagesh\",\"1\":\"One\","
    "\"\\ud83d\\ude00\":\"Emoji: Grinning Face\",\"\\u0080\":\"Control\","
    "\"\\u00f6\":\"Latin Small Letter O With Diaeresis\"}",
    "[0, -0.0, 1, -1, 9007199254740991, 9007199254740993, -9223372036854775807,"
    " 1e21, 1e-7, 1e-6, 1.2345678901234568e20, 0.1, 5e-324, 1.7976931348623157e308,"
    " 100, 1.5, -2.25e-10]",
    "{\"b\":[{\"z\":1,\"a\":\"\\u0000\\u001f\\u007f\\b\\f\\n\\r\\t\"}],\"a\":{}}",
    "{\"kind\":\"move\",\"seq\":17,\"seat\":null,\"data\":{\"text\":\"play r\\u00e9d1\","
    "\"action\":{\"type\":\"draw\"}},\"at\":\"2026-01-01T00:00:00Z\"}",
};

Test(canonical, matches_an_independent_rfc8785_implementation)
{
    cr_assert_eq(access(CHECKER, R_OK), 0,
                 "run the suite from the repository root");
    cr_assert_eq(access("tests/node/node_modules/canonicalize", R_OK), 0,
                 "the npm package canonicalize is missing: run `npm ci` in "
                 "tests/node");
    size_t count = sizeof samples / sizeof *samples;
    json_t *values = json_array();
    for (size_t i = 0; i < count; i++) {
        json_error_t jerr;
        json_t *v = json_loads(samples[i], JSON_DECODE_ANY | JSON_ALLOW_NUL, &jerr);
        cr_assert_not_null(v, "sample %zu: %s", i, jerr.text);
        json_array_append_new(values, v);
    }
    const char *tmp = getenv("TMPDIR");
    char file[512];
    snprintf(file, sizeof file, "%s/pbem-jcs-%d.json", tmp ? tmp : "/tmp",
             (int)getpid());
    cr_assert_eq(json_dump_file(values, file,
                                JSON_COMPACT | JSON_REAL_PRECISION(17)),
                 0);
    char command[600];
    snprintf(command, sizeof command, "node " CHECKER " values '%s'", file);
    FILE *pipe = popen(command, "r");
    cr_assert_not_null(pipe);
    char line[8192];
    for (size_t i = 0; i < count; i++) {
        cr_assert_not_null(fgets(line, sizeof line, pipe),
                           "%s printed fewer lines than samples", CHECKER);
        json_t *expected = json_loads(line, JSON_DECODE_ANY, NULL);
        cr_assert(json_is_string(expected), "%s", line);
        char *ours = canonical_json(json_array_get(values, i));
        cr_expect_str_eq(ours, json_string_value(expected),
                         "sample %zu differs from RFC 8785", i);
        free(ours);
        json_decref(expected);
    }
    cr_expect_eq(pclose(pipe), 0, "%s failed", CHECKER);
    unlink(file);
    json_decref(values);
}
