/* worker.c */
#include "core/worker.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/log.h"

struct worker {
    worker_spec spec;
    pthread_t thread;
    /* Written once by worker_stop and never read: a readable wake[0]
     * means "stop", however many sleeps it ends. */
    int wake[2];
    atomic_bool stopping;
};

static void *run(void *arg)
{
    worker *w = arg;
    if (w->spec.begin != NULL && !w->spec.begin(w->spec.context))
        return NULL;
    worker_pause pause = {.ms = 0, .fd = -1, .fd_ready = false};
    while (!atomic_load(&w->stopping)) {
        pause.ms = w->spec.poll_ms;
        pause.fd = -1;
        w->spec.round(w, w->spec.context, &pause);
        pause.fd_ready = false;
        if (pause.ms <= 0)
            continue;
        struct pollfd fds[2] = {{.fd = w->wake[0], .events = POLLIN},
                                {.fd = pause.fd, .events = POLLIN}};
        int ready = poll(fds, pause.fd >= 0 ? 2 : 1, (int)pause.ms);
        if (ready < 0 && errno != EINTR)
            log_error("%s: poll failed: %s", w->spec.name, strerror(errno));
        pause.fd_ready = pause.fd >= 0 && ready > 0 &&
                         (fds[1].revents & POLLIN) != 0;
    }
    if (w->spec.end != NULL)
        w->spec.end(w->spec.context);
    return NULL;
}

worker *worker_start(const worker_spec *spec, apierr *err)
{
    worker *w = calloc(1, sizeof *w);
    if (w == NULL)
        abort();
    w->spec = *spec;
    atomic_init(&w->stopping, false);
    if (pipe2(w->wake, O_NONBLOCK | O_CLOEXEC) != 0) {
        apierr_set(err, 500, spec->error_code,
                   "cannot create the %s's wake-up pipe: %s", spec->what,
                   strerror(errno));
        free(w);
        return NULL;
    }
    int rc = pthread_create(&w->thread, NULL, run, w);
    if (rc != 0) {
        close(w->wake[0]);
        close(w->wake[1]);
        free(w);
        apierr_set(err, 500, spec->error_code, "cannot start the %s: %s",
                   spec->what, strerror(rc));
        return NULL;
    }
    return w;
}

bool worker_stopping(worker *self)
{
    return atomic_load(&self->stopping);
}

int worker_wake_fd(const worker *self)
{
    return self->wake[0];
}

void worker_stop(worker *self)
{
    if (self == NULL)
        return;
    atomic_store(&self->stopping, true);
    /* The pipe is empty and non-blocking: this byte always fits, and a
     * failed write would still leave the flag for the next round to see. */
    ssize_t wrote = write(self->wake[1], "x", 1);
    (void)wrote;
    pthread_join(self->thread, NULL);
    close(self->wake[0]);
    close(self->wake[1]);
    free(self);
}
