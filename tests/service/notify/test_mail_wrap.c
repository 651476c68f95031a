/* The 72-column wrap of a mail's text: prose broken at spaces, but never
 * between a counting word and its number. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "notify/mail_wrap.h"

/* Whether no line of text is longer than the wrap's width. */
static bool within_width(const char *text)
{
    for (const char *line = text; *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        if (len > MAIL_WRAP_COLUMNS)
            return false;
        line += len + (end != NULL);
    }
    return true;
}

/* Wraps text and expects every line within the width and words in it
 * (as they are, or broken where the test says). */
static void expect_wrapped(const char *text, const char *words)
{
    char *wrapped = mail_wrap(text);
    cr_expect(within_width(wrapped), "%s", wrapped);
    cr_expect_not_null(strstr(wrapped, words), "no \"%s\" in:\n%s", words,
                       wrapped);
    free(wrapped);
}

Test(mail_wrap, an_event_and_its_number_stay_on_one_line)
{
    /* The answer to a sealed choice as pbemd wrote it: "event" ended the
     * 72nd column and its number began the next line. */
    const char *text = "Your choice is sealed: nobody sees it until "
                       "everyone has chosen (event 6). Waiting for Bob.";
    expect_wrapped(text, "(event 6).");
}

Test(mail_wrap, seats_rounds_and_turns_keep_their_numbers)
{
    static const char *const pairs[] = {"seat 2", "round 3", "Turn 14",
                                        "space 37"};
    for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++) {
        /* Each pair placed where the 72nd column falls inside it, at
         * every offset around the width. */
        for (size_t pad = 60; pad < 72; pad++) {
            char text[200];
            memset(text, 'x', sizeof text);
            for (size_t k = 4; k < pad; k += 5)
                text[k] = ' ';
            snprintf(text + pad, sizeof text - pad, " %s and the rest.",
                     pairs[i]);
            expect_wrapped(text, pairs[i]);
        }
    }
}

Test(mail_wrap, other_numbers_still_break_where_they_fall)
{
    /* "gained 1234567" is no counted pair: the line breaks before the number
     * when that is where the width ends. */
    const char *text = "aaaaa aaaaa aaaaa aaaaa aaaaa aaaaa aaaaa aaaaa "
                       "aaaaa aaaaa gained 1234567 silver.";
    expect_wrapped(text, "gained\n1234567");
}
