/* rules_cmd.c: `pbem rules`, see rules_cmd.h.
 *
 * Every verb but `new` and `list` reads a position from standard input,
 * loads it through the engine's load() (which validates a hand-edited
 * snapshot) and runs check() before doing anything else, so a broken
 * position is refused with the first broken invariant named.
 */
#include "rules_cmd.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <sodium.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_io.h"
#include "rules.h"

enum { EXIT_OK = 0, EXIT_REFUSED = 1, EXIT_USAGE = 2 };

static const char usage_text[] =
    "usage: pbem rules list\n"
    "       pbem rules GAME new --seats N [--option NAME=VALUE]... [--seed HEX]\n"
    "       pbem rules GAME apply (--seat S (--move TEXT | --json ACTION)...)... "
    "< position.json\n"
    "       pbem rules GAME legal --seat S < position.json\n"
    "       pbem rules GAME view --seat S|spectator [--text] < position.json\n"
    "       pbem rules GAME pending < position.json\n"
    "       pbem rules GAME score < position.json\n"
    "       pbem rules GAME check < position.json\n"
    "\n"
    "A position is the engine's snapshot (JSON), read from standard input\n"
    "and written, pretty-printed, to standard output; a top-level \"note\"\n"
    "(the rulebook passage an example reproduces) is ignored. Seats are numbered\n"
    "from 0 in play order. apply takes several moves in order; each --seat\n"
    "holds for the moves after it. --seed takes up to 64 hex digits (32\n"
    "bytes, zero-padded on the right); without it the seed is random.\n"
    "Exit status: 0 ok, 1 a move or position refused by the rules (the\n"
    "rule's sentence on standard error), 2 a usage error.\n";

