/* test_door_words.c: no game's move reads as one of the mail door's own
 * words. Random matches of every engine, each legal move's notation
 * checked: a move whose first word is "view" or "help" could never be
 * made by mail. "end" is the one resolved otherwise: the door reads it
 * as the move when the sender may make it (mail_commands.h). Pure: the
 * engines and the door's word list, no database. */
#include <criterion/criterion.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mailin/mail_commands.h"
#include "rules.h"

/* The first word of text, lower case. */
static void first_word(const char *text, char *word, size_t size)
{
    size_t n = 0;
    while (*text == ' ')
        text++;
    for (; text[n] && text[n] != ' ' && n + 1 < size; n++)
        word[n] = (char)tolower((unsigned char)text[n]);
    word[n] = '\0';
}

/* Plays up to steps random legal moves of a match of engine with seats,
 * from seed byte, adding each move's door word (if any) to found. */
static int play_one(const rules_engine *engine, int seats, uint8_t seed_byte,
                    int steps, json_t *found)
{
    uint8_t seed[RULES_SEED_BYTES];
    memset(seed, seed_byte, sizeof seed);
    json_t *options = json_object();
    rules_error err = {{0}};
    rules_state *state = engine->setup(options, seats, seed, &err);
    json_decref(options);
    cr_assert_not_null(state, "%s: %s", engine->name, err.message);
    unsigned pick = seed_byte;
    int step = 0;
    for (; step < steps; step++) {
        rules_pending pending;
        engine->pending(state, &pending);
        int seat = -1;
        for (int s = 0; s < seats && seat < 0; s++)
            if (pending.seats & (1u << s))
                seat = s;
        if (seat < 0)
            break;
        json_t *legal = engine->legal(state, seat);
        const json_t *moves = json_object_get(legal, "moves");
        size_t i;
        const json_t *move;
        json_array_foreach(moves, i, move)
        {
            char *text = engine->format_move(state, seat, move);
            char word[64];
            first_word(text ? text : "", word, sizeof word);
            if (mail_commands_is_door_word(word)) {
                char entry[200];
                snprintf(entry, sizeof entry, "%s: %s", engine->name, word);
                json_object_set_new(found, entry, json_true());
            }
            free(text);
        }
        size_t count = json_array_size(moves);
        bool applied = false;
        if (count > 0) {
            pick = pick * 1103515245u + 12345u;
            applied = engine->apply(state, seat,
                                    json_array_get(moves, pick % count), &err);
        }
        json_decref(legal);
        if (!applied)
            break;
    }
    engine->destroy(state);
    return step;
}

Test(door_words, no_move_of_any_game_reads_as_a_mail_command)
{
    json_t *found = json_object();
    int engines = 0;
    for (const rules_engine *const *e = rules_engines(); *e != NULL; e++) {
        if (strcmp((*e)->name, "toy") == 0)
            continue;
        engines++;
        int moves = 0;
        for (uint8_t seed = 1; seed <= 3; seed++)
            moves += play_one(*e, (*e)->max_seats < 3 ? (*e)->max_seats : 3,
                              seed, 3000, found);
        cr_log_info("%s: %d moves scanned", (*e)->name, moves);
        cr_expect_gt(moves, 30, "%s: a few moves were played", (*e)->name);
    }
    cr_expect_geq(engines, 5, "the five games are scanned");
    /* The scan sees moves at all: Quarriors' "end" is among them. */
    cr_expect_not_null(json_object_get(found, "quarriors: end"),
                       "no Quarriors turn was ended in the scan");
    const char *entry;
    json_t *value;
    json_object_foreach(found, entry, value)
    {
        /* Quarriors' end of a turn: read as the move when it is legal. */
        cr_expect_str_eq(entry, "quarriors: end",
                         "a move reads as a mail command: %s", entry);
    }
    json_decref(found);
}
