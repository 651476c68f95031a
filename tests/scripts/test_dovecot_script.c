/* test_dovecot_script.c: scripts/dovecot.sh, the private Dovecot of make
 * bench, starts and greets in a checkout as deep as people keep them
 * (Dovecot's unix sockets would not fit under it), and stop leaves no
 * folder behind in /tmp. */
#include <arpa/inet.h>
#include <criterion/criterion.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../support/ports.h"

/* The first bytes a client connecting to port reads (2 s at most). */
static void greeting(int port, char *out, size_t size)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in addr = {.sin_family = AF_INET,
                               .sin_port = htons((uint16_t)port),
                               .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    out[0] = '\0';
    if (connect(fd, (struct sockaddr *)&addr, sizeof addr) == 0) {
        struct pollfd p = {.fd = fd, .events = POLLIN};
        if (poll(&p, 1, 2000) == 1) {
            ssize_t n = recv(fd, out, size - 1, 0);
            out[n > 0 ? n : 0] = '\0';
        }
    }
    close(fd);
}

Test(dovecot_script, it_serves_from_a_deep_checkout_and_leaves_nothing_in_tmp,
     .timeout = 60)
{
    char dir[400];
    snprintf(dir, sizeof dir,
             "var/dovecot-script-%d/a-folder-name-as-long-as-people-give-"
             "them/another-one-just-as-long-as-the-first/bench-mail-1/dovecot",
             (int)getpid());
    cr_assert_gt(strlen(dir) + 60, 107, "the folder must be deep");
    int port = ports_free();
    char command[800];
    snprintf(command, sizeof command,
             "scripts/dovecot.sh start %s %d pbem secret 2>&1", dir, port);
    cr_assert_eq(system(command), 0, "dovecot.sh start failed in %s", dir);
    char hello[64];
    greeting(port, hello, sizeof hello);
    char run_dir_file[500], run_dir[200] = "";
    snprintf(run_dir_file, sizeof run_dir_file, "%s/run_dir", dir);
    FILE *f = fopen(run_dir_file, "r");
    cr_assert_not_null(f, "no %s", run_dir_file);
    cr_assert_not_null(fgets(run_dir, sizeof run_dir, f));
    fclose(f);
    run_dir[strcspn(run_dir, "\n")] = '\0';
    snprintf(command, sizeof command, "scripts/dovecot.sh stop %s", dir);
    cr_assert_eq(system(command), 0);
    cr_expect(strncmp(hello, "* OK", 4) == 0, "Dovecot said \"%s\"", hello);
    struct stat st;
    cr_expect(stat(run_dir, &st) != 0 && errno == ENOENT,
              "%s is still there after stop", run_dir);
    snprintf(command, sizeof command, "rm -rf var/dovecot-script-%d",
             (int)getpid());
    cr_expect_eq(system(command), 0);
}
