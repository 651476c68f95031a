/* deadline_math.h: the arithmetic of a match clock, pure (no database, no
 * clock): when a deadline falls given the seat's budgets and the spans in
 * which its player's clock is paused (vacations), and how much time bank a
 * late move uses. Times are unix seconds.
 *
 * A seat's clock starts when it must act. After turn seconds of running
 * time it is due; the reminder comes reminder seconds of running time
 * before that; then a grace period runs free of charge; then the seat's
 * time bank is drawn down; when that is gone too, the match's deadline
 * action fires. A paused span stops the clock, so every one of these
 * moments moves by the part of the pause that falls before it. */
#ifndef SERVICE_DEADLINES_DEADLINE_MATH_H
#define SERVICE_DEADLINES_DEADLINE_MATH_H

/* A span in which a seat's clock does not run: [from, until). */
typedef struct deadline_span {
    long long from;
    long long until;
} deadline_span;

/* What a seat may spend on one wait, in seconds. */
typedef struct deadline_budget {
    long long turn;     /* until due */
    long long reminder; /* before due; 0: no reminder */
    long long grace;    /* after due, free */
    long long bank;     /* what is left of the seat's time bank */
} deadline_budget;

typedef struct deadline_times {
    long long remind_at; /* 0 when there is no reminder */
    long long due_at;
    long long grace_end_at; /* the bank starts to run */
    long long fire_at;      /* the action applies */
} deadline_times;

/* The moment when running seconds of the clock have passed since start,
 * the clock standing still in pauses[0..count) (any order, may overlap).
 * A clock that starts inside a pause first waits for its end. */
long long deadline_math_after(long long start, long long running,
                              const deadline_span *pauses, int count);

/* Running seconds between from and to (0 when to <= from), pauses not
 * counted. */
long long deadline_math_running(long long from, long long to,
                                const deadline_span *pauses, int count);

/* Every moment of a wait that started at start. */
void deadline_math_times(long long start, const deadline_budget *budget,
                         const deadline_span *pauses, int count,
                         deadline_times *out);

/* Time bank used by a seat that acts at now: the running time past the
 * grace period, at most the bank it had. */
long long deadline_math_bank_used(const deadline_times *times,
                                  const deadline_budget *budget, long long now,
                                  const deadline_span *pauses, int count);

#endif
