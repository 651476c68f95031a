/* deadline_math.c */
#include "deadlines/deadline_math.h"

#include <stdlib.h>
#include <string.h>

#define MAX_PAUSES 64

static int by_start(const void *a, const void *b)
{
    const deadline_span *x = a, *y = b;
    return (x->from > y->from) - (x->from < y->from);
}

/* The pauses sorted by start, empty ones dropped; returns how many. */
static int sorted(const deadline_span *pauses, int count,
                  deadline_span out[MAX_PAUSES])
{
    int n = 0;
    for (int i = 0; i < count && n < MAX_PAUSES; i++) {
        if (pauses[i].until > pauses[i].from)
            out[n++] = pauses[i];
    }
    if (n > 1)
        qsort(out, (size_t)n, sizeof out[0], by_start);
    return n;
}

long long deadline_math_after(long long start, long long running,
                              const deadline_span *pauses, int count)
{
    deadline_span spans[MAX_PAUSES];
    int n = sorted(pauses, count, spans);
    long long t = start, left = running < 0 ? 0 : running;
    for (int i = 0; i < n; i++) {
        if (spans[i].until <= t)
            continue;
        if (spans[i].from > t) {
            if (spans[i].from - t >= left)
                return t + left;
            left -= spans[i].from - t;
        }
        t = spans[i].until;
    }
    return t + left;
}

long long deadline_math_running(long long from, long long to,
                                const deadline_span *pauses, int count)
{
    if (to <= from)
        return 0;
    deadline_span spans[MAX_PAUSES];
    int n = sorted(pauses, count, spans);
    long long total = 0, t = from;
    for (int i = 0; i < n && t < to; i++) {
        if (spans[i].until <= t)
            continue;
        if (spans[i].from > t) {
            long long end = spans[i].from < to ? spans[i].from : to;
            total += end - t;
        }
        t = spans[i].until;
    }
    if (t < to)
        total += to - t;
    return total;
}

void deadline_math_times(long long start, const deadline_budget *budget,
                         const deadline_span *pauses, int count,
                         deadline_times *out)
{
    memset(out, 0, sizeof *out);
    if (budget->reminder > 0 && budget->reminder < budget->turn)
        out->remind_at = deadline_math_after(
            start, budget->turn - budget->reminder, pauses, count);
    out->due_at = deadline_math_after(start, budget->turn, pauses, count);
    out->grace_end_at =
        deadline_math_after(start, budget->turn + budget->grace, pauses, count);
    out->fire_at = deadline_math_after(
        start, budget->turn + budget->grace + budget->bank, pauses, count);
}

long long deadline_math_bank_used(const deadline_times *times,
                                  const deadline_budget *budget, long long now,
                                  const deadline_span *pauses, int count)
{
    long long used =
        deadline_math_running(times->grace_end_at, now, pauses, count);
    return used > budget->bank ? budget->bank : used;
}
