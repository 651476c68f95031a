/* notation.c: moves as short words a person types in an email:
 *   go castle | go auction
 *   play check 11000 | play thief 6 | play detective | play exhibit |
 *   play nothing
 *   go castle play thief 6          (combined two-player variant)
 *   take A3 | steal B2 | exhibit A1 A2 B3 | exhibit nothing */
#include "av_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_WORDS 48

static const char *card_word(av_card card)
{
    static const char *const words[] = {
        "", "check", "thief", "detective", "exhibit", "nothing",
    };
    return words[card];
}

void av_move_text(const av_move *m, char text[AV_MOVE_TEXT])
{
    size_t len = 0;
    char name[4];
    text[0] = '\0';
    switch (m->type) {
    case AV_MOVE_GO:
        snprintf(text, AV_MOVE_TEXT, "go %s", av_location_name(m->location));
        break;
    case AV_MOVE_PLAY:
        if (m->location != AV_LOC_NONE)
            len = (size_t)snprintf(text, AV_MOVE_TEXT, "go %s ",
                                   av_location_name(m->location));
        len += (size_t)snprintf(text + len, AV_MOVE_TEXT - len, "play %s",
                                card_word(m->play.card));
        if (m->play.card == AV_CARD_CHECK ||
            (m->play.card == AV_CARD_THIEF && m->play.value > 0))
            snprintf(text + len, AV_MOVE_TEXT - len, " %d", m->play.value);
        break;
    case AV_MOVE_TAKE:
    case AV_MOVE_STEAL:
        av_card_name(m->card, name);
        snprintf(text, AV_MOVE_TEXT, "%s %s",
                 m->type == AV_MOVE_TAKE ? "take" : "steal", name);
        break;
    case AV_MOVE_EXHIBIT:
        len = (size_t)snprintf(text, AV_MOVE_TEXT, "exhibit");
        if (m->set == 0)
            snprintf(text + len, AV_MOVE_TEXT - len, " nothing");
        for (int i = 0; i < AV_CARDS; i++) {
            if (m->set >> i & 1) {
                av_card_name(i, name);
                len += (size_t)snprintf(text + len, AV_MOVE_TEXT - len, " %s",
                                        name);
            }
        }
        break;
    }
}

char *av_format_move(const rules_state *state, int seat, const json_t *action)
{
    (void)state;
    (void)seat;
    av_move m;
    if (!av_move_decode(action, &m, NULL))
        return NULL;
    char text[AV_MOVE_TEXT];
    av_move_text(&m, text);
    return strdup(text);
}

/* Splits text into lower-case words; returns how many. */
static int split(const char *text, char words[MAX_WORDS][16])
{
    int n = 0;
    const char *p = text;
    while (*p != '\0') {
        while (*p != '\0' && (isspace((unsigned char)*p) || *p == ','))
            p++;
        if (*p == '\0')
            break;
        if (n == MAX_WORDS)
            return -1;
        size_t len = 0;
        while (*p != '\0' && !isspace((unsigned char)*p) && *p != ',') {
            if (len < 15)
                words[n][len++] = (char)tolower((unsigned char)*p);
            p++;
        }
        words[n][len] = '\0';
        n++;
    }
    return n;
}

static bool whole_number(const char *word, int *out)
{
    char *end;
    long value = strtol(word, &end, 10);
    if (word[0] == '\0' || *end != '\0' || value < 0 || value > 1000000)
        return false;
    *out = (int)value;
    return true;
}

/* Reads "castle", "auction", "auctionhouse" or "auction house" at *i. */
static av_location read_location(char words[][16], int n, int *i)
{
    if (*i >= n)
        return AV_LOC_NONE;
    const char *w = words[*i];
    if (strcmp(w, "castle") == 0) {
        (*i)++;
        return AV_LOC_CASTLE;
    }
    if (strcmp(w, "auction") == 0 || strcmp(w, "auctionhouse") == 0) {
        (*i)++;
        if (*i < n && strcmp(words[*i], "house") == 0)
            (*i)++;
        return AV_LOC_AUCTION;
    }
    return AV_LOC_NONE;
}

static int lowest_free_thief(const av_state *s, int seat)
{
    if (s == NULL || seat < 0 || seat >= s->seats)
        return 0;
    for (int k = 0; k < 2; k++) {
        if (av_thief_free(s, av_thief_sack(seat, k)))
            return av_thief_sack(seat, k);
    }
    return 0;
}

