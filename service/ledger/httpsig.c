/* httpsig.c: RFC 9421 signatures (ed25519) and RFC 9530 Content-Digest.
 *
 * The fields arrive from strangers, so the RFC 8941 parser below is strict,
 * bounded (HTTPSIG_FIELD_MAX) and works on spans of the caller's string: it
 * never copies more than it checked the size of. A dictionary is read twice:
 * once to validate it whole and find the member wanted, then that member's
 * span again to read its content. */
#include "ledger/httpsig.h"

#include <inttypes.h>
#include <sodium.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/text_buffer.h"

#define SF_PARAMS_MAX 16
#define SF_INTEGER_MAX 999999999999999LL /* 15 digits, RFC 8941 3.3.1 */

static void *xmalloc(size_t size, const char *file, int line)
{
    void *p = malloc(size ? size : 1);
    if (p == NULL) {
        fprintf(stderr, "%s:%d: out of memory\n", file, line);
        abort();
    }
    return p;
}
#define XMALLOC(size) xmalloc((size), __FILE__, __LINE__)

__attribute__((format(printf, 2, 3))) static bool fail(httpsig_error *err,
                                                       const char *fmt, ...)
{
    if (err != NULL) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
    }
    return false;
}

/* ---- a growing string, NUL-terminated after every addition ---- */

static void buf_add(text_buffer *b, const char *s, size_t n)
{
    text_buffer_put(b, s, n);
    b->bytes[b->len] = '\0'; /* text_buffer_put leaves room for it */
}

static void buf_str(text_buffer *b, const char *s)
{
    buf_add(b, s, strlen(s));
}

/* ---- RFC 8941 structured fields ---- */

enum sf_type {
    SF_INTEGER,
    SF_DECIMAL,
    SF_STRING,
    SF_TOKEN,
    SF_BYTES,
    SF_BOOLEAN,
};

static const char *const sf_type_names[] = {
    "an integer", "a decimal",       "a string",
    "a token",    "a byte sequence", "a boolean",
};

/* A bare item. raw spans the text between the delimiters: a string's
 * characters still escaped, a byte sequence's base64, a token. */
struct sf_item {
    enum sf_type type;
    int64_t integer;
    const char *raw;
    size_t raw_len;
};

struct sf_param {
    char key[HTTPSIG_NAME_MAX + 1];
    struct sf_item value;
};

struct sf_params {
    size_t count;
    struct sf_param param[SF_PARAMS_MAX];
};

struct sf {
    const char *s;
    size_t len;
    size_t pos;
    const char *field; /* "Signature-Input", for error sentences */
};

static bool sf_bad(struct sf *p, httpsig_error *err, const char *what)
{
    return fail(err, "%s is not a valid structured field: %s at byte %zu",
                p->field, what, p->pos);
}

static int sf_peek(const struct sf *p)
{
    return p->pos < p->len ? (unsigned char)p->s[p->pos] : -1;
}

static bool is_lcalpha(int c)
{
    return c >= 'a' && c <= 'z';
}

static bool is_alpha(int c)
{
    return is_lcalpha(c) || (c >= 'A' && c <= 'Z');
}

static bool is_digit(int c)
{
    return c >= '0' && c <= '9';
}

static bool is_tchar(int c)
{
    return c > 0 &&
           (is_alpha(c) || is_digit(c) || strchr("!#$%&'*+-.^_`|~", c));
}

static bool is_base64_char(int c)
{
    return c > 0 && (is_alpha(c) || is_digit(c) || strchr("+/=", c));
}

static void sf_skip_sp(struct sf *p)
{
    while (sf_peek(p) == ' ')
        p->pos++;
}

static void sf_skip_ows(struct sf *p)
{
    while (sf_peek(p) == ' ' || sf_peek(p) == '\t')
        p->pos++;
}

static bool sf_key(struct sf *p, char key[HTTPSIG_NAME_MAX + 1],
                   httpsig_error *err)
{
    int c = sf_peek(p);
    if (!is_lcalpha(c) && c != '*')
        return sf_bad(p, err, "expected a lower-case key");
    size_t n = 0;
    while (is_lcalpha(c) || is_digit(c) || (c > 0 && strchr("_-.*", c))) {
        if (n == HTTPSIG_NAME_MAX)
            return sf_bad(p, err, "a key longer than 64 characters");
        key[n++] = (char)c;
        p->pos++;
        c = sf_peek(p);
    }
    key[n] = '\0';
    return true;
}

