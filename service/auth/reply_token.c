/* reply_token.c: see reply_token.h. */
#include "auth/reply_token.h"

#include <ctype.h>
#include <sodium.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/clock.h"
#include "core/config.h"
#include "core/hex.h"
#include "ledger/seal.h"

#define TOKEN_BYTES 32
#define SIGNED_BYTES 24
#define MAC_BYTES 8
/* 2020-01-01T00:00:00Z: expiries count hours from here in 3 bytes. */
#define EPOCH_2020 1577836800LL

static const char base32[] = "abcdefghijklmnopqrstuvwxyz234567";

static void mac_of(const uint8_t token[SIGNED_BYTES], uint8_t mac[MAC_BYTES])
{
    uint8_t key[32];
    seal_derive_key("replytok", key, sizeof key);
    crypto_generichash(mac, MAC_BYTES, token, SIGNED_BYTES, key, sizeof key);
    sodium_memzero(key, sizeof key);
}

static void put_u64(uint8_t *out, unsigned long long value)
{
    for (int i = 7; i >= 0; i--) {
        out[i] = (uint8_t)(value & 0xff);
        value >>= 8;
    }
}

static unsigned long long get_u64(const uint8_t *in)
{
    unsigned long long value = 0;
    for (int i = 0; i < 8; i++)
        value = value << 8 | in[i];
    return value;
}

static long long lifetime_seconds(void)
{
    return config_whole(CONFIG_MAIL_TOKEN_DAYS) * 86400LL;
}

void reply_token_make(reply_token_kind kind, long long subject,
                      long long match_id, int seat, long long now,
                      char text[REPLY_TOKEN_CHARS + 1])
{
    uint8_t token[TOKEN_BYTES];
    token[0] = (uint8_t)kind;
    put_u64(token + 1, (unsigned long long)subject);
    put_u64(token + 9, (unsigned long long)match_id);
    token[17] = seat < 0 || seat > 254 ? 255 : (uint8_t)seat;
    /* Rounded up to the hour, so a token never expires early. */
    long long hours = (now + lifetime_seconds() - EPOCH_2020 + 3599) / 3600;
    if (hours < 0)
        hours = 0;
    if (hours > 0xffffff)
        hours = 0xffffff;
    token[18] = (uint8_t)(hours >> 16);
    token[19] = (uint8_t)(hours >> 8);
    token[20] = (uint8_t)hours;
    randombytes_buf(token + 21, 3);
    mac_of(token, token + SIGNED_BYTES);
    /* 256 bits in 52 characters of 5 bits, the last one padded with 0s. */
    unsigned buffer = 0;
    int bits = 0;
    size_t n = 0;
    for (size_t i = 0; i < TOKEN_BYTES; i++) {
        buffer = buffer << 8 | token[i];
        bits += 8;
        while (bits >= 5) {
            text[n++] = base32[(buffer >> (bits - 5)) & 31];
            bits -= 5;
        }
    }
    if (bits > 0)
        text[n++] = base32[(buffer << (5 - bits)) & 31];
    text[n] = '\0';
}

static int base32_value(char c)
{
    c = (char)tolower((unsigned char)c);
    const char *at = c ? strchr(base32, c) : NULL;
    return at ? (int)(at - base32) : -1;
}

bool reply_token_read(const char *text, long long now, reply_token *out,
                      char *why, size_t why_size)
{
    uint8_t token[TOKEN_BYTES + 1] = {0};
    size_t n = 0;
    unsigned buffer = 0;
    int bits = 0;
    bool well_formed = text != NULL && strlen(text) == REPLY_TOKEN_CHARS;
    for (size_t i = 0; well_formed && i < REPLY_TOKEN_CHARS; i++) {
        int value = base32_value(text[i]);
        if (value < 0) {
            well_formed = false;
            break;
        }
        buffer = (buffer << 5 | (unsigned)value) & 0xfff;
        bits += 5;
        if (bits >= 8 && n < TOKEN_BYTES) {
            token[n++] = (uint8_t)(buffer >> (bits - 8));
            bits -= 8;
        }
    }
    uint8_t mac[MAC_BYTES];
    if (well_formed)
        mac_of(token, mac);
    if (!well_formed || n != TOKEN_BYTES ||
        sodium_memcmp(mac, token + SIGNED_BYTES, MAC_BYTES) != 0 ||
        token[0] < REPLY_TOKEN_SEAT || token[0] > REPLY_TOKEN_CONFIRMATION) {
        snprintf(why, why_size,
                 "this reply address is not one the service gave out; answer "
                 "the latest mail from the service");
        return false;
    }
    long long hours = (long long)token[18] << 16 | token[19] << 8 | token[20];
    out->kind = (reply_token_kind)token[0];
    out->subject = (long long)get_u64(token + 1);
    out->match_id = (long long)get_u64(token + 9);
    out->seat = token[17] == 255 ? -1 : token[17];
    out->expires = EPOCH_2020 + hours * 3600;
    hex_encode(mac, MAC_BYTES, out->id);
    if (now >= out->expires) {
        char when[32];
        clock_format(out->expires, when);
        snprintf(why, why_size,
                 "this reply address expired at %s; answer the latest mail "
                 "from the service, or write \"help\" to its address",
                 when);
        return false;
    }
    return true;
}

const char *reply_token_bare_address(void)
{
    const char *address = config_text(CONFIG_MAIL_REPLY_TO);
    return address && strchr(address, '@') ? address : NULL;
}

bool reply_token_address(const char *token, char *out, size_t size)
{
    const char *bare = reply_token_bare_address();
    if (bare == NULL)
        return false;
    const char *at = strchr(bare, '@');
    int written = snprintf(out, size, "%.*s+%s%s", (int)(at - bare), bare,
                           token, at);
    return written > 0 && (size_t)written < size;
}

bool reply_token_in_address(const char *address,
                            char token[REPLY_TOKEN_CHARS + 1])
{
    const char *bare = reply_token_bare_address();
    token[0] = '\0';
    if (bare == NULL || address == NULL)
        return false;
    const char *bare_at = strchr(bare, '@');
    size_t local = (size_t)(bare_at - bare);
    const char *at = strrchr(address, '@');
    if (at == NULL || strcasecmp(at, bare_at) != 0 ||
        strncasecmp(address, bare, local) != 0)
        return false;
    const char *rest = address + local;
    if (rest == at)
        return true;
    if (*rest != '+' || (size_t)(at - rest - 1) != REPLY_TOKEN_CHARS)
        return false;
    memcpy(token, rest + 1, REPLY_TOKEN_CHARS);
    token[REPLY_TOKEN_CHARS] = '\0';
    return true;
}
