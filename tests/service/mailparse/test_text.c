/* test_text.c: mail_text_written_part on the replies mail programs write:
 * what is left is what the person typed. Pure: no GMime, no database. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>

#include "mailin/mail_text.h"

static void expect(const char *text, const char *written)
{
    char *got = mail_text_written_part(text);
    cr_assert_str_eq(got, written, "from:\n%s", text);
    free(got);
}

Test(mail_text, a_plain_mail_is_kept_line_by_line)
{
    expect("play 3 5\nview\n", "play 3 5\nview");
}

Test(mail_text, line_ends_and_trailing_spaces_are_normalised)
{
    expect("\r\n\r\nplay 3 5  \r\nview\t\r\n\r\n", "play 3 5\nview");
    expect("play 3 5\rview", "play 3 5\nview");
}

Test(mail_text, a_non_breaking_space_is_a_space)
{
    expect("play\xC2\xA0"
           "3 5\xC2\xA0\nview",
           "play 3 5\nview");
}

Test(mail_text, invisible_marks_are_dropped)
{
    expect("\xEF\xBB\xBF"
           "play 3 5\nvi\xE2\x80\x8B"
           "ew",
           "play 3 5\nview");
}

Test(mail_text, blank_lines_between_commands_stay)
{
    expect("play 3 5\n\nview", "play 3 5\n\nview");
}

Test(mail_text, top_posted_gmail_reply)
{
    expect("play 3 5\nview\n\n"
           "On Tue, 24 Nov 2026 at 10:02, pbem <pbem+tok@example.org> "
           "wrote:\n\n"
           "> It is your turn in m_42.\n>\n> Reply with your move.\n",
           "play 3 5\nview");
}

Test(mail_text, gmail_attribution_split_over_two_lines)
{
    expect("play 3 5\n\nOn Tue, 24 Nov 2026 at 10:02, pbem <\n"
           "pbem+tok@example.org> wrote:\n\n> Your turn.\n",
           "play 3 5");
}

Test(mail_text, an_attribution_without_a_quote_below_is_dropped_too)
{
    /* Gmail's HTML, once its blockquote is gone */
    expect("play 3 5\nOn Tue, 24 Nov 2026 at 10:02, pbem wrote:", "play 3 5");
}

Test(mail_text, bottom_posted_mutt_reply)
{
    expect("* pbem <pbem+tok@example.org> [2026-11-24 10:02]:\n"
           "> It is your turn in m_42.\n"
           "> Reply with your move.\n\n"
           "play 3 5\nview\n\n-- \nAlice\n",
           "play 3 5\nview");
}

Test(mail_text, interleaved_answers_keep_every_written_line)
{
    expect("pbem wrote:\n> Your move in m_42?\nplay 3 5\n"
           "> And in m_43?\nview\n",
           "play 3 5\nview");
}

Test(mail_text, outlook_original_message_block)
{
    expect("play 3 5\r\nview\r\n\r\n-----Original Message-----\r\n"
           "From: pbem <pbem+tok@example.org>\r\n"
           "Sent: Tuesday, November 24, 2026 10:02 AM\r\n"
           "To: Alice <alice@example.org>\r\nSubject: Your turn\r\n\r\n"
           "It is your turn.\r\nplay 1 1\r\n",
           "play 3 5\nview");
}

Test(mail_text, outlook_header_block_below_a_line_of_underscores)
{
    expect("play 3 5\nview\n\n________________________________\n"
           "From: pbem <pbem+tok@example.org>\n"
           "Sent: Tuesday, November 24, 2026 10:02\n"
           "To: Alice <alice@example.org>\nSubject: Your turn\n\n"
           "It is your turn.\n",
           "play 3 5\nview");
}

Test(mail_text, a_bold_outlook_header_block_in_plain_text)
{
    expect("play 3 5\n\n*From:* pbem <pbem+tok@example.org>\n"
           "*Sent:* Tuesday\n*To:* Alice\n*Subject:* Your turn\n\nold\n",
           "play 3 5");
}

Test(mail_text, a_from_line_alone_is_what_the_person_wrote)
{
    expect("From: the north\nplay 3 5", "From: the north\nplay 3 5");
}

Test(mail_text, the_signature_ends_the_text)
{
    expect("play 3 5\n-- \nAlice\nplay 9 9", "play 3 5");
    expect("play 3 5\n--\nAlice", "play 3 5");
}

Test(mail_text, a_phone_signature_ends_the_text)
{
    expect("play 3 5\n\nSent from my iPhone\n\n> On 24 Nov 2026, at 10:02, "
           "pbem wrote:\n",
           "play 3 5");
    expect("view\n\nGet Outlook for Android\n", "view");
}

