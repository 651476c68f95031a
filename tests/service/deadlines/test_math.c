/* The pure parts of deadlines: the clock arithmetic around vacations and
 * the time bank, reading and writing times, the deadline options, what a
 * forfeit does to a result, and which move a deadline makes. */
#include <criterion/criterion.h>
#include <sodium.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "another_mans_treasure/another_mans_treasure.h"
#include "artifact_stack/artifact_stack.h"
#include "core/clock.h"
#include "core/config.h"
#include "deadlines/deadline_math.h"
#include "deadlines/deadline_settings.h"
#include "ledger/forfeit.h"
#include "timers/absent_move.h"
#include "timers/timeouts.h"

#define HOUR 3600LL
#define DAY (24 * HOUR)
#define T0 1893456000LL /* 2030-01-01T00:00:00Z */

Test(deadline_math, without_pauses_the_clock_just_runs)
{
    cr_assert_eq(deadline_math_after(T0, 72 * HOUR, NULL, 0), T0 + 72 * HOUR);
    cr_assert_eq(deadline_math_running(T0, T0 + 5 * HOUR, NULL, 0), 5 * HOUR);
    cr_assert_eq(deadline_math_running(T0, T0 - 5, NULL, 0), 0);
}

Test(deadline_math, a_vacation_inside_the_turn_moves_the_deadline_by_its_length)
{
    deadline_span away = {T0 + 10 * HOUR, T0 + 10 * HOUR + 3 * DAY};
    cr_assert_eq(deadline_math_after(T0, 72 * HOUR, &away, 1),
                 T0 + 72 * HOUR + 3 * DAY);
}

Test(deadline_math, only_the_overlap_counts)
{
    /* Began before the turn, ends 5 h into it. */
    deadline_span before = {T0 - DAY, T0 + 5 * HOUR};
    cr_assert_eq(deadline_math_after(T0, 72 * HOUR, &before, 1),
                 T0 + 77 * HOUR);
    /* Begins after the deadline: nothing moves. */
    deadline_span after = {T0 + 80 * HOUR, T0 + 90 * HOUR};
    cr_assert_eq(deadline_math_after(T0, 72 * HOUR, &after, 1), T0 + 72 * HOUR);
    /* Ends before the turn: nothing moves. */
    deadline_span past = {T0 - 9 * HOUR, T0 - HOUR};
    cr_assert_eq(deadline_math_after(T0, 72 * HOUR, &past, 1), T0 + 72 * HOUR);
}

Test(deadline_math, overlapping_and_unsorted_vacations_count_once)
{
    deadline_span spans[] = {
        {T0 + 20 * HOUR, T0 + 30 * HOUR},
        {T0 + 10 * HOUR, T0 + 25 * HOUR},
        {T0 + 40 * HOUR, T0 + 40 * HOUR}, /* empty */
    };
    /* Paused from 10 h to 30 h: 20 h. */
    cr_assert_eq(deadline_math_after(T0, 72 * HOUR, spans, 3), T0 + 92 * HOUR);
    cr_assert_eq(deadline_math_running(T0, T0 + 92 * HOUR, spans, 3),
                 72 * HOUR);
}

Test(deadline_math, reminder_grace_and_bank_follow_the_running_clock)
{
    deadline_budget budget = {.turn = 72 * HOUR,
                              .reminder = 12 * HOUR,
                              .grace = 6 * HOUR,
                              .bank = 10 * HOUR};
    deadline_span away = {T0 + 61 * HOUR, T0 + 63 * HOUR};
    deadline_times t;
    deadline_math_times(T0, &budget, &away, 1, &t);
    cr_assert_eq(t.remind_at, T0 + 60 * HOUR, "before the vacation");
    cr_assert_eq(t.due_at, T0 + 74 * HOUR);
    cr_assert_eq(t.grace_end_at, T0 + 80 * HOUR);
    cr_assert_eq(t.fire_at, T0 + 90 * HOUR);
    /* No reminder asked for, or one longer than the turn: none. */
    budget.reminder = 0;
    deadline_math_times(T0, &budget, NULL, 0, &t);
    cr_assert_eq(t.remind_at, 0);
    budget.reminder = 80 * HOUR;
    deadline_math_times(T0, &budget, NULL, 0, &t);
    cr_assert_eq(t.remind_at, 0);
}