static bool sf_number(struct sf *p, struct sf_item *item, httpsig_error *err)
{
    size_t start = p->pos;
    bool negative = false;
    if (sf_peek(p) == '-') {
        negative = true;
        p->pos++;
    }
    if (!is_digit(sf_peek(p)))
        return sf_bad(p, err, "expected a digit");
    int64_t value = 0;
    size_t digits = 0;
    while (is_digit(sf_peek(p))) {
        if (++digits > 15)
            return sf_bad(p, err, "a number longer than 15 digits");
        value = value * 10 + (sf_peek(p) - '0');
        p->pos++;
    }
    item->type = SF_INTEGER;
    if (sf_peek(p) == '.') {
        if (digits > 12)
            return sf_bad(p, err, "a decimal longer than 12 digits");
        p->pos++;
        size_t fraction = 0;
        while (is_digit(sf_peek(p))) {
            if (++fraction > 3)
                return sf_bad(p, err, "a decimal with more than 3 decimals");
            p->pos++;
        }
        if (fraction == 0)
            return sf_bad(p, err, "a decimal without decimals");
        item->type = SF_DECIMAL;
    }
    item->integer = negative ? -value : value;
    item->raw = p->s + start;
    item->raw_len = p->pos - start;
    return true;
}

static bool sf_string(struct sf *p, struct sf_item *item, httpsig_error *err)
{
    p->pos++; /* the opening quote */
    size_t start = p->pos;
    for (;;) {
        int c = sf_peek(p);
        if (c < 0)
            return sf_bad(p, err, "an unterminated string");
        if (c == '"')
            break;
        if (c == '\\') {
            p->pos++;
            c = sf_peek(p);
            if (c != '"' && c != '\\')
                return sf_bad(p, err, "a bad escape in a string");
        } else if (c < 0x20 || c > 0x7e) {
            return sf_bad(p, err, "a control or non-ASCII character");
        }
        p->pos++;
    }
    item->type = SF_STRING;
    item->raw = p->s + start;
    item->raw_len = p->pos - start;
    p->pos++; /* the closing quote */
    return true;
}

static bool sf_bare_item(struct sf *p, struct sf_item *item, httpsig_error *err)
{
    int c = sf_peek(p);
    if (c == '-' || is_digit(c))
        return sf_number(p, item, err);
    if (c == '"')
        return sf_string(p, item, err);
    if (is_alpha(c) || c == '*') {
        size_t start = p->pos;
        while (is_tchar(sf_peek(p)) || sf_peek(p) == ':' || sf_peek(p) == '/')
            p->pos++;
        item->type = SF_TOKEN;
        item->raw = p->s + start;
        item->raw_len = p->pos - start;
        return true;
    }
    if (c == ':') {
        p->pos++;
        size_t start = p->pos;
        while (is_base64_char(sf_peek(p)))
            p->pos++;
        if (sf_peek(p) != ':')
            return sf_bad(p, err,
                          "an unterminated or non-base64 byte "
                          "sequence");
        item->type = SF_BYTES;
        item->raw = p->s + start;
        item->raw_len = p->pos - start;
        p->pos++;
        return true;
    }
    if (c == '?') {
        p->pos++;
        c = sf_peek(p);
        if (c != '0' && c != '1')
            return sf_bad(p, err, "a bad boolean");
        p->pos++;
        item->type = SF_BOOLEAN;
        item->integer = c == '1';
        item->raw = p->s + p->pos - 1;
        item->raw_len = 1;
        return true;
    }
    if (c < 0)
        return sf_bad(p, err, "a missing value");
    return sf_bad(p, err, "an unexpected character");
}

/* Parameters: *( ";" *SP key [ "=" bare-item ] ). out may be NULL. */
static bool sf_params(struct sf *p, struct sf_params *out, httpsig_error *err)
{
    if (out != NULL)
        out->count = 0;
    while (sf_peek(p) == ';') {
        p->pos++;
        sf_skip_sp(p);
        struct sf_param param;
        if (!sf_key(p, param.key, err))
            return false;
        if (sf_peek(p) == '=') {
            p->pos++;
            if (!sf_bare_item(p, &param.value, err))
                return false;
        } else {
            param.value.type = SF_BOOLEAN;
            param.value.integer = 1;
            param.value.raw = NULL;
            param.value.raw_len = 0;
        }
        if (out == NULL)
            continue;
        for (size_t i = 0; i < out->count; i++)
            if (strcmp(out->param[i].key, param.key) == 0)
                return fail(err, "%s names the parameter %s twice", p->field,
                            param.key);
        if (out->count == SF_PARAMS_MAX)
            return fail(err, "%s has more than %d parameters", p->field,
                        SF_PARAMS_MAX);
        out->param[out->count++] = param;
    }
    return true;
}

/* An inner list, validated only; its items and parameters are read again by
 * whoever needs them. */
static bool sf_skip_inner_list(struct sf *p, httpsig_error *err)
{
    p->pos++; /* "(" */
    for (;;) {
        sf_skip_sp(p);
        if (sf_peek(p) == ')') {
            p->pos++;
            return sf_params(p, NULL, err);
        }
        struct sf_item item;
        if (!sf_bare_item(p, &item, err) || !sf_params(p, NULL, err))
            return false;
        int c = sf_peek(p);
        if (c != ' ' && c != ')')
            return sf_bad(p, err, "an inner list not closed by )");
    }
}

