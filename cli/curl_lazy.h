/* curl_lazy.h: libcurl for the pbem command, loaded the first time a
 * command uses it rather than by the dynamic loader at every start.
 *
 * libcurl brings some thirty libraries (GnuTLS, Kerberos, LDAP, …) whose
 * loading and constructors cost about 4 ms of CPU per process, seven
 * times the rest of a start: `pbem mail-in`, which a mail server runs once
 * per message and which speaks plain HTTP itself (http_post.h), pays none
 * of it. So pbem is linked without -lcurl, and curl_lazy.c defines the
 * libcurl functions pbem and its client library call (curl_global_init,
 * curl_easy_*, curl_slist_*) as forwarders to libcurl.so.4, opened with
 * dlopen on the first call. A libcurl that cannot be opened is a broken
 * installation: pbem says so and exits with 75 (EX_TEMPFAIL: a mail server
 * keeps the message; a person reads why). No symbols of its own. */
#ifndef CLI_CURL_LAZY_H
#define CLI_CURL_LAZY_H

#endif
