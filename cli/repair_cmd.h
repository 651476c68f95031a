/* repair_cmd.h: `pbem admin`, an admin's repairs of a match, each an event
 * appended to the match's log with the admin's reason (service repair.h):
 *   pbem admin rewind  --key FILE [--url URL] MATCH SEQ --reason TEXT
 *   pbem admin replace --key FILE [--url URL] MATCH SEAT PLAYER --reason TEXT
 *   pbem admin abort   --key FILE [--url URL] MATCH --reason TEXT
 * Prints the service's answer; exit 0 done, 1 refused, 2 a usage error. */
#ifndef CLI_REPAIR_CMD_H
#define CLI_REPAIR_CMD_H

int repair_cmd_main(int argc, char **argv);

#endif
