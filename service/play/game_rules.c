/* game_rules.c: reads a game's rules summary (game_rules.h). */
#include "play/game_rules.h"

#include <stdio.h>
#include <string.h>

#include "notify/templates.h"

char *game_rules_summary(const char *game)
{
    /* An engine name is [a-z_]; anything else never names a file. */
    if (game[0] == '\0' || strspn(game, "abcdefghijklmnopqrstuvwxyz_") !=
                               strlen(game))
        return NULL;
    char name[96];
    snprintf(name, sizeof name, "rules/%s.txt", game);
    /* No variables: the summary is shown as written. */
    return templates_render_file(name, NULL, 0, false);
}
