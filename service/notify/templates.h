/* templates.h: a tiny renderer for the files in templates/ (PBEM_TEMPLATES,
 * default "templates"). {{name}} is replaced by the value of name; in HTML
 * mode every value is HTML-escaped (& < > " '), so match and player data
 * can never become markup. An unknown name renders as nothing. There are
 * no conditionals or loops: callers pass prepared text. */
#ifndef SERVICE_NOTIFY_TEMPLATES_H
#define SERVICE_NOTIFY_TEMPLATES_H

#include <stdbool.h>

typedef struct templates_var {
    const char *name;
    const char *value;
} templates_var;

/* Renders text with vars[0..count); returns a malloc'd string. */
char *templates_render_text(const char *text, const templates_var *vars,
                            int count, bool html);

/* Renders the file <dir>/<name> (e.g. "your_turn.html"); NULL when it
 * cannot be read. */
char *templates_render_file(const char *name, const templates_var *vars,
                            int count, bool html);

/* HTML-escapes text (malloc'd). */
char *templates_escape_html(const char *text);

#endif
