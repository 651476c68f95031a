/* notify_seen.c: see notify_seen.h. */
#include "notify/notify_seen.h"

#include <time.h>

#include "core/config.h"
#include "core/log.h"
#include "store/db.h"
#include "store/players_seen.h"

/* Marks already written, a slot per player id's hash: a busy player's
 * requests cost one write a minute, not one each. A collision only
 * writes again. */
#define SEEN_SLOTS 4096
#define SEEN_EVERY_SECONDS 60

typedef struct seen_slot {
    long long player_id;
    long long at;
} seen_slot;

static seen_slot slots[SEEN_SLOTS];

void notify_seen_mark(long long player_id)
{
    if (player_id <= 0 || config_whole(CONFIG_MAIL_SEEN_MINUTES) == 0)
        return;
    long long now = (long long)time(NULL);
    seen_slot *slot = &slots[(unsigned long long)player_id % SEEN_SLOTS];
    /* Racy by design: two threads may both write, which is harmless. */
    if (__atomic_load_n(&slot->player_id, __ATOMIC_RELAXED) == player_id &&
        now - __atomic_load_n(&slot->at, __ATOMIC_RELAXED) < SEEN_EVERY_SECONDS)
        return;
    apierr err;
    PGconn *conn = db_conn(&err);
    if (conn == NULL || !store_players_seen_mark(conn, player_id, &err)) {
        log_warn("player %lld seen on the page, not recorded: %s", player_id,
                 err.message);
        return;
    }
    __atomic_store_n(&slot->at, now, __ATOMIC_RELAXED);
    __atomic_store_n(&slot->player_id, player_id, __ATOMIC_RELAXED);
}
