/* keygen_cmd.c: pbem keygen: a player's key, or with --mail the key of
 * pbem mail-in. */
#include "player_cmd.h"

#include <errno.h>
#include <fcntl.h>
#include <sodium.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "player_client.h"
#include "player_config.h"

/* The mail key: its seed (base64) into a new file only its owner reads,
 * which `pbem mail-in --key` signs with; its public half printed as the
 * line pbemd's configuration takes. */
static int make_mail_key(const char *path, bool force)
{
    int fd = open(path, O_WRONLY | O_CREAT | (force ? O_TRUNC : O_EXCL),
                  0600);
    if (fd < 0) {
        fprintf(stderr, "pbem: cannot write %s: %s%s\n", path,
                strerror(errno),
                errno == EEXIST ? " (--force replaces it)" : "");
        return PLAYER_REFUSED;
    }
    unsigned char seed[crypto_sign_SEEDBYTES], pk[crypto_sign_PUBLICKEYBYTES],
        sk[crypto_sign_SECRETKEYBYTES];
    randombytes_buf(seed, sizeof seed);
    crypto_sign_seed_keypair(pk, sk, seed);
    char seed_b64[sodium_base64_ENCODED_LEN(sizeof seed,
                                            sodium_base64_VARIANT_ORIGINAL)];
    char pk_b64[sodium_base64_ENCODED_LEN(sizeof pk,
                                          sodium_base64_VARIANT_ORIGINAL)];
    sodium_bin2base64(seed_b64, sizeof seed_b64, seed, sizeof seed,
                      sodium_base64_VARIANT_ORIGINAL);
    sodium_bin2base64(pk_b64, sizeof pk_b64, pk, sizeof pk,
                      sodium_base64_VARIANT_ORIGINAL);
    /* Only the owner may read it, whatever the umask (fchmod: an
     * existing file replaced with --force keeps its old mode otherwise). */
    bool ok = fchmod(fd, 0600) == 0 &&
              dprintf(fd, "%s\n", seed_b64) == (int)strlen(seed_b64) + 1;
    ok = close(fd) == 0 && ok;
    sodium_memzero(seed, sizeof seed);
    sodium_memzero(sk, sizeof sk);
    sodium_memzero(seed_b64, sizeof seed_b64);
    if (!ok) {
        fprintf(stderr, "pbem: cannot write %s: %s\n", path, strerror(errno));
        unlink(path);
        return PLAYER_REFUSED;
    }
    printf("The mail key is in %s: the mail server's pipe signs with it\n"
           "  pbem mail-in --key %s < message\n"
           "Give pbemd its public half (its configuration, or the "
           "environment):\n"
           "PBEM_MAIL_INBOUND_KEY=%s\n",
           path, path, pk_b64);
    return PLAYER_OK;
}

static int usage(bool asked)
{
    fputs("usage: pbem keygen [--force]\n"
          "       pbem keygen --mail FILE [--force]\n"
          "Makes your Ed25519 key in $XDG_CONFIG_HOME/pbem (else "
          "~/.config/pbem);\n--force replaces a key already there.\n"
          "--mail FILE makes the key pbem mail-in signs with instead, in "
          "FILE, and\nprints the PBEM_MAIL_INBOUND_KEY line pbemd takes.\n",
          asked ? stdout : stderr);
    return asked ? PLAYER_OK : PLAYER_USAGE;
}

int keygen_cmd_main(int argc, char **argv)
{
    bool force = false;
    const char *mail_file = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--force") == 0)
            force = true;
        else if (strcmp(argv[i], "--mail") == 0 && i + 1 < argc)
            mail_file = argv[++i];
        else
            return usage(strcmp(argv[i], "--help") == 0);
    }
    if (sodium_init() < 0) {
        fputs("pbem: libsodium could not start.\n", stderr);
        return PLAYER_REFUSED;
    }
    if (mail_file != NULL)
        return make_mail_key(mail_file, force);
    client_key key;
    if (!player_config_new_key(force, &key))
        return PLAYER_REFUSED;
    char dir[4096];
    player_config_dir(dir, sizeof dir);
    printf("Your key is in %s/key (key id %s). Next: pbem register NAME "
           "[EMAIL].\n",
           dir, key.key_id);
    sodium_memzero(&key, sizeof key);
    return PLAYER_OK;
}