/* A dictionary member's value: its span in the field, and its kind. */
struct sf_member {
    char key[HTTPSIG_NAME_MAX + 1];
    size_t start;
    size_t end;
    bool inner_list;
    bool bare_key; /* "key" alone: boolean true */
};

/* Reads the next member of a dictionary. Returns 1 with *m, 0 at the end,
 * -1 with *err on malformed input. */
static int sf_dict_next(struct sf *p, bool first, struct sf_member *m,
                        httpsig_error *err)
{
    if (first) {
        sf_skip_sp(p);
        if (p->pos == p->len)
            return 0;
    } else {
        sf_skip_ows(p);
        if (p->pos == p->len)
            return 0;
        if (sf_peek(p) != ',') {
            sf_bad(p, err, "expected a comma between members");
            return -1;
        }
        p->pos++;
        sf_skip_ows(p);
        if (p->pos == p->len) {
            sf_bad(p, err, "a comma after the last member");
            return -1;
        }
    }
    if (!sf_key(p, m->key, err))
        return -1;
    m->inner_list = false;
    m->bare_key = sf_peek(p) != '=';
    if (m->bare_key) {
        m->start = p->pos;
        if (!sf_params(p, NULL, err))
            return -1;
        m->end = p->pos;
        return 1;
    }
    p->pos++;
    m->start = p->pos;
    if (sf_peek(p) == '(') {
        m->inner_list = true;
        if (!sf_skip_inner_list(p, err))
            return -1;
    } else {
        struct sf_item item;
        if (!sf_bare_item(p, &item, err) || !sf_params(p, NULL, err))
            return -1;
    }
    m->end = p->pos;
    return 1;
}

static bool sf_open(struct sf *p, const char *field_name, const char *value,
                    httpsig_error *err)
{
    p->field = field_name;
    p->s = value;
    p->pos = 0;
    if (value == NULL)
        return fail(err, "the request has no %s field", field_name);
    p->len = strnlen(value, HTTPSIG_FIELD_MAX + 1);
    if (p->len > HTTPSIG_FIELD_MAX)
        return fail(err, "%s is longer than %d bytes", field_name,
                    HTTPSIG_FIELD_MAX);
    /* Trailing spaces are not part of the value (RFC 8941 4.2). */
    while (p->len > 0 && p->s[p->len - 1] == ' ')
        p->len--;
    return true;
}

/* Validates the whole dictionary and finds the member named label, or the
 * first member when label is NULL. */
static bool sf_dict_find(const char *field_name, const char *value,
                         const char *label, struct sf_member *found,
                         httpsig_error *err)
{
    struct sf p;
    if (!sf_open(&p, field_name, value, err))
        return false;
    bool have = false;
    struct sf_member m;
    int r;
    for (bool first = true; (r = sf_dict_next(&p, first, &m, err)) == 1;
         first = false) {
        bool wanted = have ? strcmp(m.key, found->key) == 0
                           : label == NULL || strcmp(m.key, label) == 0;
        if (wanted && have)
            return fail(err, "%s names the label %s twice", field_name, m.key);
        if (wanted) {
            *found = m;
            have = true;
        }
    }
    if (r < 0)
        return false;
    if (!have && label != NULL)
        return fail(err, "%s has no signature labelled %s", field_name, label);
    if (!have)
        return fail(err, "%s is empty", field_name);
    return true;
}

/* Copies a string item without its escapes into out (size cap). */
static bool sf_unescape(const struct sf_item *item, char *out, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < item->raw_len; i++) {
        char c = item->raw[i];
        if (c == '\\')
            c = item->raw[++i];
        if (n + 1 >= cap)
            return false;
        out[n++] = c;
    }
    out[n] = '\0';
    return true;
}

/* Decodes a byte sequence, with or without '=' padding. Returns a buffer the
 * caller frees and its length, or NULL when it is not base64. */
static unsigned char *sf_decode_bytes(const struct sf_item *item,
                                      size_t *out_len)
{
    unsigned char *bin = XMALLOC(item->raw_len);
    int variants[] = {sodium_base64_VARIANT_ORIGINAL,
                      sodium_base64_VARIANT_ORIGINAL_NO_PADDING};
    for (size_t i = 0; i < sizeof variants / sizeof variants[0]; i++) {
        if (sodium_base642bin(bin, item->raw_len, item->raw, item->raw_len,
                              NULL, out_len, NULL, variants[i]) == 0)
            return bin;
    }
    free(bin);
    return NULL;
}

/* ---- parsing a signature ---- */

static bool valid_component_name(const char *name)
{
    size_t n = strlen(name);
    if (n == 0)
        return false;
    for (size_t i = 0; i < n; i++) {
        int c = (unsigned char)name[i];
        if (c == '@' && i == 0 && n > 1)
            continue;
        if ((c >= 'A' && c <= 'Z') || !is_tchar(c))
            return false;
    }
    return true;
}

