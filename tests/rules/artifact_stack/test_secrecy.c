/* Secrecy: walks random matches and searches every view for the names of
 * cards the viewer may not know: face-down temple cards it has not peeked
 * at, the stock for round 2 and the 2 cards left over. A peeked card must
 * show in its peeker's view. The text view names exactly the cards the
 * JSON view names. Also counts which kinds of moves random play
 * reached, so the suite proves every rule was exercised. */
#include <criterion/criterion.h>
#include <string.h>

#include "../harness.h"
#include "artifact_stack/artifact_stack.h"
#include "artifact_stack/artifact_stack_internal.h"

static const char *const kinds[] = {"take", "dig", "peek", "hire", "flip",
                                    "use", "done", "keep", "cash", "steal",
                                    "recruit", "give", "discard"};
#define KINDS (sizeof kinds / sizeof kinds[0])
static long seen_kind[KINDS];
static long seen_round2, seen_peeked_view, seen_assisted;
static int most_text_lines;

static bool hidden_from(const as_state *s, int card, int viewer)
{
    if (s->place[card] == AS_STOCK || s->place[card] == AS_REMOVED)
        return true;
    if (s->place[card] != AS_IN_TEMPLE ||
        !as_data.covered[as_card_number(card) - 1])
        return false;
    return viewer < 0 || !s->peeked[viewer][card];
}

static void search_views(const rules_engine *engine, const rules_state *state,
                         int seat, const json_t *action)
{
    const as_state *s = (const as_state *)state;
    const char *type = json_string_value(json_object_get(action, "type"));
    for (size_t k = 0; k < KINDS; k++) {
        if (strcmp(type, kinds[k]) == 0)
            seen_kind[k]++;
    }
    if (json_object_get(action, "assistant") != NULL &&
        (strcmp(type, "dig") == 0 || strcmp(type, "peek") == 0))
        seen_assisted++;
    if (s->round == 2)
        seen_round2++;
    (void)seat;
    for (int viewer = RULES_SPECTATOR; viewer < s->seats; viewer++) {
        json_t *view = engine->view(state, viewer);
        char *text = rules_sorted_json(view);
        char *words = engine->view_text(state, viewer);
        int lines = 0;
        for (const char *c = words; *c != '\0'; c++)
            lines += *c == '\n';
        if (lines > most_text_lines)
            most_text_lines = lines;
        for (int c = 0; c < AS_CARDS; c++) {
            char quoted[32];
            snprintf(quoted, sizeof quoted, "\"%s\"", as_card_name(c));
            bool shown = strstr(text, quoted) != NULL;
            /* no card name is the start of another ("coins1" of "coins10"
             * would be, but numbers stop at 9), so a plain search will do */
            bool written = strstr(words, as_card_name(c)) != NULL;
            cr_assert(written == shown, "seat %d: the text %s %s, the view "
                      "does not:\n%s", viewer, written ? "shows" : "hides",
                      as_card_name(c), words);
            if (hidden_from(s, c, viewer))
                cr_assert(!shown, "view of seat %d shows hidden %s: %s",
                          viewer, as_card_name(c), text);
            else if (viewer >= 0 && s->place[c] == AS_IN_TEMPLE &&
                     s->peeked[viewer][c]) {
                cr_assert(shown, "seat %d peeked at %s but cannot see it",
                          viewer, as_card_name(c));
                seen_peeked_view++;
            }
        }
        free(text);
        free(words);
        json_decref(view);
    }
}

Test(as_secrecy, peeked_and_face_down_cards_stay_secret)
{
    for (int seats = 2; seats <= 4; seats++) {
        harness_config cfg = {.engine = &as_engine, .seats = seats,
                              .matches = 20, .max_moves = 1500,
                              .first_seed = 900000u + 1000u * (unsigned)seats,
                              .after_move = search_views};
        harness_random_play(&cfg, NULL);
    }
    cr_log_info("the longest view_text had %d lines", most_text_lines);
    cr_expect_gt(seen_peeked_view, 0, "no peek was ever seen");
    cr_expect_gt(seen_round2, 0, "random play never reached round 2");
    cr_expect_gt(seen_assisted, 0, "no assistant ever dug or peeked");
    for (size_t k = 0; k < KINDS; k++)
        cr_expect_gt(seen_kind[k], 0, "random play never made a %s move",
                     kinds[k]);
}
