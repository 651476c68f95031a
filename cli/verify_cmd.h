/* verify_cmd.h: `pbem verify`, checking a match from its public log. */
#ifndef CLI_VERIFY_CMD_H
#define CLI_VERIFY_CMD_H

/* pbem verify [--url URL] MATCH   fetch the log from a server
 * pbem verify --file FILE         a saved log: the events array, or the
 *                                 answer of GET /v1/matches/{id}/events
 * Prints the verdict as JSON; exit 0 when the log verifies, 1 when it does
 * not (the first bad event is named), 2 on a usage or network error. */
int verify_cmd_main(int argc, char **argv);

#endif