static bool read_components(struct sf *p, httpsig_signature *out,
                            httpsig_error *err)
{
    p->pos++; /* "(" */
    out->component_count = 0;
    for (;;) {
        sf_skip_sp(p);
        if (sf_peek(p) == ')') {
            p->pos++;
            return true;
        }
        struct sf_item item;
        struct sf_params params;
        if (!sf_bare_item(p, &item, err) || !sf_params(p, &params, err))
            return false;
        size_t i = out->component_count;
        if (item.type != SF_STRING)
            return fail(err,
                        "Signature-Input lists %s where a component "
                        "name (a string) belongs",
                        sf_type_names[item.type]);
        if (params.count > 0)
            return fail(err,
                        "Signature-Input gives component %zu the "
                        "parameter ;%s, which is not supported",
                        i + 1, params.param[0].key);
        if (i == HTTPSIG_COMPONENTS_MAX)
            return fail(err, "the signature covers more than %d components",
                        HTTPSIG_COMPONENTS_MAX);
        char *name = out->components[i];
        if (!sf_unescape(&item, name, HTTPSIG_NAME_MAX + 1))
            return fail(err, "a component name is longer than %d characters",
                        HTTPSIG_NAME_MAX);
        if (!valid_component_name(name))
            return fail(err,
                        "\"%s\" is not a lower-case field name or "
                        "derived component name",
                        name);
        if (strcmp(name, "@signature-params") == 0)
            return fail(err, "the signature may not cover @signature-params");
        for (size_t j = 0; j < i; j++)
            if (strcmp(out->components[j], name) == 0)
                return fail(err, "the signature covers %s twice", name);
        out->component_count++;
    }
}

static bool read_string_param(const struct sf_param *param, bool *has,
                              char *out, httpsig_error *err)
{
    if (param->value.type != SF_STRING)
        return fail(err, "the %s parameter must be a string, not %s",
                    param->key, sf_type_names[param->value.type]);
    if (!sf_unescape(&param->value, out, HTTPSIG_PARAM_MAX + 1))
        return fail(err, "the %s parameter is longer than %d characters",
                    param->key, HTTPSIG_PARAM_MAX);
    *has = true;
    return true;
}

static bool read_integer_param(const struct sf_param *param, bool *has,
                               int64_t *out, httpsig_error *err)
{
    if (param->value.type != SF_INTEGER)
        return fail(err, "the %s parameter must be an integer, not %s",
                    param->key, sf_type_names[param->value.type]);
    *out = param->value.integer;
    *has = true;
    return true;
}

static bool read_signature_input(const char *value, const char *label,
                                 httpsig_signature *out, httpsig_error *err)
{
    struct sf_member m;
    if (!sf_dict_find("Signature-Input", value, label, &m, err))
        return false;
    if (!m.inner_list)
        return fail(err, "Signature-Input's %s is not a list of components",
                    m.key);
    memcpy(out->label, m.key, sizeof out->label);
    memcpy(out->params, value + m.start, m.end - m.start);
    out->params[m.end - m.start] = '\0';

    struct sf p = {
        .s = value, .len = m.end, .pos = m.start, .field = "Signature-Input"};
    struct sf_params params;
    if (!read_components(&p, out, err) || !sf_params(&p, &params, err))
        return false;
    for (size_t i = 0; i < params.count; i++) {
        const struct sf_param *param = &params.param[i];
        bool ok = true;
        if (strcmp(param->key, "created") == 0)
            ok = read_integer_param(param, &out->has_created, &out->created,
                                    err);
        else if (strcmp(param->key, "expires") == 0)
            ok = read_integer_param(param, &out->has_expires, &out->expires,
                                    err);
        else if (strcmp(param->key, "keyid") == 0)
            ok = read_string_param(param, &out->has_keyid, out->keyid, err);
        else if (strcmp(param->key, "alg") == 0)
            ok = read_string_param(param, &out->has_alg, out->alg, err);
        else if (strcmp(param->key, "nonce") == 0)
            ok = read_string_param(param, &out->has_nonce, out->nonce, err);
        if (!ok)
            return false;
    }
    return true;
}

static bool read_signature(const char *value, const char *label,
                           httpsig_signature *out, httpsig_error *err)
{
    struct sf_member m;
    if (!sf_dict_find("Signature", value, label, &m, err))
        return false;
    struct sf p = {
        .s = value, .len = m.end, .pos = m.start, .field = "Signature"};
    struct sf_item item;
    if (m.bare_key || m.inner_list || !sf_bare_item(&p, &item, err) ||
        item.type != SF_BYTES)
        return fail(err, "Signature's %s is not a byte sequence (:base64:)",
                    m.key);
    size_t len = 0;
    unsigned char *bin = sf_decode_bytes(&item, &len);
    if (bin == NULL)
        return fail(err, "Signature's %s is not valid base64", m.key);
    if (len != HTTPSIG_SIGNATURE_BYTES) {
        free(bin);
        return fail(err,
                    "Signature's %s is %zu bytes long; an ed25519 "
                    "signature is %d",
                    m.key, len, HTTPSIG_SIGNATURE_BYTES);
    }
    memcpy(out->signature, bin, HTTPSIG_SIGNATURE_BYTES);
    free(bin);
    return true;
}

