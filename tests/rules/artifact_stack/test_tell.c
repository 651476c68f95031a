/* tell: each kind of move told with what came of it, on the small table
 * of fixture.h: to the seat that moved in the second person,
 * to the others by name, and a peeked card only to the seat that
 * peeked. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "fixture.h"

static const char *const names[] = {"Ann", "Bob"};

/* What viewer is told when seat plays text on a copy of s (new string). */
static char *told(const as_state *s, int seat, const char *text, int viewer)
{
    rules_error err;
    json_t *action =
        as_engine.parse_move((const rules_state *)s, seat, text, &err);
    cr_assert_not_null(action, "%s", err.message);
    rules_state *after = as_engine.clone((const rules_state *)s);
    cr_assert(as_engine.apply(after, seat, action, &err), "%s: %s", text,
              err.message);
    char *sentence = rules_tell(&as_engine, (const rules_state *)s, after, seat,
                                action, viewer, names);
    cr_expect_leq(strlen(sentence), 300, "%s", sentence);
    as_engine.destroy(after);
    json_decref(action);
    return sentence;
}

/* The sentences told to seat 0, seat 1 and the public; then plays the
 * move on s. */
static void expect_told(as_state *s, int seat, const char *text,
                        const char *to_ann, const char *to_bob,
                        const char *to_public)
{
    const char *expected[] = {to_ann, to_bob, to_public};
    const int viewers[] = {0, 1, RULES_SPECTATOR};
    for (int i = 0; i < 3; i++) {
        char *sentence = told(s, seat, text, viewers[i]);
        cr_expect_str_eq(sentence, expected[i], "told to %d", viewers[i]);
        free(sentence);
    }
    fx_do(s, seat, text);
}

Test(as_tell, a_peek_names_the_card_to_the_peeker_alone)
{
    as_state *s = fx_small_table();
    expect_told(s, 0, "peek 2.1.0",
                "You peeked at 2.1.0 for 1 silver: china8 (B).",
                "Ann peeked at the face-down card at 2.1.0 for 1 silver.",
                "Ann peeked at the face-down card at 2.1.0 for 1 silver.");
    expect_told(s, 0, "take 2.0.0", "You took coins4 at 2.0.0.",
                "Ann took coins4 at 2.0.0.", "Ann took coins4 at 2.0.0.");
    expect_told(s, 0, "done", "You ended the turn. Now it is Bob's turn.",
                "Ann ended the turn. Now it is your turn.",
                "Ann ended the turn. Now it is Bob's turn.");
    as_engine.destroy((rules_state *)s);
}

Test(as_tell, a_treasure_is_taken_then_kept_or_cashed)
{
    as_state *s = fx_small_table();
    fx_do(s, 0, "take 2.0.0");
    fx_do(s, 0, "done");
    expect_told(s, 1, "take 2.2.0",
                "Bob took treasures3 (3 VP) at 2.2.0. Bob must keep it for "
                "its VP or cash it for silver.",
                "You took treasures3 (3 VP) at 2.2.0. You must keep it for "
                "its VP or cash it for silver.",
                "Bob took treasures3 (3 VP) at 2.2.0. Bob must keep it for "
                "its VP or cash it for silver.");
    expect_told(s, 1, "cash",
                "Bob cashed treasures3 for 1 silver. Now it is your turn.",
                "You cashed treasures3 for 1 silver. Now it is Ann's turn.",
                "Bob cashed treasures3 for 1 silver. Now it is Ann's turn.");
    as_engine.destroy((rules_state *)s);
}

Test(as_tell, a_weapons_bonus_and_the_steal)
{
    as_state *s = fx_small_table();
    fx_do(s, 0, "take 2.0.0");
    fx_do(s, 0, "done");
    fx_do(s, 1, "hire thief");
    fx_do(s, 1, "done");
    expect_told(s, 0, "flip weapons 1 2",
                "You flipped weapons1+weapons2 face down for the bonus of 2 "
                "weapons. You may steal 1 face-up card.",
                "Ann flipped weapons1+weapons2 face down for the bonus of 2 "
                "weapons. Ann may steal 1 face-up card.",
                "Ann flipped weapons1+weapons2 face down for the bonus of 2 "
                "weapons. Ann may steal 1 face-up card.");
    expect_told(s, 0, "steal relics4", "You stole Bob's relics4.",
                "Ann stole your relics4.", "Ann stole Bob's relics4.");
    as_engine.destroy((rules_state *)s);
}

/* The move that ends the match tells the move: why the match ended and
 * who won are told once, by the match's end that follows it (the service
 * tells its "finished" event with the result's reason and standings). */
Test(as_tell, the_last_move_leaves_the_end_to_the_result)
{
    as_state *s = fx_small_table();
    fx_do(s, 0, "peek 2.1.0");
    fx_do(s, 0, "take 2.0.0");
    rules_error err;
    json_t *action =
        as_engine.parse_move((const rules_state *)s, 0, "done", &err);
    cr_assert_not_null(action, "%s", err.message);
    rules_state *after = as_engine.clone((const rules_state *)s);
    cr_assert(as_engine.apply(after, 0, action, &err), "%s", err.message);
    ((as_state *)after)->over = true;
    const int viewers[] = {0, 1, RULES_SPECTATOR};
    const char *expected[] = {"You ended the turn.", "Ann ended the turn.",
                              "Ann ended the turn."};
    for (int i = 0; i < 3; i++) {
        char *sentence = rules_tell(&as_engine, (const rules_state *)s, after,
                                    0, action, viewers[i], names);
        cr_expect_str_eq(sentence, expected[i], "told to %d", viewers[i]);
        free(sentence);
    }
    as_engine.destroy(after);
    json_decref(action);
    as_engine.destroy((rules_state *)s);
}
