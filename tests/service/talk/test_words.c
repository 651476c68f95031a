/* The words of talk, without a server: which paragraphs of a mail are
 * "say" messages, and which texts a message may be. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "mailin/mail_say.h"
#include "play/messages.h"

static void expect_paragraphs(const char *mail, const char *lines)
{
    char *got = mail_say_paragraphs(mail);
    cr_expect_str_eq(got, lines);
    free(got);
}

Test(words, a_say_paragraph_is_one_line_up_to_the_blank_line)
{
    expect_paragraphs("say to Bob: shall we\ngang up on Carol?\n\nview\n",
                      "say to Bob: shall we\rgang up on Carol?\n\nview\n");
    expect_paragraphs("play B5\nsay gl\nhf\n", "play B5\nsay gl\rhf\n");
    expect_paragraphs("Say: hi\n  \nlog", "Say: hi\n  \nlog");
    /* A line that merely starts with the letters is no say. */
    expect_paragraphs("sayonara\nview", "sayonara\nview");
    expect_paragraphs("view\nsay", "view\nsay");
    cr_expect_eq(mail_say_first_line("say a\rb"), 5);
}

Test(words, what_a_message_may_hold)
{
    cr_expect_null(messages_refusal("Good luck!\n\tSee you"));
    cr_expect_null(messages_refusal("Привет, 你好 👋"));
    cr_expect_not_null(messages_refusal(""));
    cr_expect_not_null(messages_refusal(" \n\t "));
    cr_expect_not_null(messages_refusal("a\rb"));
    cr_expect_not_null(messages_refusal("a\x1b[31mred"));
    cr_expect_not_null(messages_refusal("a\xc2\x85"
                                        "b")); /* U+0085 */
    cr_expect_not_null(messages_refusal("a\xe2\x80\x8f"
                                        "b")); /* U+200F */
    cr_expect_not_null(messages_refusal("a\xd8\x9c"
                                        "b")); /* U+061C */
    char longest[1002];
    for (int i = 0; i < 1001; i++)
        longest[i] = 'x';
    longest[1001] = '\0';
    cr_expect_not_null(messages_refusal(longest));
    longest[1000] = '\0';
    cr_expect_null(messages_refusal(longest));
}
