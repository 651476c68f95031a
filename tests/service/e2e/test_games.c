/* Each game's rules summary, as a person reads it at GET /v1/games/{game}
 * (and in the mail door's "rules GAME" and on the page /games/<game>):
 * there for every game this build plays, fit for a 72-column mail, and
 * every example in its notation section is a move the engine reads. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../support/e2e.h"
#include "rules.h"

/* Parses every example of the summary's "Notation" section (its indented
 * lines, examples separated by two or more spaces) with the engine, in a
 * new match of the fewest seats it allows. */
static void check_examples(const rules_engine *engine, const char *summary)
{
    const char *section = strstr(summary, "\nNotation");
    cr_assert(section != NULL, "%s: no Notation section", engine->name);
    uint8_t seed[RULES_SEED_BYTES] = {0};
    rules_error err = {{0}};
    rules_state *state = engine->setup(NULL, engine->min_seats, seed, &err);
    cr_assert(state != NULL, "%s: %s", engine->name, err.message);
    int examples = 0;
    const char *line = strchr(section + 1, '\n');
    while (line != NULL && strncmp(line, "\n  ", 3) == 0) {
        line += 3;
        const char *end = strchr(line, '\n');
        char text[128];
        snprintf(text, sizeof text, "%.*s", (int)(end - line), line);
        for (char *piece = text; *piece != '\0';) {
            char *gap = strstr(piece, "  ");
            if (gap != NULL)
                *gap = '\0';
            json_t *move = engine->parse_move(state, 0, piece, &err);
            cr_expect(move != NULL, "%s: the summary's example \"%s\" is "
                      "not a move: %s", engine->name, piece, err.message);
            json_decref(move);
            examples++;
            if (gap == NULL)
                break;
            piece = gap + strspn(gap + 1, " ") + 1;
        }
        line = end;
    }
    cr_expect_geq(examples, 5, "%s: only %d examples", engine->name,
                  examples);
    engine->destroy(state);
}

Test(games, every_game_has_a_rules_summary_a_person_can_read, .timeout = 120)
{
    e2e_server server = {0};
    e2e_start(&server);
    for (const rules_engine *const *e = rules_engines(); *e != NULL; e++) {
        char path[128];
        snprintf(path, sizeof path, "/v1/games/%s", (*e)->name);
        e2e_response r = e2e_call(&server, "GET", path, NULL, NULL);
        cr_assert_eq(r.status, 200, "%s: %s", path, r.body);
        const char *summary =
            json_string_value(json_object_get(r.json, "summary"));
        cr_assert(summary != NULL && strlen(summary) > 500, "%s", r.body);
        cr_expect_str_eq(
            json_string_value(json_object_get(r.json, "rules_page")),
            path + strlen("/v1"), "%s", r.body);
        /* Fit for a mail: every line 72 characters at most. */
        for (const char *p = summary; *p != '\0';) {
            size_t n = strcspn(p, "\n");
            cr_expect_leq(n, 72, "%s: a line of %zu characters: %.*s",
                          (*e)->name, n, (int)n, p);
            p += n + (p[n] == '\n');
        }
        cr_expect(strncmp(summary, (*e)->title, strlen((*e)->title)) == 0,
                  "%s: the summary does not start with the game's title",
                  (*e)->name);
        check_examples(*e, summary);
        e2e_response_free(&r);
    }
    cr_assert_eq(e2e_stop(&server), 0);
}

Test(games, an_unknown_game_is_a_404_that_points_to_the_list, .timeout = 60)
{
    e2e_server server = {0};
    e2e_start(&server);
    const char *paths[] = {"/v1/games/chess", "/v1/games/Antiquity_Quest",
                           "/v1/games/antiquity_quest/extra"};
    for (size_t i = 0; i < sizeof paths / sizeof *paths; i++) {
        e2e_response r = e2e_call(&server, "GET", paths[i], NULL, NULL);
        cr_expect_eq(r.status, 404, "%s: %s", paths[i], r.body);
        const json_t *error = json_object_get(r.json, "error");
        cr_expect_str_eq(json_string_value(json_object_get(error, "code")),
                         "unknown_game", "%s: %s", paths[i], r.body);
        e2e_response_free(&r);
    }
    cr_assert_eq(e2e_stop(&server), 0);
}
