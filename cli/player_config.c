/* player_config.c: see player_config.h. */
#include "player_config.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool player_config_dir(char *dir, size_t size)
{
    const char *xdg = getenv("XDG_CONFIG_HOME");
    const char *home = getenv("HOME");
    int n;
    /* XDG Base Directory: a relative XDG_CONFIG_HOME is to be ignored. */
    if (xdg != NULL && xdg[0] == '/')
        n = snprintf(dir, size, "%s/pbem", xdg);
    else if (home != NULL && home[0] != '\0')
        n = snprintf(dir, size, "%s/.config/pbem", home);
    else {
        fputs("pbem: set HOME or XDG_CONFIG_HOME, so pbem knows where to keep "
              "your key.\n",
              stderr);
        return false;
    }
    if (n < 0 || (size_t)n >= size) {
        fputs("pbem: the configuration folder's path is too long.\n", stderr);
        return false;
    }
    return true;
}

/* dir/name into path (4096 bytes). */
static bool file_path(const char *name, char *path)
{
    char dir[3800];
    if (!player_config_dir(dir, sizeof dir))
        return false;
    snprintf(path, 4096, "%s/%s", dir, name);
    return true;
}

/* Makes the folder (and its parent, ~/.config) with mode 0700 for ours. */
static bool make_dir(void)
{
    char dir[3800];
    if (!player_config_dir(dir, sizeof dir))
        return false;
    char *slash = strrchr(dir, '/');
    if (slash != NULL && slash != dir) {
        *slash = '\0';
        if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
            fprintf(stderr, "pbem: cannot create %s: %s.\n", dir,
                    strerror(errno));
            return false;
        }
        *slash = '/';
    }
    if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
        fprintf(stderr, "pbem: cannot create %s: %s.\n", dir, strerror(errno));
        return false;
    }
    /* A folder made earlier by someone else's umask is tightened too. */
    if (chmod(dir, 0700) != 0) {
        fprintf(stderr, "pbem: cannot set the mode of %s: %s.\n", dir,
                strerror(errno));
        return false;
    }
    return true;
}

/* Writes text to path through a temporary file renamed over it, so a
 * crash never leaves half a file; mode is the new file's mode. */
static bool write_file(const char *path, const char *text, mode_t mode)
{
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.new", path);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
    if (fd < 0) {
        fprintf(stderr, "pbem: cannot write %s: %s.\n", tmp, strerror(errno));
        return false;
    }
    size_t len = strlen(text);
    bool ok = write(fd, text, len) == (ssize_t)len && fsync(fd) == 0;
    ok = close(fd) == 0 && ok;
    if (ok && rename(tmp, path) != 0)
        ok = false;
    if (!ok) {
        fprintf(stderr, "pbem: cannot write %s: %s.\n", path, strerror(errno));
        unlink(tmp);
    }
    return ok;
}

bool player_config_has_key(void)
{
    char path[4096];
    return file_path("key", path) && access(path, F_OK) == 0;
}

bool player_config_new_key(bool force, client_key *key)
{
    char path[4096];
    if (!file_path("key", path) || !make_dir())
        return false;
    if (!force && access(path, F_OK) == 0) {
        fprintf(stderr,
                "pbem: there is already a key in %s; pass --force to "
                "replace it (the player it is registered to will "
                "then be out of reach).\n",
                path);
        return false;
    }
    unsigned char seed[crypto_sign_SEEDBYTES];
    randombytes_buf(seed, sizeof seed);
    char text[sodium_base64_ENCODED_LEN(crypto_sign_SEEDBYTES,
                                        sodium_base64_VARIANT_ORIGINAL) +
              1];
    sodium_bin2base64(text, sizeof text, seed, sizeof seed,
                      sodium_base64_VARIANT_ORIGINAL);
    memset(key, 0, sizeof *key);
    crypto_sign_seed_keypair(key->public_key, key->secret_key, seed);
    sodium_memzero(seed, sizeof seed);
    client_key_id(key->public_key, key->key_id);
    size_t len = strlen(text);
    text[len] = '\n';
    text[len + 1] = '\0';
    bool ok = write_file(path, text, 0600);
    sodium_memzero(text, sizeof text);
    if (ok && force) {
        /* A new key is a new identity: the old registration is not its. */
        char player[4096];
        if (file_path("player.json", player))
            unlink(player);
    }
    return ok;
}

/* The whole of a small file, or NULL (errno set). */
static char *read_small(const char *path)
{
    FILE *in = fopen(path, "rb");
    if (in == NULL)
        return NULL;
    char *text = calloc(1, 4097);
    if (text == NULL)
        abort();
    size_t n = fread(text, 1, 4096, in);
    text[n] = '\0';
    fclose(in);
    return text;
}