Test(deadline_math, a_late_move_pays_from_the_bank_after_the_grace)
{
    deadline_budget budget = {
        .turn = 72 * HOUR, .grace = 6 * HOUR, .bank = 10 * HOUR};
    deadline_times t;
    deadline_math_times(T0, &budget, NULL, 0, &t);
    cr_assert_eq(deadline_math_bank_used(&t, &budget, T0 + 70 * HOUR, NULL, 0),
                 0);
    cr_assert_eq(deadline_math_bank_used(&t, &budget, T0 + 77 * HOUR, NULL, 0),
                 0, "within the grace period");
    cr_assert_eq(deadline_math_bank_used(&t, &budget, T0 + 81 * HOUR, NULL, 0),
                 3 * HOUR);
    cr_assert_eq(deadline_math_bank_used(&t, &budget, T0 + 99 * HOUR, NULL, 0),
                 10 * HOUR, "never more than the bank");
    /* A vacation while the bank runs is not charged. */
    deadline_span away = {T0 + 79 * HOUR, T0 + 81 * HOUR};
    cr_assert_eq(deadline_math_bank_used(&t, &budget, T0 + 82 * HOUR, &away, 1),
                 2 * HOUR);
}

Test(clock, rfc3339_round_trips_and_offsets_count)
{
    long long t = 0;
    cr_assert(clock_parse("2030-01-01T00:00:00Z", false, &t));
    cr_assert_eq(t, T0);
    char text[32];
    clock_format(T0 + 90061, text);
    cr_assert_str_eq(text, "2030-01-02T01:01:01Z");
    cr_assert(clock_parse("2030-01-01T02:00:00.250+02:00", false, &t));
    cr_assert_eq(t, T0, "fractions dropped, offset applied");
    cr_assert(clock_parse("2029-12-31t19:00:00-05:00", false, &t));
    cr_assert_eq(t, T0);
}

Test(clock, malformed_times_are_refused)
{
    long long t = 0;
    cr_assert_not(clock_parse("2030-02-30T00:00:00Z", false, &t),
                  "no 30 February");
    cr_assert_not(clock_parse("2030-01-01 00:00:00", false, &t), "no zone");
    cr_assert_not(clock_parse("2030-01-01T00:00:00Zjunk", false, &t));
    cr_assert_not(clock_parse("1893456000", false, &t),
                  "unix only when allowed");
    cr_assert(clock_parse("1893456000\n", true, &t));
    cr_assert_eq(t, T0);
    cr_assert_not(clock_parse(NULL, true, &t));
    cr_assert_not(clock_parse("soon", true, &t));
}

/* A time cut short inside its offset (a vacation's "from", an export's
 * "since") is refused without reading past its end: here the end is the
 * last byte before a page nobody may read. */