/* Prints "pbem: <sentence> (see pbem rules --help)." and returns 2. */
static int usage_error(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

static int usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("pbem: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputs(" (see pbem rules --help).\n", stderr);
    va_end(ap);
    return EXIT_USAGE;
}

/* The full stop an engine's sentence may lack. */
static const char *stop(const char *sentence)
{
    size_t n = strlen(sentence);
    return n > 0 && strchr(".!?", sentence[n - 1]) != NULL ? "" : ".";
}

/* ---- arguments ------------------------------------------------------ */

/* The value after a flag, or NULL when the command line ends there. */
static const char *flag_value(int argc, char **argv, int *i)
{
    if (*i + 1 >= argc)
        return NULL;
    *i += 1;
    return argv[*i];
}

static bool parse_int(const char *text, long min, long max, long *out)
{
    if (text == NULL || *text == '\0')
        return false;
    errno = 0;
    char *end = NULL;
    long v = strtol(text, &end, 10);
    if (errno != 0 || *end != '\0' || v < min || v > max)
        return false;
    *out = v;
    return true;
}

/* A seat number as typed: 0 .. RULES_MAX_SEATS-1, or "spectator" when
 * allowed. The position's own seat count is checked once it is loaded. */
static bool parse_seat(const char *text, bool spectator_ok, int *seat)
{
    long v;
    if (spectator_ok && text != NULL && strcmp(text, "spectator") == 0) {
        *seat = RULES_SPECTATOR;
        return true;
    }
    if (!parse_int(text, 0, RULES_MAX_SEATS - 1, &v))
        return false;
    *seat = (int)v;
    return true;
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c = (char)tolower((unsigned char)c);
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

/* Up to 64 hex digits, an even count, zero-padded on the right. */
static bool parse_seed(const char *hex, uint8_t seed[RULES_SEED_BYTES])
{
    size_t n = strlen(hex);
    if (n == 0 || n % 2 != 0 || n > 2 * RULES_SEED_BYTES)
        return false;
    memset(seed, 0, RULES_SEED_BYTES);
    for (size_t i = 0; i < n; i += 2) {
        int hi = hex_digit(hex[i]);
        int lo = hex_digit(hex[i + 1]);
        if (hi < 0 || lo < 0)
            return false;
        seed[i / 2] = (uint8_t)(hi * 16 + lo);
    }
    return true;
}

/* NAME=VALUE into options, typed by the engine's declaration of NAME; an
 * undeclared name is kept (as a boolean, integer or string by its look) so
 * that setup() names it in its refusal. */
static bool add_option(const json_t *declared, json_t *options,
                       const char *arg)
{
    const char *eq = strchr(arg, '=');
    if (eq == NULL || eq == arg)
        return false;
    char name[128];
    size_t len = (size_t)(eq - arg);
    if (len >= sizeof name)
        return false;
    memcpy(name, arg, len);
    name[len] = '\0';
    const char *text = eq + 1;
    const char *type = json_string_value(
        json_object_get(json_object_get(declared, name), "type"));
    json_t *value = NULL;
    long number;
    bool is_bool = strcmp(text, "true") == 0 || strcmp(text, "false") == 0;
    bool is_int = parse_int(text, LONG_MIN, LONG_MAX, &number);
    if (type != NULL && strcmp(type, "string") == 0)
        value = json_string(text);
    else if (is_bool)
        value = json_boolean(strcmp(text, "true") == 0);
    else if (is_int)
        value = json_integer(number);
    else
        value = json_string(text);
    if (value == NULL)
        return false;
    json_object_set_new(options, name, value);
    return true;
}

/* ---- positions ------------------------------------------------------ */

/* Reads a position from standard input, loads and checks it. Returns a new
 * state or NULL after printing the refusal. */
static rules_state *read_position(const rules_engine *engine)
{
    json_t *snapshot = json_io_read(stdin, "the position on standard input");
    if (snapshot == NULL)
        return NULL;
    /* An example position carries a note on the rulebook passage it
     * reproduces; it is for people, not part of the engine's snapshot. */
    if (json_is_object(snapshot))
        json_object_del(snapshot, "note");
    rules_error err = {{0}};
    rules_state *state = engine->load(snapshot, &err);
    json_decref(snapshot);
    if (state == NULL) {
        fprintf(stderr, "pbem: the position is refused: %s%s\n", err.message,
                stop(err.message));
        return NULL;
    }
    if (!engine->check(state, &err)) {
        fprintf(stderr, "pbem: the position breaks an invariant: %s%s\n",
                err.message, stop(err.message));
        engine->destroy(state);
        return NULL;
    }
    return state;
}

/* The seat count of a position, read from its result's score list. */
static int position_seats(const rules_engine *engine, const rules_state *state)
{
    json_t *result = engine->result(state);
    int seats = (int)json_array_size(json_object_get(result, "scores"));
    json_decref(result);
    return seats;
}

static bool seat_in_position(const rules_engine *engine,
                             const rules_state *state, int seat)
{
    int seats = position_seats(engine, state);
    if (seat == RULES_SPECTATOR || (seat >= 0 && seat < seats))
        return true;
    fprintf(stderr, "pbem: seat %d is not at this table (seats 0 to %d).\n",
            seat, seats - 1);
    return false;
}

/* Prints a new reference and drops it. */
static int print_owned(json_t *value)
{
    if (value == NULL) {
        fprintf(stderr, "pbem: the engine returned nothing.\n");
        return EXIT_REFUSED;
    }
    int rc = json_io_print(stdout, value);
    json_decref(value);
    return rc;
}

/* ---- list ----------------------------------------------------------- */

static void print_option(const char *name, const json_t *decl)
{
    const char *type = json_string_value(json_object_get(decl, "type"));
    char *def = json_dumps(json_object_get(decl, "default"),
                           JSON_ENCODE_ANY | JSON_COMPACT);
    printf("    %s=%s (%s", name, def ? def : "?", type ? type : "?");
    free(def);
    const json_t *choices = json_object_get(decl, "enum");
    if (json_is_array(choices)) {
        size_t i;
        const json_t *c;
        json_array_foreach(choices, i, c) {
            printf("%s%s", i == 0 ? ": " : "|", json_string_value(c));
        }
    }
    const json_t *min = json_object_get(decl, "minimum");
    const json_t *max = json_object_get(decl, "maximum");
    if (json_is_integer(min) && json_is_integer(max))
        printf(" %lld..%lld", (long long)json_integer_value(min),
               (long long)json_integer_value(max));
    const char *text = json_string_value(json_object_get(decl, "description"));
    printf(")%s%s\n", text ? "  " : "", text ? text : "");
}

static int cmd_list(void)
{
    for (const rules_engine *const *e = rules_engines(); *e != NULL; e++) {
        const rules_engine *engine = *e;
        printf("%-24s %s, %d-%d seats\n", engine->name, engine->title,
               engine->min_seats, engine->max_seats);
        json_t *options = engine->describe_options();
        const char *name;
        json_t *decl;
        json_object_foreach(options, name, decl) {
            print_option(name, decl);
        }
        json_decref(options);
    }
    return EXIT_OK;
}

/* ---- new ------------------------------------------------------------ */

static int cmd_new(const rules_engine *engine, int argc, char **argv)
{
    long seats = 0;
    bool have_seed = false;
    uint8_t seed[RULES_SEED_BYTES];
    json_t *declared = engine->describe_options();
    json_t *options = json_object();
    int rc = EXIT_USAGE;
    for (int i = 0; i < argc; i++) {
        const char *flag = argv[i];
        const char *value = flag_value(argc, argv, &i);
        if (value == NULL) {
            rc = usage_error("%s needs a value", flag);
            goto done;
        }
        if (strcmp(flag, "--seats") == 0) {
            if (!parse_int(value, 1, RULES_MAX_SEATS, &seats)) {
                rc = usage_error("--seats takes a number of seats, not \"%s\"",
                                 value);
                goto done;
            }
        } else if (strcmp(flag, "--option") == 0) {
            if (!add_option(declared, options, value)) {
                rc = usage_error("--option takes NAME=VALUE, not \"%s\"", value);
                goto done;
            }
        } else if (strcmp(flag, "--seed") == 0) {
            if (!parse_seed(value, seed)) {
                rc = usage_error("--seed takes an even number of hex digits, "
                                 "at most 64, not \"%s\"", value);
                goto done;
            }
            have_seed = true;
        } else {
            rc = usage_error("new does not know the argument \"%s\"", flag);
            goto done;
        }
    }
    if (seats == 0) {
        rc = usage_error("new needs --seats N");
        goto done;
    }
    if (!have_seed) {
        if (sodium_init() < 0) {
            fprintf(stderr, "pbem: libsodium could not start, so no random "
                            "seed; pass --seed.\n");
            rc = EXIT_REFUSED;
            goto done;
        }
        randombytes_buf(seed, sizeof seed);
    }
    rules_error err = {{0}};
    rules_state *state = engine->setup(options, (int)seats, seed, &err);
    if (state == NULL) {
        fprintf(stderr, "pbem: %s refuses this set-up: %s%s\n", engine->title,
                err.message, stop(err.message));
        rc = EXIT_USAGE;
        goto done;
    }
    rc = print_owned(engine->save(state));
    engine->destroy(state);
done:
    json_decref(declared);
    json_decref(options);
    return rc;
}

/* ---- apply ---------------------------------------------------------- */

typedef struct queued_move {
    int seat;
    bool is_json;
    const char *text; /* borrowed from argv */
} queued_move;

/* The action of one queued move (new reference), or NULL after printing
 * why it could not be read. */
static json_t *queued_action(const rules_engine *engine,
                             const rules_state *state, const queued_move *m,
                             int number)
{
    if (m->is_json) {
        json_error_t jerr;
        json_t *action = json_loads(m->text, JSON_REJECT_DUPLICATES, &jerr);
        if (action == NULL)
            fprintf(stderr, "pbem: move %d is not valid JSON (column %d: %s).\n",
                    number, jerr.column, jerr.text);
        return action;
    }
    rules_error err = {{0}};
    json_t *action = engine->parse_move(state, m->seat, m->text, &err);
    if (action == NULL)
        fprintf(stderr,
                "pbem: move %d (seat %d: \"%s\") cannot be read: %s%s\n",
                number, m->seat, m->text, err.message, stop(err.message));
    /* err only carries the message; action does not point into it. */
    /* cppcheck-suppress returnDanglingLifetime */
    return action;
}

static int apply_moves(const rules_engine *engine, rules_state *state,
                       const queued_move *moves, int count)
{
    for (int k = 0; k < count; k++) {
        const queued_move *m = &moves[k];
        if (!seat_in_position(engine, state, m->seat))
            return EXIT_USAGE;
        json_t *action = queued_action(engine, state, m, k + 1);
        if (action == NULL)
            return EXIT_REFUSED;
        rules_error err = {{0}};
        bool ok = engine->apply(state, m->seat, action, &err);
        if (!ok) {
            char *shown = engine->format_move(state, m->seat, action);
            fprintf(stderr,
                    "pbem: move %d (seat %d: \"%s\") is refused: %s%s\n",
                    k + 1, m->seat, shown ? shown : m->text, err.message,
                    stop(err.message));
            free(shown);
        }
        json_decref(action);
        if (!ok)
            return EXIT_REFUSED;
        if (!engine->check(state, &err)) {
            fprintf(stderr, "pbem: after move %d the engine broke an "
                            "invariant: %s%s\n",
                    k + 1, err.message, stop(err.message));
            return EXIT_REFUSED;
        }
    }
    return EXIT_OK;
}

static int cmd_apply(const rules_engine *engine, int argc, char **argv)
{
    queued_move *moves = calloc((size_t)argc + 1, sizeof *moves);
    if (moves == NULL) {
        fprintf(stderr, "pbem: out of memory.\n");
        return EXIT_REFUSED;
    }
    int count = 0;
    int seat = RULES_SPECTATOR - 1; /* none yet */
    int rc = EXIT_USAGE;
    for (int i = 0; i < argc; i++) {
        const char *flag = argv[i];
        const char *value = flag_value(argc, argv, &i);
        if (value == NULL) {
            rc = usage_error("%s needs a value", flag);
            goto done;
        }
        if (strcmp(flag, "--seat") == 0) {
            if (!parse_seat(value, false, &seat)) {
                rc = usage_error("--seat takes a seat number, not \"%s\"", value);
                goto done;
            }
        } else if (strcmp(flag, "--move") == 0 || strcmp(flag, "--json") == 0) {
            if (seat < 0) {
                rc = usage_error("%s comes after --seat S", flag);
                goto done;
            }
            moves[count].seat = seat;
            moves[count].is_json = strcmp(flag, "--json") == 0;
            moves[count].text = value;
            count++;
        } else {
            rc = usage_error("apply does not know the argument \"%s\"", flag);
            goto done;
        }
    }
    if (count == 0) {
        rc = usage_error("apply needs --seat S and --move TEXT or --json "
                         "ACTION");
        goto done;
    }
    rules_state *state = read_position(engine);
    if (state == NULL) {
        rc = EXIT_REFUSED;
        goto done;
    }
    rc = apply_moves(engine, state, moves, count);
    if (rc == EXIT_OK)
        rc = print_owned(engine->save(state));
    engine->destroy(state);
done:
    free(moves);
    return rc;
}

/* ---- legal, view ---------------------------------------------------- */

/* Parses the one "--seat S" these verbs take (view also --text). */
static int seat_argument(int argc, char **argv, bool spectator_ok, int *seat)
{
    if (argc != 2 || strcmp(argv[0], "--seat") != 0)
        return usage_error(spectator_ok
                               ? "this verb takes --seat S and maybe --text"
                               : "this verb takes exactly --seat S");
    if (!parse_seat(argv[1], spectator_ok, seat))
        return usage_error("--seat takes a seat number%s, not \"%s\"",
                           spectator_ok ? " or spectator" : "", argv[1]);
    return EXIT_OK;
}

/* legal() with a "notation" list: each move in text, as a player types it. */
static json_t *legal_with_notation(const rules_engine *engine,
                                   const rules_state *state, int seat)
{
    json_t *legal = engine->legal(state, seat);
    json_t *notation = json_array();
    size_t i;
    json_t *move;
    json_array_foreach(json_object_get(legal, "moves"), i, move) {
        char *text = engine->format_move(state, seat, move);
        json_array_append_new(notation, text ? json_string(text) : json_null());
        free(text);
    }
    json_object_set_new(legal, "notation", notation);
    return legal;
}

static int cmd_seat_verb(const rules_engine *engine, const char *verb,
                         int argc, char **argv)
{
    bool is_view = strcmp(verb, "view") == 0;
    /* view --text: what the seat sees as the mails show it to people. */
    bool as_text = is_view && argc > 0 && strcmp(argv[argc - 1], "--text") == 0;
    if (as_text)
        argc--;
    int seat = 0;
    int rc = seat_argument(argc, argv, is_view, &seat);
    if (rc != EXIT_OK)
        return rc;
    rules_state *state = read_position(engine);
    if (state == NULL)
        return EXIT_REFUSED;
    if (!seat_in_position(engine, state, seat))
        rc = EXIT_USAGE;
    else if (as_text) {
        char *text = engine->view_text(state, seat);
        fputs(text, stdout);
        free(text);
    } else if (is_view)
        rc = print_owned(engine->view(state, seat));
    else
        rc = print_owned(legal_with_notation(engine, state, seat));
    engine->destroy(state);
    return rc;
}

/* ---- pending, score, check ----------------------------------------- */

static json_t *pending_json(const rules_engine *engine,
                            const rules_state *state)
{
    static const char *const waits[] = {"nobody", "one", "any_order",
                                        "simultaneous"};
    rules_pending p;
    engine->pending(state, &p);
    json_t *seats = json_array();
    for (int s = 0; s < RULES_MAX_SEATS; s++) {
        if (p.seats & (1u << s))
            json_array_append_new(seats, json_integer(s));
    }
    const char *wait = (unsigned)p.wait < 4 ? waits[p.wait] : "unknown";
    return json_pack("{s:s, s:o, s:s, s:s}", "wait", wait, "seats", seats,
                     "decision", p.decision, "prompt", p.prompt);
}

static int cmd_position_verb(const rules_engine *engine, const char *verb,
                             int argc, char **argv)
{
    if (argc != 0)
        return usage_error("this verb takes no argument, not \"%s\"", argv[0]);
    rules_state *state = read_position(engine);
    if (state == NULL)
        return EXIT_REFUSED;
    int rc = EXIT_OK;
    if (strcmp(verb, "score") == 0)
        rc = print_owned(engine->result(state));
    else if (strcmp(verb, "pending") == 0)
        rc = print_owned(pending_json(engine, state));
    else
        printf("ok: the position keeps every invariant of %s.\n", engine->title);
    engine->destroy(state);
    return rc;
}

/* ---- dispatch ------------------------------------------------------- */

int rules_cmd_main(int argc, char **argv)
{
    if (argc < 2)
        return usage_error("rules needs list or GAME VERB");
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        fputs(usage_text, stdout);
        return EXIT_OK;
    }
    if (strcmp(argv[1], "list") == 0) {
        if (argc != 2)
            return usage_error("list takes no argument, not \"%s\"", argv[2]);
        return cmd_list();
    }
    const rules_engine *engine = rules_find(argv[1]);
    if (engine == NULL)
        return usage_error("there is no game called \"%s\" (pbem rules list "
                           "names them)", argv[1]);
    if (argc < 3)
        return usage_error("%s needs a verb: new, apply, legal, view, "
                           "pending, score or check", argv[1]);
    const char *verb = argv[2];
    int rest = argc - 3;
    char **args = argv + 3;
    if (strcmp(verb, "new") == 0)
        return cmd_new(engine, rest, args);
    if (strcmp(verb, "apply") == 0)
        return cmd_apply(engine, rest, args);
    if (strcmp(verb, "legal") == 0 || strcmp(verb, "view") == 0)
        return cmd_seat_verb(engine, verb, rest, args);
    if (strcmp(verb, "score") == 0 || strcmp(verb, "check") == 0 ||
        strcmp(verb, "pending") == 0)
        return cmd_position_verb(engine, verb, rest, args);
    return usage_error("there is no verb \"%s\" (new, apply, legal, view, "
                       "pending, score, check)", verb);
}
