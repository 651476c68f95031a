/* latency.h: what the move benchmarks (service, growth, moves_loop) share:
 * a monotonic clock and the percentiles of the latencies they collect. */
#ifndef BENCH_LATENCY_H
#define BENCH_LATENCY_H

/* Seconds on the monotonic clock. */
double bench_now(void);

/* Sorts samples (n of them, seconds) and gives p50 and p99 in
 * milliseconds (0 when there is none). */
void bench_percentiles(double *samples, long n, double *p50_ms,
                       double *p99_ms);

#endif
