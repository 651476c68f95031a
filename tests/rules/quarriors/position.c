/* position.c: test positions edited in their JSON (position.h). */
#include "position.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "../harness.h"
#include "quarriors/quarriors.h"

json_t *qq_test_example(const char *name)
{
    char path[256];
    snprintf(path, sizeof path, "rules/quarriors/examples/%s.json", name);
    json_error_t jerr;
    json_t *snapshot = json_load_file(path, 0, &jerr);
    cr_assert_not_null(snapshot, "%s: %s (run the suite from the "
                       "repository's root)", path, jerr.text);
    json_object_del(snapshot, "note");
    return snapshot;
}

json_t *qq_test_dice(json_t *snapshot, int seat, const char *place)
{
    json_t *list = seat < 0
        ? json_object_get(json_object_get(snapshot, "wilds"), "dice")
        : json_object_get(json_array_get(json_object_get(snapshot, "players"),
                                         (size_t)seat), place);
    cr_assert(json_is_array(list), "no list %d %s", seat, place);
    return list;
}

static size_t index_of(const json_t *list, const char *entry)
{
    size_t i;
    const json_t *v;
    json_array_foreach(list, i, v) {
        if (strcmp(json_string_value(v), entry) == 0)
            return i;
    }
    cr_assert_fail("no entry \"%s\"", entry);
    return 0;
}

void qq_test_replace(json_t *list, const char *old, const char *now)
{
    json_array_set_new(list, index_of(list, old), json_string(now));
}

void qq_test_move(json_t *list, const char *old, json_t *to, const char *now)
{
    json_array_remove(list, index_of(list, old));
    if (to != NULL)
        json_array_append_new(to, json_string(now));
}

rules_state *qq_test_load(const json_t *snapshot)
{
    rules_error err = {{0}};
    rules_state *state = qq_engine.load(snapshot, &err);
    cr_assert_not_null(state, "load: %s", err.message);
    return state;
}

void qq_test_refused(const json_t *snapshot, const char *expected)
{
    rules_error err = {{0}};
    rules_state *state = qq_engine.load(snapshot, &err);
    cr_assert_null(state, "load accepted what should say: %s", expected);
    cr_assert_str_eq(err.message, expected);
}

char *qq_test_text(const rules_state *state, int seat)
{
    char *text = qq_engine.view_text(state, seat);
    cr_assert_not_null(text);
    char *out = text;
    for (const char *p = text; *p; p++) {
        if (p[0] == '\n' && p[1] == ' ' && p[2] == ' ') {
            *out++ = ' ';
            p += 2;
        } else {
            *out++ = *p;
        }
    }
    *out = '\0';
    return text;
}

json_t *qq_test_two_against_two(void)
{
    json_t *snapshot = qq_test_example("challenge_wipes_out_the_questers");
    json_t *wilds = qq_test_dice(snapshot, -1, NULL);
    qq_test_move(wilds, "29 deathdealer", qq_test_dice(snapshot, 1, "quest"),
                 "29 deathdealer, level 1 3/2, at exqualibur");
    qq_test_move(wilds, "30 deathdealer", qq_test_dice(snapshot, 0, "ready"),
                 "30 deathdealer, level 1 3/2");
    return snapshot;
}

rules_state *qq_test_seized(const json_t *snapshot)
{
    rules_state *state = qq_test_load(snapshot);
    harness_apply_text(&qq_engine, state, 2, "end");
    harness_apply_text(&qq_engine, state, 0, "done");
    harness_apply_text(&qq_engine, state, 0, "seize 2");
    return state;
}
