/* claim_window.c: the "Can I have it?" window as the service's clock sees
 * it (rules.h window). While the window is open, the seats other than the
 * next player that have not answered wait in it for claim_window_hours;
 * the next player waits on its ordinary turn, and its draw or take closes
 * the window whatever the clock says (README, "Closing the claim window
 * at the deadline"). */
#include "amt_internal.h"

#include <stdio.h>
#include <string.h>

bool amt_window(const rules_state *state, rules_window *out)
{
    const amt_state *s = (const amt_state *)state;
    memset(out, 0, sizeof *out);
    if (s->phase != AMT_PHASE_DRAW || !s->window)
        return false;
    rules_pending pending;
    amt_pending(state, &pending);
    out->seats = pending.seats & ~(1u << s->turn);
    if (out->seats == 0)
        return false;
    /* 0 hours is a window that waits for nobody: the service passes for
     * its seats as soon as its worker comes round. */
    out->seconds = s->window_hours * 3600LL;
    /* Every discard moves the turn on, so the window after the next
     * discard has another next player: round and next player tell two
     * windows apart that one step could close and open. */
    snprintf(out->id, sizeof out->id, "r%d-next%d", s->round + 1, s->turn);
    return true;
}
