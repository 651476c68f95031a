/* player_cmd.h: the commands of pbem for players, one file each
 * (keygen_cmd.c, register_cmd.c, …). They share player_client.h (the
 * server, the key, exit codes 0 ok, 1 refused, 2 usage, 3 unreachable,
 * 4 not set up) and player_config.h (the folder they keep things in).
 * argv[0] is the command's name. */
#ifndef CLI_PLAYER_CMD_H
#define CLI_PLAYER_CMD_H

/* pbem keygen [--force]: a new Ed25519 key in the configuration folder. */
int keygen_cmd_main(int argc, char **argv);

/* pbem register NAME [EMAIL]: registers the key as a new player. */
int register_cmd_main(int argc, char **argv);

/* pbem games [GAME]: the games the server runs, one line each, or one
 * game's rules in short. */
int games_cmd_main(int argc, char **argv);

/* pbem new GAME --seats N [--open] [--option NAME=VALUE]…: creates a
 * match. */
int new_cmd_main(int argc, char **argv);

/* pbem list [GAME]: the open matches waiting for players. */
int list_cmd_main(int argc, char **argv);

/* pbem seek GAME --seats N [--turn-hours H] | --list | --withdraw SEEK:
 * quick match. */
int seek_cmd_main(int argc, char **argv);

/* pbem ratings [GAME] [--player PLAYER]: a game's 10 best rated and
 * the player's line, or the player's ratings in every game. */
int ratings_cmd_main(int argc, char **argv);

/* pbem join MATCH [--seat S]: takes the free seat of a match. */
int join_cmd_main(int argc, char **argv);

/* pbem matches [--status S]: the player's matches, one line each. */
int matches_cmd_main(int argc, char **argv);

/* pbem view MATCH: the seat's view and moves; remembers the seq. */
int view_cmd_main(int argc, char **argv);

/* pbem move MATCH TEXT: plays TEXT at the remembered seq. */
int move_cmd_main(int argc, char **argv);

/* pbem say MATCH [--to SEAT] TEXT…: a message at the match's table. */
int say_cmd_main(int argc, char **argv);

/* pbem messages MATCH: what was said at the table that the seat may
 * read. */
int messages_cmd_main(int argc, char **argv);

/* pbem chat-link: a one-time code linking a Discord or Slack account. */
int chat_link_cmd_main(int argc, char **argv);

/* pbem watch MATCH [--interval SECONDS]: prints events as they come. */
int watch_cmd_main(int argc, char **argv);

#endif
