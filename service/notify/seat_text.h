/* seat_text.h: what a person reads of a match, in plain text: who sits
 * where, what their seat sees (the engine's view_text) and the moves it
 * may make, short and grouped by form. The mails carry it (notify_outbox.h
 * puts it in each seat's payload as "text" and "moves_text") and so does
 * the API's seat view ("text", play/describe.h), so both read the same. */
#ifndef SERVICE_NOTIFY_SEAT_TEXT_H
#define SERVICE_NOTIFY_SEAT_TEXT_H

#include <jansson.h>

#include "rules.h"
#include "store/matches.h"

/* A group of moves of one form shows at most this many examples. */
#define SEAT_TEXT_EXAMPLES 3
/* A complete list of at most this many moves is shown whole. */
#define SEAT_TEXT_ALL_MOVES 12

/* The seats in a line or two ("seat 0 Alice (you), seat 1 Bob, seat 2
 * (free)", wrapped at 72 columns; seat may be RULES_SPECTATOR), a blank
 * line, then what seat sees in state. malloc'd, ending in a newline. */
char *seat_text_view(const store_match *match, const rules_engine *engine,
                     const rules_state *state, int seat);
/* The same, for a caller that has built view as engine->view(state,
 * seat) (borrowed; may be NULL): an engine that writes its text from the
 * view (rules.h view_text_of_view) then does not build it again. */
char *seat_text_view_of(const store_match *match, const rules_engine *engine,
                        const rules_state *state, int seat, const json_t *view);

/* The moves of legal (engine->legal's answer for seat, borrowed) in text
 * notation, one per line indented by two spaces: every move when the list
 * is complete and has at most SEAT_TEXT_ALL_MOVES, else grouped under the
 * move form ("forms") each fits, with up to SEAT_TEXT_EXAMPLES examples
 * per form and how many there are. malloc'd; "" when there is no move. */
char *seat_text_moves(const rules_engine *engine, const rules_state *state,
                      int seat, const json_t *legal);
/* The same, for a caller that has formatted the moves already: texts
 * holds, for each of legal's "moves" in order, its text or null (what
 * format_move returned; both borrowed). */
char *seat_text_moves_of(const json_t *legal, const json_t *texts);

#endif
