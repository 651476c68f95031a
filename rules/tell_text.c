/* tell_text.c: see tell_text.h. */
#include "tell_text.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void tell_text_add(tell_text *t, const char *fmt, ...)
{
    if (t->len >= sizeof t->text - 1)
        return;
    va_list args;
    va_start(args, fmt);
    int n = vsnprintf(t->text + t->len, sizeof t->text - t->len, fmt, args);
    va_end(args);
    if (n > 0)
        t->len += (size_t)n < sizeof t->text - t->len
                      ? (size_t)n
                      : sizeof t->text - t->len - 1;
}

void tell_text_sentence(tell_text *t, const char *fmt, ...)
{
    char sentence[RULES_TELL_MOST + 1];
    va_list args;
    va_start(args, fmt);
    int n = vsnprintf(sentence, sizeof sentence, fmt, args);
    va_end(args);
    size_t space = t->len > 0 ? 1 : 0;
    if (n <= 0 || t->len + space + (size_t)n > RULES_TELL_MOST)
        return;
    tell_text_add(t, "%s%s", space ? " " : "", sentence);
}

void tell_text_unadd(tell_text *t)
{
    if (t->len > 0)
        t->text[--t->len] = '\0';
}

char *tell_text_done(const tell_text *t)
{
    if (t->len == 0)
        return NULL;
    char *told = strdup(t->text);
    if (told == NULL)
        abort();
    if (t->len > RULES_TELL_MOST) {
        /* Six long names and a long pattern: cut at a word, say so. */
        size_t cut = RULES_TELL_MOST - 4;
        while (cut > 0 && told[cut] != ' ')
            cut--;
        memcpy(told + cut, " …", sizeof " …");
    }
    return told;
}

const char *tell_text_who(int seat, int viewer, const char *const *names,
                          bool capital)
{
    if (seat == viewer)
        return capital ? "You" : "you";
    return names[seat];
}

const char *tell_text_whose(int seat, int viewer, const char *const *names,
                            char *buf, size_t size)
{
    if (seat == viewer)
        return "your";
    snprintf(buf, size, "%s's", names[seat]);
    return buf;
}
