/* page.c: plain text for people, one paragraph at a time, each wrapped at
 * AV_PAGE_WIDTH characters between words. A paragraph's later lines are
 * indented by two spaces, so a wrapped line reads as one item in any font
 * without relying on columns. */
#include "av_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define INDENT "  "

static void out_of_memory(void)
{
    fprintf(stderr, "%s: out of memory\n", __FILE__);
    abort();
}

static void append(av_page *page, const char *bytes, size_t length)
{
    if (page->length + length + 1 > page->size) {
        size_t size = page->size ? page->size : 1024;
        while (page->length + length + 1 > size)
            size *= 2;
        char *text = realloc(page->text, size);
        if (text == NULL)
            out_of_memory();
        page->text = text;
        page->size = size;
    }
    memcpy(page->text + page->length, bytes, length);
    page->length += length;
    page->text[page->length] = '\0';
}

/* Characters, not bytes: a UTF-8 continuation byte starts none. */
static size_t characters(const char *bytes, size_t length)
{
    size_t count = 0;
    for (size_t i = 0; i < length; i++)
        count += ((unsigned char)bytes[i] & 0xc0) != 0x80;
    return count;
}

/* How many bytes of text make the first line of at most width
 * characters: up to the last space that fits, else the whole width. */
static size_t line_end(const char *text, size_t length, size_t width)
{
    if (characters(text, length) <= width)
        return length;
    size_t fits = 0, chars = 0, last_space = 0;
    while (fits < length) {
        chars += ((unsigned char)text[fits] & 0xc0) != 0x80;
        if (chars > width)
            break;
        if (text[fits] == ' ')
            last_space = fits;
        fits++;
    }
    return last_space > 0 ? last_space : fits;
}

/* Writes paragraph (one line of text, no newline) wrapped; returns the
 * lines it takes. With page NULL it only counts them. */
static int wrap(av_page *page, const char *paragraph)
{
    const char *rest = paragraph;
    size_t length = strlen(rest);
    int lines = 0;
    do {
        size_t width = lines == 0 ? AV_PAGE_WIDTH
                                  : AV_PAGE_WIDTH - strlen(INDENT);
        size_t end = line_end(rest, length, width);
        if (page != NULL) {
            if (lines > 0)
                append(page, INDENT, strlen(INDENT));
            append(page, rest, end);
            append(page, "\n", 1);
        }
        lines++;
        while (end < length && rest[end] == ' ')
            end++;
        rest += end;
        length -= end;
    } while (length > 0);
    return lines;
}

int av_page_lines(const char *paragraph)
{
    return wrap(NULL, paragraph);
}

void av_page_say(av_page *page, const char *fmt, ...)
{
    char *paragraph = NULL;
    va_list args;
    va_start(args, fmt);
    int length = vasprintf(&paragraph, fmt, args);
    va_end(args);
    if (length < 0)
        out_of_memory();
    page->lines += wrap(page, paragraph);
    free(paragraph);
}

void av_page_blank(av_page *page)
{
    if (page->length > 0 && page->text[page->length - 1] == '\n' &&
        (page->length == 1 || page->text[page->length - 2] != '\n')) {
        append(page, "\n", 1);
        page->lines++;
    }
}

char *av_page_text(av_page *page)
{
    if (page->text == NULL)
        append(page, "", 0);
    char *text = page->text;
    *page = (av_page){0};
    return text;
}
