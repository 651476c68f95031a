/* rules_cmd.h: `pbem rules`, the rules workbench.
 *
 * Sets up positions, applies moves, lists legal moves, shows views and
 * scores, and checks invariants over the engines the service runs, with no
 * database and no server. A position is an engine snapshot (JSON) read from
 * standard input and written, pretty-printed, to standard output.
 */
#ifndef CLI_RULES_CMD_H
#define CLI_RULES_CMD_H

/* Runs `pbem rules …`; argv[0] is "rules". Returns the exit code: 0 ok,
 * 1 a move or position refused by the rules (the sentence on stderr),
 * 2 a usage error. */
int rules_cmd_main(int argc, char **argv);

#endif
