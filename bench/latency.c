/* latency.c: see latency.h. */
#include "latency.h"

#include <stdlib.h>
#include <time.h>

double bench_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void bench_percentiles(double *samples, long n, double *p50_ms,
                       double *p99_ms)
{
    qsort(samples, (size_t)n, sizeof *samples, by_value);
    *p50_ms = n ? samples[n / 2] * 1e3 : 0;
    *p99_ms = n ? samples[(n * 99) / 100] * 1e3 : 0;
}
