/* Secrecy: during random matches no view shows which dice are in another
 * seat's bag (only how many), nor a sealed challenge order of another
 * seat, nor the seed. */
#include <criterion/criterion.h>
#include <string.h>

#include "../harness.h"
#include "quarriors/qq_internal.h"
#include "quarriors/quarriors.h"

static void check_views(const rules_engine *engine, const rules_state *state,
                        int seat, const json_t *action)
{
    (void)seat;
    (void)action;
    const qq_state *st = (const qq_state *)state;
    for (int v = RULES_SPECTATOR; v < st->seats; v++) {
        json_t *view = engine->view(state, v);
        json_t *players = json_object_get(view, "players");
        for (int s = 0; s < st->seats; s++) {
            json_t *player = json_array_get(players, (size_t)s);
            cr_assert_eq(json_object_get(player, "bag_contents") != NULL,
                         v == s, "view %d shows bag contents of seat %d", v,
                         s);
            size_t i;
            json_t *die;
            json_array_foreach(json_object_get(player, "dice"), i, die) {
                int d = (int)json_integer_value(json_object_get(die, "id"));
                cr_assert_neq(st->dice[d].zone, QQ_Z_BAG,
                              "view %d names die %d in a bag", v, d);
            }
        }
        json_t *challenge = json_object_get(view, "challenge");
        if (challenge != NULL && json_object_get(challenge, "my_order"))
            cr_assert(v >= 0 && st->chosen[v] == 1,
                      "view %d shows an order it did not choose", v);
        json_decref(view);
    }
}

Test(qq_secrecy, bags_and_sealed_orders_stay_hidden, .timeout = 120)
{
    for (int seats = 2; seats <= 4; seats++) {
        harness_config cfg = {.engine = &qq_engine, .seats = seats,
                              .matches = 4, .max_moves = 4000,
                              .first_seed = 9000u + (unsigned)seats,
                              .after_move = check_views};
        harness_random_play(&cfg, NULL);
    }
}
