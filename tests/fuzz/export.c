/* export.c: fuzzes the export reader (ledger/export_check.h), which the
 * import route and `pbem verify --export` run on a file an admin uploads:
 * JSON Lines split into matches, each checked (header, hash chain, seats,
 * signed requests, sealed choices, a replay once the seed is revealed).
 *
 * Input: an export, any bytes. A match that fails its check must say which
 * event and why, as the import's 422 does. */
#include <sodium.h>

#include "fuzz.h"
#include "ledger/export_check.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    if (sodium_init() < 0)
        abort();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    export_match *matches = NULL;
    verify_report report;
    memset(&report, 0, sizeof report);
    int count = export_parse((const char *)data, size, &matches, &report);
    if (count < 0) {
        if (report.reason[0] == '\0')
            abort(); /* a refusal must say why */
        return 0;
    }
    for (int i = 0; i < count; i++) {
        memset(&report, 0, sizeof report);
        export_check(&matches[i], &report);
        if (!report.ok && report.reason[0] == '\0')
            abort();
        json_decref(verify_report_json(&report));
    }
    export_matches_free(matches, count);
    return 0;
}
