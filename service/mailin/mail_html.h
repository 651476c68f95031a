/* mail_html.h: the text a person sees in an HTML-only mail, as lines, so
 * that commands typed one per line in Gmail, Outlook or Apple Mail come
 * out one per line. GMime decodes the part; reading the HTML is ours. Not
 * a browser: enough HTML for what mail programs write. */
#ifndef SERVICE_MAILIN_MAIL_HTML_H
#define SERVICE_MAILIN_MAIL_HTML_H

/* The text of html (UTF-8): tags dropped; <br> a line break, and a line
 * break around p, div, li, tr, table, lists, headings, hr and pre; cells
 * of a row separated by a space; runs of white space one space, except in
 * <pre>; entities decoded (&amp; &lt; &gt; &quot; &#39; &apos; &nbsp; as
 * U+00A0, a few common named ones, &#N; and &#xN;), unknown ones left as
 * written; the content of <head>, <title>, <style> and <script> dropped,
 * and of <blockquote>, which is how mail programs quote the original.
 * Linear in the input; tolerates any bytes. Returns a malloc'd string
 * without leading or trailing blank lines; out of memory aborts. */
char *mail_html_to_text(const char *html);

#endif