Test(clock, a_time_cut_short_in_its_offset_is_read_no_further_than_its_end)
{
    long page = sysconf(_SC_PAGESIZE);
    char *area = mmap(NULL, 2 * (size_t)page, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    cr_assert_neq(area, MAP_FAILED);
    cr_assert_eq(mprotect(area + page, (size_t)page, PROT_NONE), 0);
    static const char *const cut[] = {"2030-01-01T00:00:00+",
                                      "2030-01-01T00:00:00+0",
                                      "2030-01-01T00:00:00+02",
                                      "2030-01-01T00:00:00+02:",
                                      "2030-01-01T00:00:00+02:0"};
    for (size_t i = 0; i < sizeof cut / sizeof cut[0]; i++) {
        size_t size = strlen(cut[i]) + 1;
        char *text = area + page - size;
        memcpy(text, cut[i], size);
        long long t = 0;
        cr_expect_not(clock_parse(text, false, &t), "%s", cut[i]);
    }
    munmap(area, 2 * (size_t)page);
}

Test(clock, the_test_clock_follows_its_file)
{
    char path[] = "/tmp/pbem-clock-unit-XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    cr_assert_eq(write(fd, "2030-01-01T00:00:00Z\n", 21), 21);
    close(fd);
    setenv("PBEM_CLOCK_FILE", path, 1);
    apierr err;
    cr_assert(config_load(&err), "%s", err.message);
    cr_assert(clock_init(&err), "%s", err.message);
    cr_assert(clock_is_fake());
    cr_assert_eq(clock_now(), T0);
    FILE *f = fopen(path, "w");
    fprintf(f, "%lld", T0 + 42);
    fclose(f);
    cr_assert_eq(clock_now(), T0 + 42);
    cr_assert_eq(clock_now_us(), (T0 + 42) * 1000000LL);
    /* Unreadable: the last good time stays. */
    unlink(path);
    cr_assert_eq(clock_now(), T0 + 42);
    unsetenv("PBEM_CLOCK_FILE");
}

Test(clock, a_clock_file_without_a_time_stops_the_start)
{
    setenv("PBEM_CLOCK_FILE", "/nonexistent/pbem-clock", 1);
    apierr err;
    cr_assert(config_load(&err), "%s", err.message);
    cr_assert_not(clock_init(&err));
    cr_assert_not_null(strstr(err.message, "tests only"), "%s", err.message);
    unsetenv("PBEM_CLOCK_FILE");
}

static bool parse(const char *text, deadline_settings *s, apierr *err)
{
    json_t *value = json_loads(text, 0, NULL);
    cr_assert_not_null(value, "bad test JSON %s", text);
    bool ok = deadline_settings_parse(value, s, err);
    json_decref(value);
    return ok;
}

Test(deadline_settings, defaults_fill_what_is_left_out)
{
    deadline_settings s;
    apierr err;
    cr_assert(deadline_settings_parse(NULL, &s, &err));
    cr_assert_not(s.enabled, "no deadline object: no deadlines");
    cr_assert(parse("{\"turn_hours\": 72}", &s, &err), "%s", err.message);
    cr_assert(s.enabled);
    cr_assert_eq(s.turn_hours, 72);
    cr_assert_eq(s.reminder_hours, 0);
    cr_assert_eq(s.action, DEADLINE_NOTIFY_ADMINS);
    cr_assert_eq(s.vacation_days_max, 14);
    json_t *shown = deadline_settings_json(&s);
    cr_assert_str_eq(json_string_value(json_object_get(shown, "action")),
                     "notify_admins");
    json_decref(shown);
}

Test(deadline_settings, every_mistake_is_named)
{
    deadline_settings s;
    apierr err;
    static const struct {
        const char *json;
        int status;
        const char *words;
    } cases[] = {
        {"[72]", 400, "must be an object"},
        {"{}", 400, "turn_hours is required"},
        {"{\"turn_hours\": 0}", 400, "turn_hours must be a whole number"},
        {"{\"turn_hours\": 1.5}", 400, "turn_hours must be a whole number"},
        {"{\"turn_hours\": 72, \"bedtime\": 1}", 400,
         "no setting called bedtime"},
        {"{\"turn_hours\": 72, \"action\": \"explode\"}", 400,
         "skip, default_move, forfeit or notify_admins"},
        {"{\"turn_hours\": 72, \"grace_hours\": -1}", 400, "grace_hours"},
        {"{\"turn_hours\": 72, \"vacation_days_max\": 400}", 400,
         "vacation_days_max"},
        {"{\"turn_hours\": 12, \"reminder_hours\": 12}", 422,
         "must be less than turn_hours"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        memset(&err, 0, sizeof err);
        cr_assert_not(parse(cases[i].json, &s, &err), "%s accepted",
                      cases[i].json);
        cr_expect_eq(err.status, cases[i].status, "%s: %d", cases[i].json,
                     err.status);
        cr_expect_str_eq(err.code, "bad_deadline");
        cr_expect_not_null(strstr(err.message, cases[i].words), "%s: %s",
                           cases[i].json, err.message);
    }
}

Test(forfeit, forfeited_seats_share_the_last_place_and_the_rest_keep_order)
{
    json_t *engine =
        json_loads("{\"over\": false, \"scores\": [10, 30, 20, 30],"
                   " \"ranking\": [[1, 3], [2], [0]], \"detail\": {}}",
                   0, NULL);
    json_t *result = forfeit_result(engine, 1u << 3 | 1u << 2);
    json_t *expected =
        json_loads("{\"over\": true, \"scores\": [10, 30, 20, 30],"
                   " \"ranking\": [[1], [0], [2, 3]], \"detail\": {},"
                   " \"forfeited\": [2, 3]}",
                   0, NULL);
    char *got = json_dumps(result, JSON_SORT_KEYS);
    cr_assert(json_equal(result, expected), "%s", got);
    free(got);
    json_decref(engine);
    json_decref(result);
    json_decref(expected);
}

static rules_state *new_state(const rules_engine *engine, int seats)
{
    uint8_t seed[RULES_SEED_BYTES] = {7};
    rules_error err = {{0}};
    rules_state *state = engine->setup(NULL, seats, seed, &err);
    cr_assert_not_null(state, "%s", err.message);
    return state;
}

Test(timeouts, an_engine_without_a_default_move_plays_its_first_legal_move)
{
    cr_assert(sodium_init() >= 0);
    rules_engine plain = as_engine;
    plain.default_move = NULL;
    rules_state *state = new_state(&plain, 2);
    rules_pending pending;
    plain.pending(state, &pending);
    int seat = __builtin_ctz(pending.seats);
    bool passed = true;
    json_t *move =
        absent_move_choose(&plain, state, seat, DEADLINE_DEFAULT_MOVE, &passed);
    json_t *legal = plain.legal(state, seat);
    json_t *first = json_array_get(json_object_get(legal, "moves"), 0);
    cr_assert_not_null(first);
    cr_assert(json_equal(move, first), "not the first legal move");
    cr_assert_not(passed);
    json_decref(legal);
    json_decref(move);
    cr_assert_null(absent_move_choose(&plain, state, 1 - seat,
                                   DEADLINE_DEFAULT_MOVE, &passed),
                   "a seat that may not act gets no move");
    plain.destroy(state);
}

Test(timeouts, skip_passes_where_the_rules_offer_a_pass)
{
    cr_assert(sodium_init() >= 0);
    const rules_engine *e = &amt_engine;
    rules_state *state = new_state(e, 3);
    /* Seat 0 draws and discards: the claim window opens. */
    for (int i = 0; i < 2; i++) {
        json_t *move = e->default_move(state, 0);
        rules_error err = {{0}};
        cr_assert(e->apply(state, 0, move, &err), "%s", err.message);
        json_decref(move);
    }
    rules_pending pending;
    e->pending(state, &pending);
    cr_assert_eq(pending.wait, RULES_WAIT_ANY_ORDER);
    bool passed = false;
    json_t *move = absent_move_choose(e, state, 2, DEADLINE_SKIP, &passed);
    cr_assert(passed, "seat 2 may pass on the discard");
    cr_assert_str_eq(json_string_value(json_object_get(move, "type")), "pass");
    json_decref(move);
    /* The next player cannot pass: skipping falls back to drawing. */
    move = absent_move_choose(e, state, 1, DEADLINE_SKIP, &passed);
    cr_assert_not(passed);
    cr_assert_str_eq(json_string_value(json_object_get(move, "type")), "draw");
    json_decref(move);
    e->destroy(state);
}