static json_t *read_player(void)
{
    char path[4096];
    if (!file_path("player.json", path))
        return NULL;
    return json_load_file(path, 0, NULL);
}

bool player_config_key(client_key *key)
{
    char path[4096];
    if (!file_path("key", path))
        return false;
    struct stat st;
    /* As ssh does: a key others can read is no longer only yours. */
    if (stat(path, &st) == 0 && (st.st_mode & 077) != 0) {
        fprintf(stderr,
                "pbem: %s can be read by others: make it yours alone "
                "(chmod 600 %s), or make a new key with pbem keygen --force "
                "if someone may have it.\n",
                path, path);
        return false;
    }
    char *text = read_small(path);
    if (text == NULL) {
        fprintf(stderr,
                "pbem: there is no key in %s: run pbem keygen, then "
                "pbem register NAME.\n",
                path);
        return false;
    }
    size_t len = strlen(text);
    while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == '\r' ||
                       text[len - 1] == ' '))
        text[--len] = '\0';
    unsigned char seed[crypto_sign_SEEDBYTES];
    size_t seed_len = 0;
    bool ok = sodium_base642bin(seed, sizeof seed, text, len, NULL, &seed_len,
                                NULL, sodium_base64_VARIANT_ORIGINAL) == 0 &&
              seed_len == sizeof seed;
    sodium_memzero(text, len);
    free(text);
    if (!ok) {
        fprintf(stderr,
                "pbem: %s does not hold a base64 Ed25519 seed; make a "
                "new key with pbem keygen --force.\n",
                path);
        return false;
    }
    memset(key, 0, sizeof *key);
    crypto_sign_seed_keypair(key->public_key, key->secret_key, seed);
    sodium_memzero(seed, sizeof seed);
    client_key_id(key->public_key, key->key_id);
    json_t *player = read_player();
    const char *key_id = json_string_value(json_object_get(player, "key_id"));
    if (key_id != NULL && strlen(key_id) < sizeof key->key_id)
        snprintf(key->key_id, sizeof key->key_id, "%s", key_id);
    json_decref(player);
    return true;
}

bool player_config_save_player(const char *player_id, const char *key_id,
                               const char *name)
{
    char path[4096];
    if (!file_path("player.json", path) || !make_dir())
        return false;
    json_t *player = json_pack("{s:s,s:s,s:s}", "player_id", player_id,
                               "key_id", key_id, "name", name);
    char *text = json_dumps(player, JSON_INDENT(2));
    json_decref(player);
    if (text == NULL)
        abort();
    bool ok = write_file(path, text, 0600);
    free(text);
    return ok;
}

bool player_config_player_id(char *player_id, size_t size)
{
    json_t *player = read_player();
    const char *id = json_string_value(json_object_get(player, "player_id"));
    bool ok = id != NULL && strlen(id) < size;
    if (ok)
        snprintf(player_id, size, "%s", id);
    json_decref(player);
    return ok;
}

bool player_config_match_id_ok(const char *text)
{
    size_t len = strlen(text);
    if (len == 0 || len > 40)
        return false;
    for (const char *c = text; *c; c++) {
        bool plain = (*c >= 'A' && *c <= 'Z') || (*c >= 'a' && *c <= 'z') ||
                     (*c >= '0' && *c <= '9') || *c == '_' || *c == '-';
        if (!plain)
            return false;
    }
    return true;
}

long long player_config_seen(const char *match)
{
    char name[64], path[4096];
    snprintf(name, sizeof name, "seen/%s", match);
    if (!player_config_match_id_ok(match) || !file_path(name, path))
        return -1;
    char *text = read_small(path);
    if (text == NULL)
        return -1;
    char *end = NULL;
    long long seq = strtoll(text, &end, 10);
    bool ok = end != text && seq >= 0;
    free(text);
    return ok ? seq : -1;
}

bool player_config_remember(const char *match, long long seq)
{
    char name[64], path[4096];
    snprintf(name, sizeof name, "seen/%s", match);
    if (!player_config_match_id_ok(match) || !make_dir() ||
        !file_path(name, path))
        return false;
    char dir[4096];
    if (!file_path("seen", dir))
        return false;
    if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
        fprintf(stderr, "pbem: cannot create %s: %s.\n", dir, strerror(errno));
        return false;
    }
    char text[32];
    snprintf(text, sizeof text, "%lld\n", seq);
    return write_file(path, text, 0600);
}
