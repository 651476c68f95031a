/* The commands a person writes, each answered as a person reads it. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mail_people.h"

static const char *const generous[] = {"PBEM_MAIL_ANSWERS_PER_HOUR=1000",
                                       NULL};

/* Person p writes text; the answer must contain every one of says. */
static void expect_answer(mail_table *t, int p, const char *text,
                          const char *const *says)
{
    json_t *answer = mail_table_answer(t, p, text);
    for (int i = 0; says[i] != NULL; i++)
        cr_expect(mail_says(answer, says[i]),
                  "\"%s\": the answer does not say \"%s\":\n%s", text, says[i],
                  mail_text(answer));
    json_decref(answer);
}

#define SAYS(...) ((const char *const[]){__VA_ARGS__, NULL})

Test(mail_commands, every_command_answers_in_words, .timeout = 180)
{
    mail_scene scene;
    mail_scene_start(&scene, false, generous);
    mail_table t;
    mail_table_sit_down(&t, &scene, "antiquity_quest", 2, "");
    char named[64];
    snprintf(named, sizeof named, "Match %s, Antiquity Quest", t.match);

    expect_answer(&t, 0, "help",
                  SAYS("> help\nWrite one command per line",
                       "vacation 2026-12-24 2027-01-02, or vacation off"));
    expect_answer(&t, 0, "GAMES",
                  SAYS("antiquity_quest (Antiquity Quest), 2 to",
                       "Start one with: new GAME seats=N"));
    /* The rules where people play: by the engine's name or the title. */
    expect_answer(&t, 0, "rules Antiquity Quest",
                  SAYS("> rules Antiquity Quest\nAntiquity Quest: the rules "
                       "in short",
                       "\nNotation, one example each\n  draw",
                       "/games/antiquity_quest"));
    expect_answer(&t, 1, "rules quarriors!",
                  SAYS("Quarriors! with Quartifacts: the rules in short"));
    expect_answer(&t, 0, "rules chess",
                  SAYS("Refused: there is no game called \"chess\": write "
                       "rules and one of antiquity_quest"));
    expect_answer(&t, 0, "help", SAYS("rules [GAME]     a game's rules"));
    /* "rules" alone, in answer to the match's mail: this game's. */
    expect_answer(&t, 1, "rules",
                  SAYS("Antiquity Quest: the rules in short"));
    expect_answer(&t, 0, "matches", SAYS(t.match, "seat 0"));
    expect_answer(&t, 0, "view",
                  SAYS("> view\nYour view is below.", named,
                       "seat 0 Alice (you), seat 1 Bob", "Waiting for: seat"));
    /* The log in sentences, as the seat was told them. */
    expect_answer(&t, 1, "log 2",
                  SAYS("> log 2\n", "You joined the match.\n",
                       ". The match started.\n"));
    expect_answer(&t, 0, "settings digest on",
                  SAYS("Settings changed: digest on."));
    expect_answer(&t, 0, "settings quiet 22:00-07:00",
                  SAYS("Settings changed: quiet 22:00-07:00."));
    expect_answer(&t, 0, "settings zone Europe/Paris",
                  SAYS("Settings changed: zone Europe/Paris."));
    expect_answer(&t, 0, "settings reminders 24,72",
                  SAYS("Settings changed: reminders 24,72."));
    expect_answer(&t, 0, "settings colour blue",
                  SAYS("Refused: the settings are: digest on|off"));
    expect_answer(&t, 0, "vacation 2026-12-24 2027-01-02",
                  SAYS("Vacation from 2026-12-24T00:00:00Z until "
                       "2027-01-03T00:00:00Z"));
    expect_answer(&t, 0, "vacation off",
                  SAYS("Vacation cancelled: your clocks run as usual."));
    expect_answer(&t, 0, "vacation soon",
                  SAYS("Refused: write \"vacation FROM UNTIL\""));
    /* The first refusal stops the mail. */
    expect_answer(&t, 0, "help\nfly to the moon\nview\nmatches",
                  SAYS("> help\n", "> fly to the moon\nNot a move: ",
                       "2 more lines after the refusal were not applied."));
    expect_answer(&t, 0, "join",
                  SAYS("Refused: \"join\" answers an invitation"));
    expect_answer(&t, 0, "log 0", SAYS("Refused: write \"log\" or \"log N\""));
    /* A code to play from Discord or Slack (docs/chat.md). */
    expect_answer(&t, 1, "chat",
                  SAYS("> chat\nYour chat link code: ", "  /pbem link "));
    mail_table_free(&t);
    mail_scene_stop(&scene);
}

Test(mail_commands, a_nudge_and_a_new_match_by_mail, .timeout = 180)
{
    mail_scene scene;
    mail_scene_start(&scene, false, generous);
    mail_table t;
    mail_table_sit_down(&t, &scene, "antiquity_quest", 2, "");
    /* Whoever does not have to act nudges the other. */
    char path[64];
    snprintf(path, sizeof path, "/v1/matches/%s", t.match);
    e2e_response r = e2e_call(&scene.server, "GET", path, NULL, NULL);
    int waiting = (int)json_integer_value(json_array_get(
        json_object_get(json_object_get(r.json, "pending"), "seats"), 0));
    e2e_response_free(&r);
    expect_answer(&t, 1 - waiting, "nudge",
                  SAYS("Nudged: the seats the match waits for are reminded."));
    expect_answer(&t, 1 - waiting, "nudge", SAYS("Refused: "));
    /* A second match, started from a mail about the first. */
    expect_answer(&t, 1, "new artifact_stack seats=2",
                  SAYS("is open and you have seat 0",
                       "invite ADDRESS NAME"));
    expect_answer(&t, 1, "new no_such_game seats=2", SAYS("Refused: "));
    expect_answer(&t, 1, "new antiquity_quest seats=2 colour",
                  SAYS("Refused: write options as name=value"));
    mail_table_free(&t);
    mail_scene_stop(&scene);
}
