/* The rulebook's set examples and the ranking of exhibits. */
#include <criterion/criterion.h>

#include "av_fixture.h"

Test(av_sets, rulebook_valid_sets_aabb_ccd_eee_def)
{
    cr_expect(av_set_valid(fixture_cards("A1 A2 B1 B2")));
    cr_expect(av_set_valid(fixture_cards("C1 C2 D1")));
    cr_expect(av_set_valid(fixture_cards("E1 E2 E3")));
    cr_expect(av_set_valid(fixture_cards("D1 E1 F1")));
}

Test(av_sets, rulebook_invalid_sets_aac_bcf_de_aaace)
{
    cr_expect_not(av_set_valid(fixture_cards("A1 A2 C1")));
    cr_expect_not(av_set_valid(fixture_cards("B1 C1 F1")));
    cr_expect_not(av_set_valid(fixture_cards("D1 E1")));
    cr_expect_not(av_set_valid(fixture_cards("A1 A2 A3 C1 E1")));
}

Test(av_sets, two_sets_of_three_are_not_one_set_of_six)
{
    cr_expect_not(av_set_valid(fixture_cards("A1 A2 A3 C1 C2 C3")));
    cr_expect(av_set_valid(fixture_cards("A1 A2 A3 B1")));
}

Test(av_sets, bigger_exhibit_beats_older_smaller_one)
{
    /* card 0 (A1) is the oldest object of the game: 1620 */
    cr_expect_eq(av_card_year(0), 1620);
    av_cards old_three = fixture_cards("A1 A2 A3");
    av_cards young_four = fixture_cards("E1 E2 E3 E4");
    cr_expect_gt(av_set_value(young_four), av_set_value(old_three));
}

Test(av_sets, equal_size_exhibits_rank_by_oldest_card)
{
    av_cards with_a1 = fixture_cards("A1 B1 B2");
    av_cards without = fixture_cards("A2 B1 B2");
    cr_expect_lt(av_card_year(0), av_card_year(1));
    cr_expect_gt(av_set_value(with_a1), av_set_value(without));
}

Test(av_sets, card_table_is_45_cards_with_distinct_years)
{
    int per_series[AV_SERIES] = {0};
    for (int i = 0; i < AV_CARDS; i++) {
        per_series[av_card_series(i)]++;
        char name[4];
        av_card_name(i, name);
        cr_expect_eq(av_card_parse(name), i, "%s", name);
        for (int j = 0; j < i; j++)
            cr_expect_neq(av_card_year(i), av_card_year(j));
    }
    int want[AV_SERIES] = {8, 8, 8, 7, 7, 7};
    for (int l = 0; l < AV_SERIES; l++)
        cr_expect_eq(per_series[l], want[l]);
}

Test(av_sets, checks_of_each_lord_sum_to_50000)
{
    for (int seat = 0; seat < AV_MAX_PLAYERS; seat++) {
        int sum = 0;
        for (int k = 0; k < AV_CHECKS_PER_LORD; k++)
            sum += av_check_value(seat * AV_CHECKS_PER_LORD + k);
        cr_expect_eq(sum, 50000);
    }
}

Test(av_sets, board_has_36_spaces_and_culloden_is_3_2)
{
    int spaces = 0;
    for (int c = 0; c < AV_CASTLES; c++)
        spaces += av_castles[c].spaces;
    cr_expect_eq(spaces, AV_TRACK_SPACES);
    cr_expect_eq(av_castle_at(8), 3);
    cr_expect_eq(av_castles[3].first, 3);
    cr_expect_eq(av_castles[3].second, 2);
    cr_expect_eq(av_octagon_castle(0), 0);
    cr_expect_eq(av_octagon_castle(40), AV_CASTLES - 1);
}
