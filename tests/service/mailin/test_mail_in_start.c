/* pbem mail-in's start: a mail server runs one per message, so it loads
 * only what it uses. Over http:// it never loads libcurl (whose thirty
 * libraries were most of its CPU); over https:// libcurl is opened when
 * the request is made. The dynamic loader's own trace (LD_DEBUG=libs)
 * says which libraries a run opened. */
#include <criterion/criterion.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Runs pbem mail-in --url url with a small mail on its standard input
 * and the loader's trace on; its exit status, and the trace in *trace
 * (malloc'd). */
static int run_traced(const char *url, char **trace)
{
    char dir[] = "/tmp/pbem-mail-in-start-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char key[96], mail[96], out[96], command[1024];
    snprintf(key, sizeof key, "%s/mail.key", dir);
    snprintf(mail, sizeof mail, "%s/mail.eml", dir);
    snprintf(out, sizeof out, "%s/trace", dir);
    unsigned char seed[crypto_sign_SEEDBYTES];
    randombytes_buf(seed, sizeof seed);
    char seed_b64[64];
    sodium_bin2base64(seed_b64, sizeof seed_b64, seed, sizeof seed,
                      sodium_base64_VARIANT_ORIGINAL);
    FILE *f = fopen(key, "w");
    fprintf(f, "%s\n", seed_b64);
    fclose(f);
    f = fopen(mail, "w");
    fputs("From: a@example.org\r\nTo: pbem@example.org\r\n\r\nhelp\r\n", f);
    fclose(f);
    snprintf(command, sizeof command,
             "LD_DEBUG=libs \"%s\" mail-in --url %s --key \"%s\" < \"%s\" "
             "2> \"%s\"",
             getenv("PBEM_CLI"), url, key, mail, out);
    int status = system(command);
    f = fopen(out, "r");
    cr_assert_not_null(f);
    size_t size = 1 << 20;
    *trace = calloc(1, size + 1);
    size_t n = fread(*trace, 1, size, f);
    (*trace)[n] = '\0';
    fclose(f);
    unlink(key);
    unlink(mail);
    unlink(out);
    rmdir(dir);
    cr_assert(WIFEXITED(status), "pbem mail-in did not exit");
    return WEXITSTATUS(status);
}

Test(mail_in_start, plain_http_never_loads_libcurl)
{
    cr_assert_geq(sodium_init(), 0);
    char *trace = NULL;
    /* Nobody listens on port 1: the mail server is told to retry. */
    int status = run_traced("http://127.0.0.1:1", &trace);
    cr_expect_eq(status, 75, "no pbemd: try again later (%d)", status);
    cr_expect(strstr(trace, "pbemd did not answer") != NULL, "%s", trace);
    cr_expect(strstr(trace, "libsodium") != NULL,
              "the trace lists no library at all: %s", trace);
    cr_expect(strstr(trace, "libcurl") == NULL,
              "pbem mail-in loaded libcurl for plain HTTP");
    cr_expect(strstr(trace, "libgnutls") == NULL,
              "pbem mail-in loaded GnuTLS for plain HTTP");
    free(trace);
}

Test(mail_in_start, https_opens_libcurl_when_it_sends)
{
    cr_assert_geq(sodium_init(), 0);
    char *trace = NULL;
    int status = run_traced("https://127.0.0.1:1", &trace);
    cr_expect_eq(status, 75, "no pbemd: try again later (%d)", status);
    cr_expect(strstr(trace, "pbemd did not answer") != NULL, "%s", trace);
    cr_expect(strstr(trace, "libcurl.so") != NULL,
              "https:// went without libcurl");
    free(trace);
}
