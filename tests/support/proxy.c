/* proxy.c */
#include "proxy.h"

#include <arpa/inet.h>
#include <criterion/criterion.h>
#include <curl/curl.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <netinet/in.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ports.h"

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Runs argv (a NULL-terminated command) with its output into log, and
 * fails the test unless it exits 0. */
static void run(const char *const *argv, const char *log)
{
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
        if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0 ||
            dup2(fd, STDERR_FILENO) < 0)
            _exit(126);
        execvp(argv[0], (char *const *)argv);
        _exit(127);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0,
              "%s failed (status %d); see %s", argv[0], status, log);
}

/* A CA, and a certificate for 127.0.0.1 that it signed: EC keys, quick
 * to make. */
static void make_certificates(proxy *p)
{
    char log[128], ca_key[128], csr[128], key[128], cert[128], ext[128];
    snprintf(log, sizeof log, "%s/openssl.log", p->dir);
    snprintf(ca_key, sizeof ca_key, "%s/ca.key", p->dir);
    snprintf(csr, sizeof csr, "%s/server.csr", p->dir);
    snprintf(key, sizeof key, "%s/server.key", p->dir);
    snprintf(cert, sizeof cert, "%s/server.pem", p->dir);
    snprintf(ext, sizeof ext, "%s/server.ext", p->dir);
    const char *const ca[] = {
        "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
        "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", ca_key, "-out",
        p->ca_file, "-days", "2", "-subj", "/CN=pbem test CA", NULL};
    run(ca, log);
    const char *const request[] = {
        "openssl", "req", "-new", "-newkey", "ec", "-pkeyopt",
        "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key, "-out",
        csr, "-subj", "/CN=127.0.0.1", NULL};
    run(request, log);
    FILE *f = fopen(ext, "w");
    cr_assert_not_null(f);
    fputs("subjectAltName=IP:127.0.0.1\n", f);
    fclose(f);
    const char *const sign[] = {
        "openssl", "x509", "-req", "-in", csr, "-CA", p->ca_file, "-CAkey",
        ca_key, "-CAcreateserial", "-out", cert, "-days", "2", "-extfile",
        ext, NULL};
    run(sign, log);
}

/* The configuration: the test's upstream and server around the location
 * a deployment uses (deploy/nginx/pbem-location.conf). */
static void write_config(const proxy *p, const int *ports, int count)
{
    char path[128], location[512], cwd[300];
    cr_assert_not_null(getcwd(cwd, sizeof cwd));
    snprintf(location, sizeof location, "%s/deploy/nginx/pbem-location.conf",
             cwd);
    cr_assert_eq(access(location, R_OK), 0, "no %s", location);
    snprintf(path, sizeof path, "%s/nginx.conf", p->dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fprintf(f,
            "worker_processes 1;\n"
            "%s"
            "error_log %s/error.log info;\n"
            "pid %s/nginx.pid;\n"
            "events { worker_connections 512; }\n"
            "http {\n"
            "  access_log %s/access.log;\n"
            "  client_body_temp_path %s/tmp/body;\n"
            "  proxy_temp_path %s/tmp/proxy;\n"
            "  fastcgi_temp_path %s/tmp/fastcgi;\n"
            "  uwsgi_temp_path %s/tmp/uwsgi;\n"
            "  scgi_temp_path %s/tmp/scgi;\n"
            "  upstream pbemd {\n",
            geteuid() == 0 ? "user nobody nogroup;\n" : "", p->dir, p->dir,
            p->dir, p->dir, p->dir, p->dir, p->dir, p->dir);
    for (int i = 0; i < count; i++)
        fprintf(f, "    server 127.0.0.1:%d max_fails=1 fail_timeout=5s;\n",
                ports[i]);
    fprintf(f,
            "    keepalive 16;\n"
            "  }\n"
            "  server {\n"
            "    listen 127.0.0.1:%d ssl;\n"
            "    ssl_certificate %s/server.pem;\n"
            "    ssl_certificate_key %s/server.key;\n"
            "    location / {\n"
            "      proxy_bind %s;\n"
            "      include %s;\n"
            "    }\n"
            "  }\n"
            "}\n",
            p->port, p->dir, p->dir, PROXY_SOURCE_ADDRESS, location);
    cr_assert_eq(fclose(f), 0);
}

/* Whether a TLS handshake with the proxy completes and it answers. */
static bool answers(const proxy *p)
{
    CURL *curl = curl_easy_init();
    char url[96];
    snprintf(url, sizeof url, "%s/healthz", p->base_url);
    curl_easy_setopt(curl, CURLOPT_URL, url);
    curl_easy_setopt(curl, CURLOPT_CAINFO, p->ca_file);
    curl_easy_setopt(curl, CURLOPT_NOBODY, 1L);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT, 2L);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    bool ok = curl_easy_perform(curl) == CURLE_OK;
    curl_easy_cleanup(curl);
    return ok;
}