Test(mail_text, end_ends_the_commands_in_any_case)
{
    /* The line "end" stays, as the last: Quarriors has a move "end". */
    expect("play 3 5\nview\n  END  \nAlice, Paris office\n+33 1 23",
           "play 3 5\nview\nEND");
    expect("play 3 5\nend\n", "play 3 5\nend");
    expect("play 3 5\nending\n", "play 3 5\nending");
}

/* s-nail's default reply: the attribution, then the original indented by
 * a tab, with no '>' anywhere. */
Test(mail_text, s_nail_tab_indented_quote)
{
    expect("take F1\n\npbem <pbem+tok@example.org> wrote:\n"
           "\tIt is your turn in m_42.\n\n\tMoves you can make now:\n"
           "\t  draw\n\t  take F1\n",
           "take F1");
    expect("pbem <pbem+tok@example.org> wrote:\n\tYour move?\n"
           "\tdraw\ntake F1\n",
           "take F1");
}

Test(mail_text, a_space_indented_quote_below_an_attribution)
{
    expect("draw\nOn 25/11/2026 10:00, pbem wrote:\n    Your turn.\n"
           "    draw\n",
           "draw");
}

Test(mail_text, attribution_lines_in_five_languages)
{
    static const char *const lines[] = {
        "pbem <pbem+tok@example.org> wrote:",
        "On 11/25/26 10:00, pbem wrote:",
        "On Wed, 25 Nov 2026 at 10:00, pbem <pbem+tok@example.org> wrote:",
        "On 25 Nov 2026, at 10:00, pbem <pbem+tok@example.org> wrote:",
        "Op wo 25 nov. 2026 om 10:00 schreef pbem <pbem+tok@example.org>:",
        "Le mer. 25 nov. 2026 à 10:00, pbem <pbem+tok@example.org> a "
        "écrit :",
        "Am Mi., 25. Nov. 2026 um 10:00 Uhr schrieb pbem "
        "<pbem+tok@example.org>:",
        "El mié, 25 nov 2026 a las 10:00, pbem (<pbem+tok@example.org>) "
        "escribió:",
    };
    for (size_t i = 0; i < sizeof lines / sizeof *lines; i++) {
        char text[512];
        /* Above a '>' quote, above a tab quote, and alone at the end (a
         * client whose quote was HTML). */
        snprintf(text, sizeof text, "draw\n\n%s\n> Your turn.\n> draw\n",
                 lines[i]);
        expect(text, "draw");
        snprintf(text, sizeof text, "draw\n%s\n\tYour turn.\n", lines[i]);
        expect(text, "draw");
        snprintf(text, sizeof text, "draw\n%s", lines[i]);
        expect(text, "draw");
    }
}

Test(mail_text, a_wrapped_attribution_in_dutch_and_german)
{
    expect("draw\n\nOp wo 25 nov. 2026 om 10:00 schreef pbem <\n"
           "pbem+tok@example.org>:\n\n> Your turn.\n",
           "draw");
    expect("draw\nAm Mi., 25. Nov. 2026 um 10:00 Uhr schrieb pbem\n"
           "<pbem+tok@example.org>:\n\tYour turn.\n",
           "draw");
}

Test(mail_text, outlook_header_blocks_in_other_languages)
{
    expect("draw\n\nVan: pbem <pbem+tok@example.org>\n"
           "Verzonden: woensdag 25 november 2026 10:00\nAan: Alice\n"
           "Onderwerp: Your turn\n\nIt is your turn.\ndraw\n",
           "draw");
    expect("draw\n\nDe : pbem <pbem+tok@example.org>\n"
           "Envoyé : mercredi 25 novembre 2026 10:00\nÀ : Alice\n"
           "Objet : Your turn\n\ndraw\n",
           "draw");
    expect("draw\n\nVon: pbem\nGesendet: Mittwoch\nAn: Alice\n"
           "Betreff: Your turn\n\ndraw\n",
           "draw");
    expect("draw\n\nDe: pbem\nEnviado: miércoles\nPara: Alice\n"
           "Asunto: Your turn\n\ndraw\n",
           "draw");
}

Test(mail_text, forwarded_message_markers_end_the_text)
{
    expect("view\n\n---------- Forwarded message ---------\nFrom: x\n", "view");
    expect("view\n\nBegin forwarded message:\n\nFrom: x\n", "view");
}

Test(mail_text, nothing_written_is_empty)
{
    expect("", "");
    expect("\n\n  \n", "");
    expect("> only a quote\n> more\n", "");
}
