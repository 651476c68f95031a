/* main.c: `pbem`, the command-line tool of the play-by-email service.
 *
 * A thin dispatcher: each subcommand lives in its own file and is one line
 * of the table below. Exit codes shared by every subcommand: 0 ok, 1 the
 * request was refused (a rule, an invariant, the server), 2 a usage error.
 */
#include <stdio.h>
#include <string.h>

#include "admin_cmd.h"
#include "mail_in_cmd.h"
#include "invite_cmd.h"
#include "repair_cmd.h"
#include "rules_cmd.h"
#include "verify_cmd.h"

typedef struct pbem_command {
    const char *name;
    int (*run)(int argc, char **argv); /* argv[0] is the subcommand */
    const char *summary;
} pbem_command;

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
    fputs("usage: pbem COMMAND [ARGS…]\n\ncommands:\n", out);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fputs("\n'pbem COMMAND --help' describes a command.\n", out);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].run(argc - 1, argv + 1);
    }
    fprintf(stderr, "pbem: there is no command called \"%s\" (see pbem --help).\n",
            argv[1]);
    return 2;
}
