/* Glicko-2 as Glickman's paper works it ("Example of the Glicko-2
 * system"): the published numbers, to the paper's precision. */
#include <criterion/criterion.h>
#include <math.h>

#include "core/glicko2.h"

Test(glicko2, glickmans_worked_example)
{
    /* A player rated 1500 (RD 200, volatility 0.06) plays three
     * opponents in one period: beats 1400 (RD 30), loses to 1550 (RD
     * 100) and to 1700 (RD 300); tau 0.5. */
    glicko2_rating player = {1500, 200, 0.06};
    glicko2_game games[] = {
        {{1400, 30, 0.06}, 1.0},
        {{1550, 100, 0.06}, 0.0},
        {{1700, 300, 0.06}, 0.0},
    };
    glicko2_rating after = glicko2_update(player, games, 3, 0.5);
    /* The paper prints step 7 on the Glicko-2 scale to four places
     * (mu' = -0.2069, phi' = 0.8722) and converts those in step 8. */
    double mu = round((after.rating - 1500) / 173.7178 * 1e4) / 1e4;
    double phi = round(after.deviation / 173.7178 * 1e4) / 1e4;
    cr_expect(fabs(mu - -0.2069) < 1e-9, "mu' = %.6f, not -0.2069", mu);
    cr_expect(fabs(phi - 0.8722) < 1e-9, "phi' = %.6f, not 0.8722", phi);
    cr_expect(fabs(round((173.7178 * mu + 1500) * 100) / 100 - 1464.06) < 1e-9,
              "r' = %.4f, not 1464.06", 173.7178 * mu + 1500);
    cr_expect(fabs(round(173.7178 * phi * 100) / 100 - 151.52) < 1e-9,
              "RD' = %.4f, not 151.52", 173.7178 * phi);
    /* Unrounded, within a unit of the last place printed. */
    cr_expect(fabs(after.rating - 1464.06) < 0.01, "r' = %.4f", after.rating);
    cr_expect(fabs(after.deviation - 151.52) < 0.01, "RD' = %.4f",
              after.deviation);
    cr_expect(fabs(after.volatility - 0.05999) < 0.00001,
              "sigma' = %.6f, not 0.05999", after.volatility);
}

Test(glicko2, a_period_without_play_only_widens_the_deviation)
{
    glicko2_rating player = {1500, 200, 0.06};
    glicko2_rating after = glicko2_update(player, NULL, 0, GLICKO2_TAU);
    cr_expect_eq(after.rating, 1500);
    /* Step 6: sqrt(phi^2 + sigma^2), back on the Glicko scale. */
    cr_expect(fabs(after.deviation - 200.2714) < 0.001, "RD' = %.4f",
              after.deviation);
}

Test(glicko2, newcomers_who_draw_keep_their_rating)
{
    glicko2_game draw = {GLICKO2_NEWCOMER, 0.5};
    glicko2_rating after =
        glicko2_update(GLICKO2_NEWCOMER, &draw, 1, GLICKO2_TAU);
    cr_expect(fabs(after.rating - 1500) < 1e-9, "%.6f", after.rating);
    cr_expect_lt(after.deviation, 350);
}
