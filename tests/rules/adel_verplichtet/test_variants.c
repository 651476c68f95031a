/* The two-player variants, options and the text notation. */
#include <criterion/criterion.h>

#include "../harness.h"
#include "av_fixture.h"

Test(av_variants, combined_variant_chooses_location_and_action_at_once)
{
    av_state *s = fixture_new(2, "{\"two_player_variant\": \"combined\"}");
    cr_expect_str_eq(fixture_decision(s), "t1-plan");
    harness_reject_text(&av_engine, (rules_state *)s, 0, "go castle",
                        "location and an action card");
    harness_reject_text(&av_engine, (rules_state *)s, 0,
                        "go auction play detective", "only be played at a");
    harness_apply_text(&av_engine, (rules_state *)s, 0,
                       "go castle play detective");
    harness_apply_text(&av_engine, (rules_state *)s, 1,
                       "go castle play thief");
    cr_expect_eq(s->prison[0], 2, "the thief is caught");
    cr_expect_str_eq(fixture_decision(s), "t2-plan");
    av_engine.destroy((rules_state *)s);
}

Test(av_variants, alternate_variant_sends_both_lords_to_the_same_place)
{
    av_state *s = fixture_new(2, "{\"two_player_variant\": \"alternate\"}");
    cr_expect_str_eq(fixture_decision(s), "t1-action");
    cr_expect_eq(s->lord[0].location, AV_LOC_AUCTION);
    cr_expect_eq(s->lord[1].location, AV_LOC_AUCTION);
    harness_reject_text(&av_engine, (rules_state *)s, 0, "go castle",
                        "play an action card");
    harness_reject_text(&av_engine, (rules_state *)s, 0, "play nothing",
                        "no check and no free thief");
    const char *const plays[] = {"play thief", "play thief"};
    fixture_all(s, plays);
    cr_expect_str_eq(fixture_decision(s), "t2-action");
    cr_expect_eq(s->lord[0].location, AV_LOC_CASTLE);
    cr_expect_eq(s->lord[1].location, AV_LOC_CASTLE);
    av_engine.destroy((rules_state *)s);
}

Test(av_variants, alternate_variant_lord_without_cards_plays_nothing)
{
    av_state *s = fixture_new(2, "{\"two_player_variant\": \"alternate\"}");
    for (int k = 0; k < AV_CHECKS_PER_LORD; k++)
        s->check_holder[k] = AV_CHECK_GONE;
    s->prison[0] = 1;
    s->prison[1] = 6;
    json_t *legal = av_engine.legal((rules_state *)s, 0);
    char *text = rules_sorted_json(json_object_get(legal, "moves"));
    cr_expect_str_eq(text, "[{\"card\":\"nothing\",\"type\":\"play\"}]");
    free(text);
    json_decref(legal);
    harness_apply_text(&av_engine, (rules_state *)s, 0, "play nothing");
    av_engine.destroy((rules_state *)s);
}

Test(av_variants, variants_are_for_two_players_only)
{
    uint8_t seed[RULES_SEED_BYTES] = {0};
    json_t *options = json_pack("{s:s}", "two_player_variant", "combined");
    rules_error err = {{0}};
    cr_expect_null(av_engine.setup(options, 3, seed, &err));
    cr_expect_not_null(strstr(err.message, "exactly 2"));
    json_decref(options);
    options = json_pack("{s:s}", "two_player_variant", "sometimes");
    cr_expect_null(av_engine.setup(options, 2, seed, &err));
    json_decref(options);
    cr_expect_null(av_engine.setup(NULL, 6, seed, &err));
    cr_expect_null(av_engine.setup(NULL, 1, seed, &err));
}

static void round_trip(const char *text, const char *json)
{
    av_state *s = fixture_new(3, NULL);
    rules_error err = {{0}};
    json_t *action = av_engine.parse_move((rules_state *)s, 0, text, &err);
    cr_assert_not_null(action, "%s: %s", text, err.message);
    char *got = rules_sorted_json(action);
    cr_expect_str_eq(got, json, "%s", text);
    free(got);
    json_decref(action);
    av_engine.destroy((rules_state *)s);
}

Test(av_notation, email_words_parse_to_actions)
{
    round_trip("go castle", "{\"location\":\"castle\",\"type\":\"go\"}");
    round_trip("Go Auction House",
               "{\"location\":\"auction\",\"type\":\"go\"}");
    round_trip("play check 11000",
               "{\"card\":\"check\",\"type\":\"play\",\"value\":11000}");
    round_trip("play thief", "{\"card\":\"thief\",\"sack\":1,\"type\":\"play\"}");
    round_trip("play thief 6",
               "{\"card\":\"thief\",\"sack\":6,\"type\":\"play\"}");
    round_trip("exhibit A1 A2 B3",
               "{\"cards\":[\"A1\",\"A2\",\"B3\"],\"type\":\"exhibit\"}");
    round_trip("exhibit b3, a2 a1",
               "{\"cards\":[\"A1\",\"A2\",\"B3\"],\"type\":\"exhibit\"}");
    round_trip("take F7", "{\"card\":\"F7\",\"type\":\"take\"}");
    round_trip("steal d1", "{\"card\":\"D1\",\"type\":\"steal\"}");
    round_trip("go castle play detective",
               "{\"card\":\"detective\",\"location\":\"castle\","
               "\"type\":\"play\"}");
}

Test(av_notation, bad_words_are_explained)
{
    av_state *s = fixture_new(3, NULL);
    harness_reject_text(&av_engine, (rules_state *)s, 0, "go home",
                        "go castle");
    harness_reject_text(&av_engine, (rules_state *)s, 0, "play joker",
                        "no action card");
    harness_reject_text(&av_engine, (rules_state *)s, 0, "exhibit A9",
                        "not a collection card");
    harness_reject_text(&av_engine, (rules_state *)s, 0, "dance", "unknown");
    harness_reject_text(&av_engine, (rules_state *)s, 0, "play detective",
                        "choose a location");
    av_engine.destroy((rules_state *)s);
}