void proxy_start(proxy *p, const int *ports, int count)
{
    cr_assert(count > 0 && count <= PROXY_BACKENDS_MAX);
    memset(p, 0, sizeof *p);
    snprintf(p->dir, sizeof p->dir, "/tmp/pbem-proxy-XXXXXX");
    cr_assert_not_null(mkdtemp(p->dir));
    snprintf(p->ca_file, sizeof p->ca_file, "%s/ca.pem", p->dir);
    p->port = ports_free();
    snprintf(p->base_url, sizeof p->base_url, "https://127.0.0.1:%d",
             p->port);
    char tmp[128];
    snprintf(tmp, sizeof tmp, "%s/tmp", p->dir);
    cr_assert_eq(mkdir(tmp, 0700), 0);
    if (geteuid() == 0) {
        /* The workers (nobody) write request bodies under tmp/. */
        const struct passwd *nobody = getpwnam("nobody");
        cr_assert_not_null(nobody, "no user 'nobody' to run nginx's workers");
        cr_assert_eq(chown(tmp, nobody->pw_uid, nobody->pw_gid), 0);
        cr_assert_eq(chmod(p->dir, 0755), 0);
    }
    make_certificates(p);
    write_config(p, ports, count);
    char conf[128], out[128];
    snprintf(conf, sizeof conf, "%s/nginx.conf", p->dir);
    snprintf(out, sizeof out, "%s/stderr.log", p->dir);
    pid_t parent = getpid();
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        int fd = open(out, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
        if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0 ||
            dup2(fd, STDERR_FILENO) < 0)
            _exit(126);
        /* nginx dies with the test, even one that failed. */
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (getppid() != parent)
            _exit(0);
        execlp("nginx", "nginx", "-p", p->dir, "-c", conf, "-g",
               "daemon off;", (char *)NULL);
        _exit(127);
    }
    p->pid = pid;
    double until = now_seconds() + 10;
    while (now_seconds() < until) {
        int status;
        if (waitpid(pid, &status, WNOHANG) == pid) {
            p->pid = 0;
            cr_assert_fail("nginx ended (status %d) before it served; see "
                           "%s and %s/error.log",
                           status, out, p->dir);
        }
        if (answers(p))
            return;
        /* The pace of a bounded poll. */
        poll(NULL, 0, 20);
    }
    cr_assert_fail("nginx did not answer on port %d within 10 s; see %s",
                   p->port, out);
}

static int remove_entry(const char *path, const struct stat *st, int type,
                        struct FTW *ftw)
{
    (void)st;
    (void)type;
    (void)ftw;
    remove(path);
    return 0;
}

void proxy_remove(proxy *p)
{
    if (p->pid != 0) {
        kill(p->pid, SIGQUIT);
        int status;
        while (waitpid(p->pid, &status, 0) < 0 && errno == EINTR)
            ;
        p->pid = 0;
    }
    if (p->dir[0] != '\0')
        nftw(p->dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    p->dir[0] = '\0';
}