bool httpsig_parse(const char *signature_input, const char *signature,
                   const char *label, httpsig_signature *out,
                   httpsig_error *err)
{
    memset(out, 0, sizeof *out);
    if (signature_input == NULL && signature == NULL)
        return fail(err, "the request is not signed: it has no "
                         "Signature-Input and Signature fields");
    if (label != NULL && strlen(label) > HTTPSIG_NAME_MAX)
        return fail(err, "the signature label asked for is too long");
    if (!read_signature_input(signature_input, label, out, err))
        return false;
    return read_signature(signature, out->label, out, err);
}

/* ---- the signature base ---- */

struct target {
    const char *raw;  /* the whole request target */
    const char *path; /* still percent-encoded; "/" when empty */
    size_t path_len;
    const char *query; /* after "?"; NULL when absent */
    size_t query_len;
};

static bool split_target(const char *target, struct target *t,
                         httpsig_error *err)
{
    if (target == NULL || target[0] == '\0')
        return fail(err, "the request target is unknown");
    for (const char *c = target; *c != '\0'; c++)
        if ((unsigned char)*c <= 0x20 || (unsigned char)*c >= 0x7f || *c == '#')
            return fail(err, "the request target has a character that "
                             "does not belong in a URL");
    const char *path = target;
    t->raw = target;
    if (target[0] != '/') {
        /* absolute-form: scheme "://" authority path-abempty [ "?" query ] */
        const char *sep = strstr(target, "://");
        if (sep == NULL)
            return fail(err, "the request target neither starts with / nor "
                             "is an absolute URL");
        path = sep + 3 + strcspn(sep + 3, "/?");
    }
    const char *q = strchr(path, '?');
    t->path = path;
    t->path_len = q ? (size_t)(q - path) : strlen(path);
    if (t->path_len == 0) {
        t->path = "/";
        t->path_len = 1;
    }
    t->query = q ? q + 1 : NULL;
    t->query_len = q ? strlen(q + 1) : 0;
    return true;
}

static bool safe_value(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if ((c < 0x20 && c != '\t') || c == 0x7f)
            return false;
    }
    return true;
}

static void add_lower(text_buffer *b, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        buf_add(b, &c, 1);
    }
}

/* The authority lower-cased, without the scheme's default port, as RFC 9421
 * 2.2.3 asks. */
static bool add_authority(text_buffer *b, const httpsig_request *req,
                          httpsig_error *err)
{
    const char *a = req->authority;
    if (a == NULL || a[0] == '\0')
        return fail(err, "the request's authority (Host) is unknown");
    size_t n = strlen(a);
    if (!safe_value(a, n) || strpbrk(a, " \t/?#@") != NULL)
        return fail(err, "the request's authority (Host) is malformed");
    const char *scheme = req->scheme ? req->scheme : "";
    if (n > 3 && strcasecmp(scheme, "http") == 0 &&
        strcmp(a + n - 3, ":80") == 0)
        n -= 3;
    else if (n > 4 && strcasecmp(scheme, "https") == 0 &&
             strcmp(a + n - 4, ":443") == 0)
        n -= 4;
    add_lower(b, a, n);
    return true;
}

static bool add_scheme(text_buffer *b, const httpsig_request *req,
                       httpsig_error *err)
{
    const char *s = req->scheme;
    if (s == NULL || s[0] == '\0')
        return fail(err, "the request's scheme is unknown");
    for (const char *c = s; *c != '\0'; c++)
        if (!is_alpha(*c) && !is_digit(*c) && !strchr("+-.", *c))
            return fail(err, "the request's scheme is malformed");
    add_lower(b, s, strlen(s));
    return true;
}

static void add_query(text_buffer *b, const struct target *t)
{
    buf_add(b, "?", 1);
    if (t->query != NULL)
        buf_add(b, t->query, t->query_len);
}

static bool add_component(text_buffer *b, const char *name,
                          const httpsig_request *req, const struct target *t,
                          httpsig_error *err)
{
    if (name[0] != '@') {
        const char *v = req->header ? req->header(req->header_ctx, name) : NULL;
        if (v == NULL)
            return fail(err,
                        "the signature covers the %s header, which the "
                        "request does not have",
                        name);
        size_t n = strlen(v);
        while (n > 0 && (v[0] == ' ' || v[0] == '\t')) {
            v++;
            n--;
        }
        while (n > 0 && (v[n - 1] == ' ' || v[n - 1] == '\t'))
            n--;
        if (!safe_value(v, n))
            return fail(err, "the %s header has a control character", name);
        buf_add(b, v, n);
        return true;
    }
    if (strcmp(name, "@method") == 0) {
        const char *m = req->method;
        if (m == NULL || m[0] == '\0')
            return fail(err, "the request's method is unknown");
        for (const char *c = m; *c != '\0'; c++)
            if (!is_tchar((unsigned char)*c))
                return fail(err, "the request's method is malformed");
        buf_str(b, m);
        return true;
    }
    if (strcmp(name, "@path") == 0) {
        buf_add(b, t->path, t->path_len);
        return true;
    }
    if (strcmp(name, "@query") == 0) {
        add_query(b, t);
        return true;
    }
    if (strcmp(name, "@request-target") == 0) {
        buf_str(b, t->raw);
        return true;
    }
    if (strcmp(name, "@authority") == 0)
        return add_authority(b, req, err);
    if (strcmp(name, "@scheme") == 0)
        return add_scheme(b, req, err);
    if (strcmp(name, "@target-uri") == 0) {
        if (!add_scheme(b, req, err))
            return false;
        buf_str(b, "://");
        if (!add_authority(b, req, err))
            return false;
        buf_add(b, t->path, t->path_len);
        if (t->query != NULL)
            add_query(b, t);
        return true;
    }
    return fail(err,
                "the signature covers %s, which this service does not "
                "support",
                name);
}

