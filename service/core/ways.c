/* ways.c: see ways.h. */
#include "core/ways.h"

unsigned ways_set(unsigned long long key, unsigned sets)
{
    return (unsigned)(((key * 0x9E3779B97F4A7C15ULL) >> 32) % sets);
}

int ways_find(ways_tag *set, unsigned long long key, unsigned long long *clock)
{
    for (int way = 0; way < WAYS_PER_SET; way++)
        if (set[way].used != 0 && set[way].key == key) {
            set[way].used = ++*clock;
            return way;
        }
    return -1;
}

int ways_place(ways_tag *set, unsigned long long key, unsigned long long *clock)
{
    int chosen = ways_find(set, key, clock);
    if (chosen >= 0)
        return chosen;
    chosen = 0;
    for (int way = 0; way < WAYS_PER_SET; way++) {
        if (set[way].used == 0) {
            chosen = way;
            break;
        }
        if (set[way].used < set[chosen].used)
            chosen = way;
    }
    set[chosen].key = key;
    set[chosen].used = ++*clock;
    return chosen;
}
