/* ways.h: which way of one set a small set-associative cache uses.
 *
 * The caches of things that never change once made (a match's deadline
 * settings, a player's key, a match's state at a head) pick a set from
 * the thing's id and keep up to WAYS_PER_SET entries in it. A cache with
 * one entry per set let two ids that picked the same set evict each
 * other at every request, each time costing a database read: with 50
 * matches in 1,024 slots a collision is more likely than not, and one
 * colliding pair of Antiquity Quest matches cost 16 % of all moves a
 * read of their deadline settings (docs/benchmarks.md).
 *
 * The caller keeps the entries, one ways_tag beside each, and the lock;
 * these functions only choose. */
#ifndef SERVICE_CORE_WAYS_H
#define SERVICE_CORE_WAYS_H

#include <stdbool.h>

#define WAYS_PER_SET 4

typedef struct ways_tag {
    unsigned long long key; /* the id, or a hash of it */
    unsigned long long used; /* when last found or placed; 0: empty */
} ways_tag;

/* The set of key among sets: the key's bits mixed first (Fibonacci
 * hashing), since ids need not vary in their low bits. A match id is
 * always odd: picked as id % sets, half the sets of every cache of
 * matches stood empty, and 512 matches thrashed a cache of 1,024. */
unsigned ways_set(unsigned long long key, unsigned sets);

/* The way of set (WAYS_PER_SET tags) holding key, marked as used now, or
 * -1. *clock counts uses, for the least recently used. */
int ways_find(ways_tag *set, unsigned long long key,
              unsigned long long *clock);

/* The way to put key in, marked as used now: its own, else an empty one,
 * else the one used longest ago. */
int ways_place(ways_tag *set, unsigned long long key,
               unsigned long long *clock);

#endif