char *httpsig_signature_base(const httpsig_signature *sig,
                             const httpsig_request *req, httpsig_error *err)
{
    struct target t;
    if (!split_target(req->target, &t, err))
        return NULL;
    text_buffer b = {0};
    for (size_t i = 0; i < sig->component_count; i++) {
        const char *name = sig->components[i];
        buf_str(&b, "\"");
        buf_str(&b, name);
        buf_str(&b, "\": ");
        if (!add_component(&b, name, req, &t, err)) {
            free(b.bytes);
            return NULL;
        }
        buf_str(&b, "\n");
    }
    buf_str(&b, "\"@signature-params\": ");
    buf_str(&b, sig->params);
    return b.bytes;
}

bool httpsig_verify(const httpsig_signature *sig, const httpsig_request *req,
                    const unsigned char public_key[HTTPSIG_PUBLIC_KEY_BYTES],
                    httpsig_error *err)
{
    char *base = httpsig_signature_base(sig, req, err);
    if (base == NULL)
        return false;
    int r = crypto_sign_verify_detached(
        sig->signature, (const unsigned char *)base, strlen(base), public_key);
    free(base);
    if (r != 0)
        return fail(err,
                    "the signature does not match the request and the "
                    "key %s",
                    sig->has_keyid ? sig->keyid : "given");
    return true;
}

/* ---- policy ---- */

static bool covers(const httpsig_signature *sig, const char *name)
{
    for (size_t i = 0; i < sig->component_count; i++)
        if (strcmp(sig->components[i], name) == 0)
            return true;
    return false;
}

bool httpsig_check_covers(const httpsig_signature *sig,
                          const char *const *required, size_t count,
                          httpsig_error *err)
{
    bool whole_target =
        covers(sig, "@target-uri") || covers(sig, "@request-target");
    for (size_t i = 0; i < count; i++) {
        const char *name = required[i];
        if (covers(sig, name))
            continue;
        if (whole_target &&
            (strcmp(name, "@path") == 0 || strcmp(name, "@query") == 0))
            continue;
        return fail(err, "the signature does not cover %s", name);
    }
    return true;
}

/* "12 minutes" or "90 seconds". */
static void duration(char *out, size_t cap, int64_t seconds)
{
    if (seconds % 60 == 0 || seconds >= 600)
        snprintf(out, cap, "%" PRId64 " minute%s", seconds / 60,
                 seconds / 60 == 1 ? "" : "s");
    else
        snprintf(out, cap, "%" PRId64 " second%s", seconds,
                 seconds == 1 ? "" : "s");
}

bool httpsig_check_created(const httpsig_signature *sig, int64_t now,
                           int64_t window_seconds, httpsig_error *err)
{
    char age[64];
    char limit[64];
    duration(limit, sizeof limit, window_seconds);
    if (!sig->has_created)
        return fail(err, "the signature has no created time");
    if (now - sig->created > window_seconds) {
        duration(age, sizeof age, now - sig->created);
        return fail(err, "the signature was created %s ago; the limit is %s",
                    age, limit);
    }
    if (sig->created - now > window_seconds) {
        duration(age, sizeof age, sig->created - now);
        return fail(err,
                    "the signature was created %s in the future; the "
                    "limit is %s",
                    age, limit);
    }
    if (sig->has_expires && sig->expires < now) {
        duration(age, sizeof age, now - sig->expires);
        return fail(err, "the signature expired %s ago", age);
    }
    return true;
}

bool httpsig_check_alg(const httpsig_signature *sig, httpsig_error *err)
{
    if (sig->has_alg && strcmp(sig->alg, "ed25519") != 0)
        return fail(err, "the signature's algorithm must be ed25519");
    return true;
}

bool httpsig_check_nonce(const httpsig_signature *sig, httpsig_error *err)
{
    if (!sig->has_nonce || sig->nonce[0] == '\0')
        return fail(err, "the signature has no nonce");
    return true;
}