static bool read_play(const av_state *s, int seat, char words[][16], int n,
                      int i, av_move *m, rules_error *err)
{
    if (i >= n || strcmp(words[i], "play") != 0 || i + 1 >= n)
        return rules_fail(err, "write \"play check VALUE\", \"play thief\", "
                               "\"play detective\" or \"play exhibit\"");
    const char *card = words[i + 1];
    int rest = n - (i + 2);
    m->type = AV_MOVE_PLAY;
    if (strcmp(card, "check") == 0) {
        m->play.card = AV_CARD_CHECK;
        if (rest != 1 || !whole_number(words[i + 2], &m->play.value))
            return rules_fail(err, "write \"play check VALUE\", for example "
                                   "\"play check 11000\"");
        return true;
    }
    if (strcmp(card, "thief") == 0) {
        m->play.card = AV_CARD_THIEF;
        if (rest == 0) {
            m->play.value = lowest_free_thief(s, seat);
            return true;
        }
        if (rest != 1 || !whole_number(words[i + 2], &m->play.value))
            return rules_fail(err, "write \"play thief\" or \"play thief "
                                   "SACK\"");
        return true;
    }
    static const struct {
        const char *word;
        av_card card;
    } simple[] = {{"detective", AV_CARD_DETECTIVE},
                  {"exhibit", AV_CARD_EXHIBIT},
                  {"nothing", AV_CARD_NOTHING}};
    for (size_t k = 0; k < sizeof simple / sizeof simple[0]; k++) {
        if (strcmp(card, simple[k].word) == 0) {
            if (rest != 0)
                return rules_fail(err, "\"play %s\" takes no more words",
                                  simple[k].word);
            m->play.card = simple[k].card;
            return true;
        }
    }
    return rules_fail(err, "there is no action card \"%s\": play check, "
                           "thief, detective or exhibit", card);
}

bool av_move_read(const av_state *s, int seat, const char *text,
                  av_move *out, rules_error *err)
{
    char words[MAX_WORDS][16];
    int n = text ? split(text, words) : 0;
    memset(out, 0, sizeof *out);
    if (n <= 0)
        return rules_fail(err, "write a move such as \"go castle\", \"play "
                               "thief\" or \"exhibit A1 A2 B3\"");
    av_move m = {0};
    const char *verb = words[0];
    if (strcmp(verb, "go") == 0) {
        int i = 1;
        m.type = AV_MOVE_GO;
        m.location = read_location(words, n, &i);
        if (m.location == AV_LOC_NONE)
            return rules_fail(err, "write \"go castle\" or \"go auction\"");
        if (i < n) {
            av_location where = m.location;
            if (!read_play(s, seat, words, n, i, &m, err))
                return false;
            m.location = where;
        }
    } else if (strcmp(verb, "play") == 0) {
        if (!read_play(s, seat, words, n, 0, &m, err))
            return false;
    } else if (strcmp(verb, "take") == 0 || strcmp(verb, "steal") == 0) {
        m.type = verb[0] == 't' ? AV_MOVE_TAKE : AV_MOVE_STEAL;
        m.card = n == 2 ? av_card_parse(words[1]) : -1;
        if (m.card < 0)
            return rules_fail(err, "write \"%s CARD\" with one card, A1 to "
                                   "F7", verb);
    } else if (strcmp(verb, "exhibit") == 0) {
        m.type = AV_MOVE_EXHIBIT;
        if (!(n == 2 && strcmp(words[1], "nothing") == 0)) {
            for (int i = 1; i < n; i++) {
                int card = av_card_parse(words[i]);
                if (card < 0 || (m.set >> card & 1))
                    return rules_fail(err, "\"%s\" is not a collection card "
                                           "(A1 to F7) or is named twice",
                                      words[i]);
                m.set |= (av_cards)1 << card;
            }
            if (m.set == 0)
                return rules_fail(err, "write \"exhibit CARD CARD CARD…\" or "
                                       "\"exhibit nothing\"");
        }
    } else {
        return rules_fail(err, "unknown move \"%s\": use go, play, take, "
                               "exhibit or steal", verb);
    }
    *out = m;
    return true;
}

json_t *av_parse_move(const rules_state *state, int seat, const char *text,
                      rules_error *err)
{
    av_move m;
    if (!av_move_read((const av_state *)state, seat, text, &m, err))
        return NULL;
    return av_move_encode(&m);
}
