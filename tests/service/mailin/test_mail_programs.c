/* Replies as real mail programs write them (the fixtures of
 * tests/service/mailparse), sent to the service for real: the answer shows
 * exactly the lines the person wrote, and nothing of what they quoted. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mail_people.h"

/* Every occurrence of from in text replaced by to (malloc'd). */
static char *replace_all(const char *text, const char *from, const char *to)
{
    char *out = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&out, &size);
    for (const char *at; (at = strstr(text, from)) != NULL;
         text = at + strlen(from)) {
        fwrite(text, 1, (size_t)(at - text), f);
        fputs(to, f);
    }
    fputs(text, f);
    fclose(f);
    return out;
}

static char *fixture(const char *name)
{
    char path[256];
    snprintf(path, sizeof path, "tests/service/mailparse/fixtures/%s", name);
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "%s", path);
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        fwrite(buf, 1, n, out);
    fclose(out);
    fclose(f);
    return text;
}

/* The fixture as if Alice wrote it now to her latest reply address: her
 * address for the sender's, the reply address for pbem+tok, a fresh
 * Message-ID. */
static char *as_alice(const char *name, const char *sender,
                      const char *reply_to, int n)
{
    char *raw = fixture(name);
    char *a = replace_all(raw, "pbem+tok@example.org", reply_to);
    char *b = replace_all(a, sender, "alice@example.org");
    char *c = replace_all(b, "Message-ID: <", "Message-ID: <e2e");
    char id[32];
    snprintf(id, sizeof id, "Message-ID: <e2e%d.", n);
    char *d = replace_all(c, "Message-ID: <e2e", id);
    free(raw);
    free(a);
    free(b);
    free(c);
    return d;
}

typedef struct program_mail {
    const char *file;
    const char *sender;  /* the fixture's From address */
    const char *first;   /* the first line the person wrote */
} program_mail;

Test(mail_programs, replies_as_mail_programs_write_them, .timeout = 300)
{
    static const program_mail mails[] = {
        {"gmail_reply.eml", "alice.example@gmail.com", "play 3 5"},
        {"outlook_reply.eml", "erin@contoso.example", "play 3 5"},
        {"outlook_original_message.eml", "erin@contoso.example", "play 3 5"},
        {"outlook_web_reply.eml", "frank@outlook.com", "play 3 5"},
        {"mutt_reply.eml", "grace@example.net", "play 3 5"},
        {"apple_mail_reply.eml", "dave@icloud.com", "play 3 5"},
        {"iphone_reply.eml", "dave@icloud.com", "view"},
        {"thunderbird_reply.eml", "carol@example.net", "play 3 5"},
        {"signature_attachment.eml", "heidi@example.com", "play 3 5"},
        {"html_only.eml", "bruno@example.net", "play 3 5"},
        {"quoted_printable.eml", "chen@example.net", "play 3 5"},
        {"base64_utf8.eml", "dora@example.com", "play 3 5"},
        {"latin1.eml", "emile@example.fr", "play 3 5"},
    };
    static const char *const env[] = {"PBEM_MAIL_ANSWERS_PER_HOUR=1000", NULL};
    mail_scene scene;
    mail_scene_start(&scene, false, env);
    mail_table t;
    mail_table_sit_down(&t, &scene, "antiquity_quest", 2, "");
    for (size_t i = 0; i < sizeof mails / sizeof *mails; i++) {
        mail_table_read(&t);
        const json_t *latest = t.people[0].latest;
        char *raw = as_alice(mails[i].file, mails[i].sender,
                             mail_reply_to(latest), (int)i);
        size_t before = mail_count(&scene);
        cr_assert_eq(mail_hand_in(&scene, raw), 0, "%s", mails[i].file);
        free(raw);
        t.people[0].answered = true;
        size_t from = before;
        json_t *answer = mail_next_to(&scene, "alice@example.org", &from, 20);
        cr_assert_not_null(answer, "%s: no answer", mails[i].file);
        const char *text = mail_text(answer);
        char expected[64];
        snprintf(expected, sizeof expected, "> %s\n", mails[i].first);
        cr_expect(strncmp(text, expected, strlen(expected)) == 0,
                  "%s: the answer does not begin with the person's first "
                  "line:\n%s",
                  mails[i].file, text);
        /* What the person quoted or signed is not taken for commands. */
        cr_expect_null(strstr(text, "> >"), "%s:\n%s", mails[i].file, text);
        cr_expect_null(strstr(text, "> On "), "%s:\n%s", mails[i].file, text);
        cr_expect_null(strstr(text, "> -- "), "%s:\n%s", mails[i].file, text);
        cr_expect_null(strstr(text, "> From:"), "%s:\n%s", mails[i].file, text);
        if (strcmp(mails[i].first, "view") == 0)
            cr_expect(strstr(text, "Your view is below.") != NULL, "%s", text);
        else
            cr_expect(strstr(text, "Not a move: ") != NULL,
                      "%s: \"play 3 5\" is no Antiquity Quest move:\n%s",
                      mails[i].file, text);
        json_decref(answer);
        mail_table_read(&t);
    }
    mail_table_free(&t);
    mail_scene_stop(&scene);
}