static const unsigned char *body_or_empty(const unsigned char *body)
{
    static const unsigned char empty[1];
    return body != NULL ? body : empty;
}

bool httpsig_check_content_digest(const char *content_digest,
                                  const unsigned char *body, size_t body_len,
                                  httpsig_error *err)
{
    if (content_digest == NULL) {
        if (body_len > 0)
            return fail(err, "the request has a body but no Content-Digest");
        return true;
    }
    body = body_or_empty(body);
    struct sf p;
    if (!sf_open(&p, "Content-Digest", content_digest, err))
        return false;
    size_t checked = 0;
    struct sf_member m;
    int r;
    for (bool first = true; (r = sf_dict_next(&p, first, &m, err)) == 1;
         first = false) {
        size_t want;
        if (strcmp(m.key, "sha-256") == 0)
            want = crypto_hash_sha256_BYTES;
        else if (strcmp(m.key, "sha-512") == 0)
            want = crypto_hash_sha512_BYTES;
        else
            continue; /* RFC 9530: ignore algorithms we do not know */
        struct sf q = {.s = content_digest,
                       .len = m.end,
                       .pos = m.start,
                       .field = "Content-Digest"};
        struct sf_item item;
        if (m.bare_key || m.inner_list || !sf_bare_item(&q, &item, err) ||
            item.type != SF_BYTES)
            return fail(err,
                        "Content-Digest's %s is not a byte sequence "
                        "(:base64:)",
                        m.key);
        size_t len = 0;
        unsigned char *given = sf_decode_bytes(&item, &len);
        if (given == NULL)
            return fail(err, "Content-Digest's %s is not valid base64", m.key);
        unsigned char actual[crypto_hash_sha512_BYTES];
        if (want == crypto_hash_sha256_BYTES)
            crypto_hash_sha256(actual, body, body_len);
        else
            crypto_hash_sha512(actual, body, body_len);
        bool same = len == want && sodium_memcmp(given, actual, want) == 0;
        free(given);
        if (!same)
            return fail(err, "the body does not match its Content-Digest (%s)",
                        m.key);
        checked++;
    }
    if (r < 0)
        return false;
    if (checked == 0)
        return fail(err, "Content-Digest has no sha-256 or sha-512 digest");
    return true;
}

bool httpsig_check_policy(const httpsig_signature *sig,
                          const httpsig_request *req, int64_t now,
                          int64_t window_seconds, httpsig_error *err)
{
    struct target t;
    if (!httpsig_check_alg(sig, err) || !httpsig_check_nonce(sig, err) ||
        !httpsig_check_created(sig, now, window_seconds, err) ||
        !split_target(req->target, &t, err))
        return false;
    const char *required[4] = {"@method", "@path"};
    size_t count = 2;
    if (t.query != NULL)
        required[count++] = "@query";
    if (req->body_len > 0)
        required[count++] = "content-digest";
    if (!httpsig_check_covers(sig, required, count, err))
        return false;
    const char *digest =
        req->header ? req->header(req->header_ctx, "content-digest") : NULL;
    return httpsig_check_content_digest(digest, req->body, req->body_len, err);
}

/* ---- signing ---- */

char *httpsig_content_digest(const unsigned char *body, size_t body_len)
{
    unsigned char hash[crypto_hash_sha256_BYTES];
    crypto_hash_sha256(hash, body_or_empty(body), body_len);
    char b64[sodium_base64_ENCODED_LEN(crypto_hash_sha256_BYTES,
                                       sodium_base64_VARIANT_ORIGINAL)];
    sodium_bin2base64(b64, sizeof b64, hash, sizeof hash,
                      sodium_base64_VARIANT_ORIGINAL);
    text_buffer b = {0};
    buf_str(&b, "sha-256=:");
    buf_str(&b, b64);
    buf_str(&b, ":");
    return b.bytes;
}

/* Appends s as an RFC 8941 string, or fails when it cannot be one. */
static bool add_sf_string(text_buffer *b, const char *what, const char *s,
                          httpsig_error *err)
{
    if (strlen(s) > HTTPSIG_PARAM_MAX)
        return fail(err, "the %s is longer than %d characters", what,
                    HTTPSIG_PARAM_MAX);
    buf_str(b, "\"");
    for (const char *c = s; *c != '\0'; c++) {
        unsigned char u = (unsigned char)*c;
        if (u < 0x20 || u > 0x7e)
            return fail(err, "the %s may only hold printable ASCII", what);
        if (*c == '"' || *c == '\\')
            buf_str(b, "\\");
        buf_add(b, c, 1);
    }
    buf_str(b, "\"");
    return true;
}

struct sign_headers {
    const httpsig_request *req;
    const char *content_digest;
};

static const char *sign_header(void *ctx, const char *name)
{
    const struct sign_headers *h = ctx;
    if (h->content_digest != NULL && strcmp(name, "content-digest") == 0)
        return h->content_digest;
    if (h->req->header == NULL)
        return NULL;
    return h->req->header(h->req->header_ctx, name);
}

