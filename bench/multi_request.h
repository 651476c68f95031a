/* multi_request.h: what the benchmark clients that drive many players from
 * one thread share (bench/moves_loop.c, bench/open_loop.c): each player's
 * (or match's) one request in flight on the thread's curl multi handle,
 * signed as every client request is and asking for the representation,
 * its answer collected; and the multi handle's sockets watched by the
 * thread's epoll set, so that each wake-up touches only the connections
 * that are ready (curl_multi_poll polled all of them every time). */
#ifndef BENCH_MULTI_REQUEST_H
#define BENCH_MULTI_REQUEST_H

#include <curl/curl.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/epoll.h>

#include "client.h"

/* One request at a time; zeroed, then easy set by curl_easy_init. */
typedef struct multi_request {
    CURL *easy;
    struct curl_slist *headers;
    char *body; /* the request's body, owned until it is answered */
    char *answer;
    size_t answer_len;
} multi_request;

/* Adds method base_url+path to multi, body (taken; NULL: none) signed by
 * key, with "Prefer: return=representation" and a 30 s limit; private is
 * what CURLINFO_PRIVATE gives back when it is done. False with error (256
 * bytes) filled: q is then not on multi. */
bool multi_request_send(multi_request *q, CURLM *multi, const char *base_url,
                        const char *method, const char *path, char *body,
                        const client_key *key, void *private, char *error);

/* Takes q's finished transfer off multi and frees its headers and body:
 * its HTTP status (0: none). The answer stays in q->answer. */
long multi_request_done(multi_request *q, CURLM *multi);

/* Frees what q holds, once it is off multi. */
void multi_request_free(multi_request *q);

/* A multi handle whose sockets an epoll set watches. */
typedef struct multi_sockets {
    CURLM *multi;
    int epoll_fd;
} multi_sockets;

/* Sets s->multi's socket callback so that s->epoll_fd watches its
 * sockets, each with its descriptor as the event's data.fd; s must live
 * as long as the multi handle. */
void multi_sockets_watch(multi_sockets *s);

/* Hands the readiness ev reports on one of s's sockets to curl. */
void multi_sockets_act(multi_sockets *s, const struct epoll_event *ev,
                       int *running);

#endif
