/* test_html.c: mail_html_to_text on what mail programs write in HTML. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "mailin/mail_html.h"

static void expect(const char *html, const char *text)
{
    char *got = mail_html_to_text(html);
    cr_assert_str_eq(got, text, "from:\n%s", html);
    free(got);
}

Test(mail_html, gmail_writes_a_div_per_line)
{
    expect("<div dir=\"ltr\"><div>play 3 5</div><div>view</div></div>",
           "play 3 5\nview");
}

Test(mail_html, an_empty_div_with_a_br_is_a_blank_line)
{
    expect("<div>play 3 5</div><div><br></div><div>view</div>",
           "play 3 5\n\nview");
}

Test(mail_html, br_breaks_lines)
{
    expect("play 3 5<br>view<BR/>end", "play 3 5\nview\nend");
}

Test(mail_html, paragraphs_list_items_and_rows_are_lines)
{
    expect("<p class=MsoNormal>play 3 5<o:p></o:p></p>"
           "<p class=MsoNormal>view<o:p></o:p></p>",
           "play 3 5\nview");
    expect("<ul><li>play 3 5</li><li>view</li></ul>", "play 3 5\nview");
    expect("<table><tr><td>a</td><td>b</td></tr><tr><td>c</td></tr></table>",
           "a b\nc");
}

Test(mail_html, white_space_collapses_as_a_browser_shows_it)
{
    expect("<div>\n  play\n   3   5\n</div>\n\n<div>view</div>",
           "play 3 5\nview");
}

Test(mail_html, pre_keeps_its_lines_and_spaces)
{
    expect("<pre>play  3 5\nview</pre>", "play  3 5\nview");
}

Test(mail_html, entities_are_decoded)
{
    expect("a &amp; b &lt;c&gt; &quot;d&quot; &#39;e&#39; &apos;f&apos;",
           "a & b <c> \"d\" 'e' 'f'");
    expect("&#233;t&#xE9; &#x1F600; &eacute; &euro;",
           "\xC3\xA9t\xC3\xA9 \xF0\x9F\x98\x80 \xC3\xA9 \xE2\x82\xAC");
    expect("x&nbsp;y", "x\xC2\xA0y");
    expect("AT&T &unknown; &amp", "AT&T &unknown; &");
}

Test(mail_html, invalid_character_references_become_replacement_characters)
{
    expect("a&#0;b&#xD800;c&#99999999999;d", "a\xEF\xBF\xBD"
                                             "b\xEF\xBF\xBD"
                                             "c\xEF\xBF\xBD"
                                             "d");
}

Test(mail_html, head_style_script_and_comments_are_not_text)
{
    expect("<html><head><title>Re: turn</title><meta charset=utf-8>"
           "<style>p { color: red; }</style></head>"
           "<body><!-- x --><script>alert(1)</script><p>view</p>"
           "<!--[if mso]><p>hidden</p><![endif]--></body></html>",
           "view");
}

Test(mail_html, a_head_without_its_end_ends_at_the_body)
{
    expect("<head><meta charset=utf-8><div>view</div>", "view");
}

Test(mail_html, blockquote_content_is_the_quoted_original)
{
    expect("<div>play 3 5</div><div class=\"gmail_quote\">"
           "<div class=\"gmail_attr\">On Tue, 24 Nov 2026 at 10:02, pbem "
           "&lt;pbem+tok@example.org&gt; wrote:<br></div>"
           "<blockquote class=\"gmail_quote\">Your turn<blockquote>older"
           "</blockquote>still quoted</blockquote></div>",
           "play 3 5\nOn Tue, 24 Nov 2026 at 10:02, pbem "
           "<pbem+tok@example.org> wrote:");
}

Test(mail_html, attributes_may_hold_angle_brackets)
{
    expect("<a title=\"a > b\" href='x>y'>view</a>", "view");
}

Test(mail_html, a_lone_less_than_sign_is_text)
{
    expect("3 < 5 and 5 > 3", "3 < 5 and 5 > 3");
}

Test(mail_html, unterminated_constructs_end_the_text)
{
    expect("view<div class=\"x", "view");
    expect("view<!-- never closed", "view");
    expect("view<style>p{}", "view");
}

Test(mail_html, many_opening_brackets_stay_linear)
{
    size_t n = 1 << 20;
    char *html = malloc(n + 1);
    cr_assert_not_null(html);
    for (size_t i = 0; i < n; i++)
        html[i] = "<a"[i % 2];
    html[n] = '\0';
    char *text = mail_html_to_text(html);
    cr_assert_str_eq(text, "");
    free(text);
    memset(html, '&', n);
    text = mail_html_to_text(html);
    cr_assert_eq(strlen(text), n);
    free(text);
    free(html);
}