static bool valid_label(const char *label)
{
    size_t n = strlen(label);
    if (n == 0 || n > HTTPSIG_NAME_MAX ||
        (!is_lcalpha((unsigned char)label[0]) && label[0] != '*'))
        return false;
    for (size_t i = 0; i < n; i++) {
        int c = (unsigned char)label[i];
        if (!is_lcalpha(c) && !is_digit(c) && !strchr("_-.*", c))
            return false;
    }
    return true;
}

static bool sign_fill(const httpsig_request *req, const char *const *components,
                      size_t count, const char *keyid, const char *nonce,
                      int64_t created, const char *label,
                      const unsigned char *secret_key, httpsig_signature *sig,
                      httpsig_headers *out, httpsig_error *err)
{
    if (!valid_label(label))
        return fail(err, "the label must be a lower-case structured field "
                         "key");
    if (count > HTTPSIG_COMPONENTS_MAX)
        return fail(err, "a signature covers at most %d components",
                    HTTPSIG_COMPONENTS_MAX);
    if (created < -SF_INTEGER_MAX || created > SF_INTEGER_MAX)
        return fail(err, "the created time is out of range");
    text_buffer params = {0};
    bool ok = true;
    buf_str(&params, "(");
    for (size_t i = 0; ok && i < count; i++) {
        const char *name = components[i];
        if (strlen(name) > HTTPSIG_NAME_MAX || !valid_component_name(name) ||
            strcmp(name, "@signature-params") == 0) {
            ok =
                fail(err, "\"%s\" is not a component that can be signed", name);
            break;
        }
        memcpy(sig->components[i], name, strlen(name) + 1);
        buf_str(&params, i ? " \"" : "\"");
        buf_str(&params, name);
        buf_str(&params, "\"");
    }
    sig->component_count = count;
    char number[32];
    snprintf(number, sizeof number, ");created=%" PRId64, created);
    buf_str(&params, number);
    if (ok && keyid != NULL) {
        buf_str(&params, ";keyid=");
        ok = add_sf_string(&params, "keyid", keyid, err);
    }
    buf_str(&params, ";alg=\"ed25519\"");
    if (ok && nonce != NULL) {
        buf_str(&params, ";nonce=");
        ok = add_sf_string(&params, "nonce", nonce, err);
    }
    if (ok && params.len > HTTPSIG_FIELD_MAX - HTTPSIG_NAME_MAX - 1)
        ok = fail(err, "the Signature-Input would be too long");
    if (!ok) {
        free(params.bytes);
        return false;
    }
    memcpy(sig->params, params.bytes, params.len + 1);

    struct sign_headers headers = {.req = req};
    if (req->body != NULL) {
        out->content_digest = httpsig_content_digest(req->body, req->body_len);
        headers.content_digest = out->content_digest;
    }
    httpsig_request with_digest = *req;
    with_digest.header = sign_header;
    with_digest.header_ctx = &headers;
    char *base = httpsig_signature_base(sig, &with_digest, err);
    if (base == NULL) {
        free(params.bytes);
        return false;
    }
    unsigned char signature[crypto_sign_BYTES];
    crypto_sign_detached(signature, NULL, (const unsigned char *)base,
                         strlen(base), secret_key);
    free(base);

    text_buffer input = {0};
    buf_str(&input, label);
    buf_str(&input, "=");
    buf_add(&input, params.bytes, params.len);
    free(params.bytes);
    out->signature_input = input.bytes;

    char b64[sodium_base64_ENCODED_LEN(crypto_sign_BYTES,
                                       sodium_base64_VARIANT_ORIGINAL)];
    sodium_bin2base64(b64, sizeof b64, signature, sizeof signature,
                      sodium_base64_VARIANT_ORIGINAL);
    text_buffer value = {0};
    buf_str(&value, label);
    buf_str(&value, "=:");
    buf_str(&value, b64);
    buf_str(&value, ":");
    out->signature = value.bytes;
    return true;
}

bool httpsig_sign(const httpsig_request *req, const char *const *components,
                  size_t count, const char *keyid, const char *nonce,
                  int64_t created, const char *label,
                  const unsigned char secret_key[HTTPSIG_SECRET_KEY_BYTES],
                  httpsig_headers *out, httpsig_error *err)
{
    out->signature_input = NULL;
    out->signature = NULL;
    out->content_digest = NULL;
    httpsig_signature *sig = XMALLOC(sizeof *sig);
    memset(sig, 0, sizeof *sig);
    bool ok = sign_fill(req, components, count, keyid, nonce, created,
                        label ? label : "sig", secret_key, sig, out, err);
    free(sig);
    if (!ok)
        httpsig_headers_free(out);
    return ok;
}

void httpsig_headers_free(httpsig_headers *headers)
{
    if (headers == NULL)
        return;
    free(headers->signature_input);
    free(headers->signature);
    free(headers->content_digest);
    headers->signature_input = NULL;
    headers->signature = NULL;
    headers->content_digest = NULL;
}
