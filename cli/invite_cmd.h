/* invite_cmd.h: pbem invite, a player's invitation of someone by mail to a
 * match (POST /v1/matches/{id}/invitations), signed with the player's key.
 *
 *   pbem invite MATCH EMAIL NAME --key FILE [--url URL]
 *
 * FILE holds the player's Ed25519 seed in base64, the same form as the
 * admin's key file; the key id is the one the service gives that key
 * ("k_" and its digest, client_key_id). */
#ifndef CLI_INVITE_CMD_H
#define CLI_INVITE_CMD_H

/* 0 invited (the answer on stdout), 1 refused, 2 a usage error. */
int invite_cmd_main(int argc, char **argv);

#endif
