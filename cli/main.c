/* main.c: `pbem`, the command-line tool of the play-by-email service.
 *
 * A thin dispatcher: each subcommand lives in its own file and is one line
 * of the tables below. Exit codes shared by every subcommand: 0 ok, 1 the
 * request was refused (a rule, an invariant, the server), 2 a usage error;
 * the player commands add 3 the server could not be reached and 4 not set
 * up (no key, not registered, a match not viewed yet).
 *
 * `--url URL` before the command sets PBEM_URL for any command; the player
 * commands also take it anywhere after their name.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "admin_cmd.h"
#include "mail_in_cmd.h"
#include "invite_cmd.h"
#include "player_cmd.h"
#include "repair_cmd.h"
#include "rules_cmd.h"
#include "verify_cmd.h"

typedef struct pbem_command {
    const char *name;
    int (*run)(int argc, char **argv); /* argv[0] is the subcommand */
    const char *summary;
} pbem_command;

/* What a person at a terminal plays with (player_cmd.h). */
static const pbem_command player_commands[] = {
    {"keygen", keygen_cmd_main, "make your key (in ~/.config/pbem), or with --mail pbem mail-in's"},
    {"register", register_cmd_main, "register your key as a player"},
    {"games", games_cmd_main, "the games the server runs, or one's rules"},
    {"new", new_cmd_main, "start a match"},
    {"list", list_cmd_main, "the open matches waiting for players"},
    {"seek", seek_cmd_main, "wait for a quick match with players near your rating"},
    {"ratings", ratings_cmd_main, "a game's standings, or your ratings"},
    {"join", join_cmd_main, "take a seat in a match"},
    {"matches", matches_cmd_main, "your matches"},
    {"view", view_cmd_main, "what your seat sees, and your moves"},
    {"move", move_cmd_main, "make a move (or a sealed choice)"},
    {"watch", watch_cmd_main, "print a match's events as they come"},
    {"say", say_cmd_main, "write to the table, or to one seat"},
    {"messages", messages_cmd_main, "what was said at a match's table"},
    {"chat-link", chat_link_cmd_main, "a code that links your Discord or Slack account"},
};

static const pbem_command commands[] = {
    {"rules", rules_cmd_main, "the rules workbench: positions, moves, scores"},
    {"verify", verify_cmd_main, "check a match from its public log and seed"},
    {"export", export_cmd_main, "admin: export matches as JSON Lines"},
    {"import", import_cmd_main, "admin: check and restore an export"},
    {"admin", repair_cmd_main, "admin: rewind, replace a seat, abort a match"},
    {"mail-in", mail_in_cmd_main, "hand one mail from a mail server to pbemd"},
    {"invite", invite_cmd_main, "invite someone by mail to a match"},
};

static void usage(FILE *out)
{
    fputs("usage: pbem [--url URL] COMMAND [ARGS…]\n\nplaying:\n", out);
    for (size_t i = 0; i < sizeof player_commands / sizeof player_commands[0];
         i++)
        fprintf(out, "  %-10s %s\n", player_commands[i].name,
                player_commands[i].summary);
    fputs("\ncommands:\n", out);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fputs("\n'pbem COMMAND --help' describes a command. --url URL (before "
          "any command,\nor after a player command) or PBEM_URL names the "
          "server, else\nhttp://127.0.0.1:8080. Player commands keep your "
          "key in\n$XDG_CONFIG_HOME/pbem (else ~/.config/pbem).\n\n"
          "exit status: 0 ok, 1 refused (by the server or the rules; the "
          "reason is\nprinted), 2 usage error, 3 the server cannot be "
          "reached, 4 not set up\n(no key: pbem keygen; not registered: "
          "pbem register; a match not viewed yet).\n",
          out);
}

/* Takes every "--url URL" out of argv (from index first on) into
 * PBEM_URL; returns the new argc, or -1 when --url lacks its URL. */
static int take_url(int argc, char **argv, int first)
{
    int kept = first;
    for (int i = first; i < argc; i++) {
        if (strcmp(argv[i], "--url") != 0) {
            argv[kept++] = argv[i];
            continue;
        }
        if (i + 1 >= argc || setenv("PBEM_URL", argv[i + 1], 1) != 0)
            return -1;
        i++;
    }
    argv[kept] = NULL;
    return kept;
}

int main(int argc, char **argv)
{
    if (argc >= 3 && strcmp(argv[1], "--url") == 0) {
        if (setenv("PBEM_URL", argv[2], 1) != 0)
            return 2;
        argv[2] = argv[0];
        argv += 2;
        argc -= 2;
    }
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return 0;
    }
    for (size_t i = 0; i < sizeof player_commands / sizeof player_commands[0];
         i++) {
        if (strcmp(argv[1], player_commands[i].name) != 0)
            continue;
        argc = take_url(argc, argv, 2);
        if (argc < 0) {
            fputs("pbem: --url needs a URL after it.\n", stderr);
            return 2;
        }
        return player_commands[i].run(argc - 1, argv + 1);
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].run(argc - 1, argv + 1);
    }
    fprintf(stderr, "pbem: there is no command called \"%s\" (see pbem --help).\n",
            argv[1]);
    return 2;
}
