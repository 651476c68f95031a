/* routes.c: the route table, and the one way every request goes through
 * it: match the path, check who may call, charge its client's rate limit
 * (rate_policy.h), answer a retry from its stored answer, read the body,
 * run the handler. */
#include "http/routes.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "auth/admin.h"
#include "auth/auth.h"
#include "auth/delegate.h"
#include "core/config.h"
#include "core/log.h"
#include "http/admin_routes.h"
#include "http/chat_routes.h"
#include "http/export_routes.h"
#include "http/lobby_routes.h"
#include "http/mail_routes.h"
#include "http/match_routes.h"
#include "http/path.h"
#include "http/player_routes.h"
#include "http/push_routes.h"
#include "http/rate_policy.h"
#include "http/route_call.h"
#include "http/service_routes.h"
#include "http/stream_routes.h"
#include "ledger/httpsig.h"
#include "notify/notify_seen.h"
#include "play/matches.h"
#include "play/players.h"
#include "store/delegate_grants.h"

/* Who may call a route. */
typedef enum route_access {
    ANYONE,
    PLAYER,           /* signed by a registered player's key (auth.h) */
    PLAYER_IF_SIGNED, /* anyone; a signature, when given, must hold */
    NEW_KEY,          /* signed by the key the JSON body registers */
    KEY_OR_NEW_KEY,   /* signed by a player's key, or by the key the JSON
                         body adds (auth_enrolment) */
    ADMIN,            /* signed with the admin key (admin.h) */
    MAIL_SERVER,      /* signed with the mail inbound key (admin.h) */
} route_access;

/* How a signed request meets the nonces of earlier requests (a retry
 * after a timeout carries the same nonce and must get the same answer). */
typedef enum route_retry {
    RETRY_NONE,      /* a read, or a change harmless to repeat */
    RETRY_BEFORE,    /* look the nonce up before the handler runs */
    RETRY_ON_FAILURE /* the use case stores its nonce and answer in the
                        same transaction as its change, so a retry can only
                        fail (the nonce, or what it changed, is taken):
                        look the nonce up then, saving the hot path a
                        round trip */
} route_retry;

typedef enum route_body {
    BODY_ANY,  /* ignored, or read raw by the handler */
    BODY_JSON, /* a JSON object, read after the signature is judged */
} route_body;

typedef struct route {
    const char *name; /* "METHOD pattern", for metrics and logs */
    const char *method;
    const char *pattern; /* path.h */
    route_access access;
    route_retry retry;
    route_body body;
    /* The 405 sentence for another method on this path; NULL: the path
     * answers other methods 404, as if it did not exist. */
    const char *other_method;
    route_handler *handler;
} route;

#define ROUTE(method, pattern, ...) \
    {method " " pattern, method, pattern, __VA_ARGS__}

/* The first row of a path names it in a 405 and its first placeholder's
 * 404, so a path's GET comes first. */
static const char any_method[] = "this resource does not accept that method";
static const route table[] = {
    ROUTE("GET", "/healthz", ANYONE, RETRY_NONE, BODY_ANY, any_method,
          service_routes_health),
    ROUTE("GET", "/metrics", ANYONE, RETRY_NONE, BODY_ANY, any_method,
          service_routes_metrics),
    ROUTE("GET", "/v1/games", ANYONE, RETRY_NONE, BODY_ANY, any_method,
          service_routes_games),
    ROUTE("GET", "/v1/games/{game}/ratings", ANYONE, RETRY_NONE, BODY_ANY,
          any_method, lobby_routes_leaderboard),
    ROUTE("GET", "/v1/games/{game}", ANYONE, RETRY_NONE, BODY_ANY, any_method,
          service_routes_game),
    ROUTE("POST", "/v1/players", NEW_KEY, RETRY_ON_FAILURE, BODY_JSON,
          any_method, player_routes_register),
    ROUTE("GET", "/v1/matches", ANYONE, RETRY_NONE, BODY_ANY, any_method,
          lobby_routes_list),
    ROUTE("GET", "/v1/seeks", PLAYER, RETRY_NONE, BODY_ANY, any_method,
          lobby_routes_my_seeks),
    /* Asking twice renews the one seek: harmless to repeat. */
    ROUTE("POST", "/v1/seeks", PLAYER, RETRY_NONE, BODY_JSON, any_method,
          lobby_routes_seek),
    ROUTE("DELETE", "/v1/seeks/{id}", PLAYER, RETRY_NONE, BODY_ANY,
          "use DELETE", lobby_routes_unseek),
    ROUTE("GET", "/v1/players/{id}/ratings", ANYONE, RETRY_NONE, BODY_ANY,
          any_method, lobby_routes_player),
    ROUTE("POST", "/v1/matches", PLAYER, RETRY_ON_FAILURE, BODY_JSON,
          any_method, match_routes_create),
    /* Unsigned: the answer is the same whoever asks (no enumeration). */
    ROUTE("POST", "/v1/players/sign-in-links", ANYONE, RETRY_NONE, BODY_JSON,
          "use POST", player_routes_sign_in_link),
    ROUTE("GET", "/v1/unsubscribe", ANYONE, RETRY_NONE, BODY_ANY, NULL,
          player_routes_unsubscribe_page),
    /* The same page at the link a mail's text carries. */
    ROUTE("GET", "/unsubscribe", ANYONE, RETRY_NONE, BODY_ANY, NULL,
          player_routes_unsubscribe_page),
    ROUTE("POST", "/v1/unsubscribe", ANYONE, RETRY_NONE, BODY_ANY, NULL,
          player_routes_unsubscribe),
    /* The token in the link is the proof: the mailbox's reader opened it. */
    ROUTE("GET", "/v1/email-confirmations", ANYONE, RETRY_NONE, BODY_ANY,
          "use GET or POST", player_routes_email_page),
    ROUTE("POST", "/v1/email-confirmations", ANYONE, RETRY_NONE, BODY_ANY,
          "use GET or POST", player_routes_confirm_email),
    /* The same page at the link the mail carries: a person's link opens
     * a page, never the API. */
    ROUTE("GET", "/confirm-email", ANYONE, RETRY_NONE, BODY_ANY, NULL,
          player_routes_email_page),

    ROUTE("GET", "/v1/players/me", PLAYER, RETRY_NONE, BODY_ANY, "use GET",
          player_routes_me),
    /* Asking twice mails another link (as many as an hour allows). */
    ROUTE("POST", "/v1/players/me/email", PLAYER, RETRY_NONE, BODY_JSON,
          "use POST", player_routes_change_email),
    ROUTE("GET", "/v1/players/me/matches", PLAYER, RETRY_NONE, BODY_ANY,
          "use GET", player_routes_my_matches),
    ROUTE("GET", "/v1/players/me/keys", PLAYER, RETRY_NONE, BODY_ANY,
          "use GET or POST", player_routes_keys),
    ROUTE("POST", "/v1/players/me/keys", KEY_OR_NEW_KEY, RETRY_ON_FAILURE,
          BODY_JSON, "use GET or POST", player_routes_add_key),
    /* Revoking twice leaves the key revoked: harmless to repeat. */
    ROUTE("DELETE", "/v1/players/me/keys/{id}", PLAYER, RETRY_NONE, BODY_ANY,
          "use DELETE", player_routes_revoke_key),
    ROUTE("GET", "/v1/players/me/vacation", PLAYER, RETRY_NONE, BODY_ANY,
          "use GET or POST", player_routes_vacations),
    ROUTE("POST", "/v1/players/me/vacation", PLAYER, RETRY_ON_FAILURE,
          BODY_JSON, "use GET or POST", player_routes_declare_vacation),
    ROUTE("DELETE", "/v1/players/me/vacation/{id}", PLAYER, RETRY_NONE,
          BODY_ANY, "use DELETE", player_routes_cancel_vacation),
    ROUTE("GET", "/v1/players/me/delegates", PLAYER, RETRY_NONE, BODY_ANY,
          "use GET or POST", player_routes_delegates),
    ROUTE("POST", "/v1/players/me/delegates", PLAYER, RETRY_ON_FAILURE,
          BODY_JSON, "use GET or POST", player_routes_grant_delegate),
    /* A replayed revocation revokes what is revoked already. */
    ROUTE("DELETE", "/v1/players/me/delegates/{id}", PLAYER, RETRY_NONE,
          BODY_ANY, "use DELETE", player_routes_revoke_delegate),
    /* Each code asked for is another code (as many as an hour allows). */
    ROUTE("POST", "/v1/players/me/chat-links", PLAYER, RETRY_NONE, BODY_ANY,
          "use POST", chat_routes_link_code),
    ROUTE("GET", "/v1/players/me/notifications", PLAYER, RETRY_NONE,
          BODY_ANY, "use GET", player_routes_notifications),
    /* PUT is idempotent: a replay sets the same settings again. */
    ROUTE("GET", "/v1/players/me/notification-settings", PLAYER, RETRY_NONE,
          BODY_ANY, "use GET or PUT", player_routes_settings),
    ROUTE("PUT", "/v1/players/me/notification-settings", PLAYER, RETRY_NONE,
          BODY_JSON, "use GET or PUT", player_routes_put_settings),
    ROUTE("GET", "/v1/players/me/webhooks", PLAYER, RETRY_NONE, BODY_ANY,
          "use GET or POST", player_routes_webhooks),
    ROUTE("POST", "/v1/players/me/webhooks", PLAYER, RETRY_ON_FAILURE,
          BODY_JSON, "use GET or POST", player_routes_register_webhook),
    ROUTE("DELETE", "/v1/players/me/webhooks/{id}", PLAYER, RETRY_NONE,
          BODY_ANY, "use DELETE", player_routes_disable_webhook),
    /* Subscribing the same endpoint again replaces its keys: harmless. */
    ROUTE("GET", "/v1/players/me/push-subscriptions", PLAYER, RETRY_NONE,
          BODY_ANY, "use GET or POST", push_routes_list),
    ROUTE("POST", "/v1/players/me/push-subscriptions", PLAYER, RETRY_NONE,
          BODY_JSON, "use GET or POST", push_routes_subscribe),
    ROUTE("DELETE", "/v1/players/me/push-subscriptions/{id}", PLAYER,
          RETRY_NONE, BODY_ANY, "use DELETE", push_routes_unsubscribe),
    ROUTE("GET", "/v1/players/me/stream", PLAYER, RETRY_NONE, BODY_ANY,
          "use GET on a stream", stream_routes_player),

    ROUTE("GET", "/v1/matches/{id}", ANYONE, RETRY_NONE, BODY_ANY,
          "use GET on a match", match_routes_show),
    ROUTE("GET", "/v1/matches/{id}/events", ANYONE, RETRY_NONE, BODY_ANY,
          "use GET on events", match_routes_events),
    ROUTE("GET", "/v1/matches/{id}/view", PLAYER, RETRY_NONE, BODY_ANY,
          "use GET on a view", match_routes_view),
    ROUTE("GET", "/v1/matches/{id}/replay", ANYONE, RETRY_NONE, BODY_ANY,
          "use GET on a replay", match_routes_replay),
    ROUTE("GET", "/v1/matches/{id}/verify", ANYONE, RETRY_NONE, BODY_ANY,
          "use GET on verify", match_routes_verify),
    /* Signed by a seat's player, it carries that seat's talk too. */
    ROUTE("GET", "/v1/matches/{id}/stream", PLAYER_IF_SIGNED, RETRY_NONE,
          BODY_ANY, "use GET on a stream", stream_routes_match),
    ROUTE("GET", "/v1/matches/{id}/export", PLAYER_IF_SIGNED, RETRY_NONE,
          BODY_ANY, "use GET on an export", export_routes_match),
    ROUTE("POST", "/v1/matches/{id}/webhooks", PLAYER, RETRY_ON_FAILURE,
          BODY_JSON, "use POST", match_routes_register_webhook),
    /* A replayed nudge meets the rate limit. */
    ROUTE("POST", "/v1/matches/{id}/nudge", PLAYER, RETRY_NONE, BODY_ANY,
          "use POST", match_routes_nudge),
    /* Spectators read a finished match's public messages unsigned. */
    ROUTE("GET", "/v1/matches/{id}/messages", PLAYER_IF_SIGNED, RETRY_NONE,
          BODY_ANY, "use GET or POST", match_routes_messages),
    ROUTE("POST", "/v1/matches/{id}/messages", PLAYER, RETRY_ON_FAILURE,
          BODY_JSON, "use GET or POST", match_routes_say),
    /* Muting twice leaves the player muted: harmless to repeat. */
    ROUTE("PUT", "/v1/matches/{id}/mutes/{seat}", PLAYER, RETRY_NONE,
          BODY_ANY, "use PUT or DELETE", match_routes_mute),
    ROUTE("DELETE", "/v1/matches/{id}/mutes/{seat}", PLAYER, RETRY_NONE,
          BODY_ANY, "use PUT or DELETE", match_routes_unmute),
    ROUTE("GET", "/v1/matches/{id}/decisions/{decision}", PLAYER_IF_SIGNED,
          RETRY_NONE, BODY_ANY, "use GET on a decision",
          match_routes_decision),
    ROUTE("POST", "/v1/matches/{id}/decisions/{decision}/commit", PLAYER,
          RETRY_ON_FAILURE, BODY_JSON, "use POST", match_routes_commit),
    ROUTE("POST", "/v1/matches/{id}/decisions/{decision}/reveal", PLAYER,
          RETRY_ON_FAILURE, BODY_JSON, "use POST", match_routes_reveal),
    ROUTE("POST", "/v1/matches/{id}/join", PLAYER, RETRY_ON_FAILURE,
          BODY_JSON, "use POST", match_routes_join),
    ROUTE("POST", "/v1/matches/{id}/invitations", PLAYER, RETRY_ON_FAILURE,
          BODY_JSON, "use POST", match_routes_invite),
    ROUTE("POST", "/v1/matches/{id}/moves", PLAYER, RETRY_ON_FAILURE,
          BODY_JSON, "use POST", match_routes_move),

    /* Mail is handled once by its Message-ID, however often it is sent. */
    ROUTE("POST", "/v1/mail/inbound", MAIL_SERVER, RETRY_NONE, BODY_ANY,
          "use POST", mail_routes_inbound),

    /* Signed by Discord or Slack, each checked by its handler; a replay
     * of an interaction is the same request (chat/chat_door.h). */
    ROUTE("POST", "/v1/chat/discord/interactions", ANYONE, RETRY_NONE,
          BODY_ANY, "use POST", chat_routes_discord),
    ROUTE("POST", "/v1/chat/slack/commands", ANYONE, RETRY_NONE, BODY_ANY,
          "use POST", chat_routes_slack_command),
    ROUTE("POST", "/v1/chat/slack/interactions", ANYONE, RETRY_NONE,
          BODY_ANY, "use POST", chat_routes_slack_click),

    /* Admin reads spend their nonce in the handler. */
    ROUTE("GET", "/v1/admin/export", ADMIN, RETRY_NONE, BODY_ANY, "use GET",
          admin_routes_export),
    ROUTE("POST", "/v1/admin/matches/import", ADMIN, RETRY_BEFORE, BODY_ANY,
          "use POST", admin_routes_import),
    ROUTE("GET", "/v1/admin/notifications", ADMIN, RETRY_NONE, BODY_ANY,
          "use GET", admin_routes_notifications),
    ROUTE("POST", "/v1/admin/notifications/{id}/retry", ADMIN, RETRY_BEFORE,
          BODY_ANY, "use POST", admin_routes_retry_notification),
    ROUTE("GET", "/v1/admin/matches/{id}/export", ADMIN, RETRY_NONE,
          BODY_ANY, "use GET", admin_routes_export_match),
    ROUTE("POST", "/v1/admin/matches/{id}/rewind", ADMIN, RETRY_BEFORE,
          BODY_JSON, "use POST", admin_routes_rewind),
    ROUTE("POST", "/v1/admin/matches/{id}/abort", ADMIN, RETRY_BEFORE,
          BODY_JSON, "use POST", admin_routes_abort),
    ROUTE("POST", "/v1/admin/matches/{id}/seats/{seat}/replace", ADMIN,
          RETRY_BEFORE, BODY_JSON, "use POST", admin_routes_replace_seat),
};

/* What a request costs from its client's budget (rate_policy.h): a read
 * least, a write more, and most the routes that cost much CPU (verify
 * replays a whole match) or make an account (anyone can make keys). */
static const char *const heavy_routes[] = {
    "POST /v1/players",
    "GET /v1/matches/{id}/verify",
    /* A key anyone can make, a mail, a replay of the whole log. */
    "POST /v1/players/me/keys",
    "POST /v1/players/sign-in-links",
    "GET /v1/matches/{id}/replay",
    "GET /v1/matches/{id}/export",
};

/* Never charged: health checks and scrapes come from the operator's own
 * systems, often through the proxy everyone's requests come through, and
 * must answer while limits bite; each is a cheap read. */
static const char *const unmetered_routes[] = {
    "GET /healthz",
    "GET /metrics",
};

static bool unmetered(const route *row)
{
    for (size_t i = 0;
         i < sizeof unmetered_routes / sizeof *unmetered_routes; i++)
        if (strcmp(row->name, unmetered_routes[i]) == 0)
            return true;
    return false;
}

static rate_class cost_class(const route *row)
{
    for (size_t i = 0; i < sizeof heavy_routes / sizeof *heavy_routes; i++)
        if (strcmp(row->name, heavy_routes[i]) == 0)
            return RATE_HEAVY;
    return strcmp(row->method, "GET") == 0 ? RATE_READ : RATE_WRITE;
}

static pthread_once_t costs_once = PTHREAD_ONCE_INIT;

static void register_costs(void)
{
    for (size_t i = 0; i < sizeof table / sizeof *table; i++)
        if (!unmetered(&table[i]))
            rate_policy_route(table[i].name, cost_class(&table[i]));
}

/* The row for method and url with *params filled, or NULL with *out
 * holding the 404 or 405. */
static const route *find(const char *method, const char *url,
                         path_params *params, answer *out)
{
    const route *same_path = NULL;
    const route *refused = NULL;
    path_result refusal = PATH_DIFFERS;
    for (size_t i = 0; i < sizeof table / sizeof *table; i++) {
        const route *row = &table[i];
        path_result r = path_match(row->pattern, url, params);
        if (r == PATH_MATCHES && strcmp(row->method, method) == 0)
            return row;
        if (r == PATH_MATCHES && same_path == NULL)
            same_path = row;
        /* The admin API answers every path it does not know alike. */
        if (r != PATH_MATCHES && r != PATH_DIFFERS && refused == NULL &&
            row->access != ADMIN) {
            refused = row;
            refusal = r;
        }
    }
    out->route = "unknown";
    if (same_path != NULL && same_path->other_method != NULL) {
        out->route = same_path->name;
        answer_error(out, 405, "method_not_allowed", same_path->other_method);
    } else if (refused != NULL && refusal == PATH_NO_SUCH_MATCH) {
        out->route = refused->name;
        answer_error(out, 404, "no_such_match", "match ids look like m_1234");
    } else if (refused != NULL) {
        out->route = refused->name;
        answer_error(out, 404, "no_such_decision",
                     "decision ids are 1 to 63 characters");
    } else {
        answer_error(out, 404, "not_found", "no such resource");
    }
    return NULL;
}

static const char *lookup_header(void *conn, const char *name)
{
    return MHD_lookup_connection_value(conn, MHD_HEADER_KIND, name);
}

/* The request as the signature checks see it (borrows everything). */
static void signed_request(struct MHD_Connection *conn, const char *method,
                           const char *target, const char *body, size_t len,
                           httpsig_request *req)
{
    *req = (httpsig_request){
        .method = method,
        .target = target,
        .scheme = config_text(CONFIG_PUBLIC_SCHEME),
        .authority = lookup_header(conn, "host"),
        .header = lookup_header,
        .header_ctx = conn,
        .body = (const unsigned char *)body,
        .body_len = len,
    };
}

/* The body as a JSON object (new reference), or NULL with err filled
 * (400). */
static json_t *json_body(const char *body, size_t len, apierr *err)
{
    if (body == NULL || len == 0) {
        apierr_set(err, 400, "bad_json",
                   "this request needs a JSON object body");
        return NULL;
    }
    json_error_t jerr;
    json_t *value = json_loadb(body, len, JSON_REJECT_DUPLICATES, &jerr);
    if (value == NULL && json_error_code(&jerr) == json_error_invalid_utf8) {
        apierr_set(err, 400, "bad_json",
                   "the body must be UTF-8 text: the bytes at line %d "
                   "column %d are not UTF-8",
                   jerr.line, jerr.column);
        return NULL;
    }
    if (value == NULL) {
        apierr_set(err, 400, "bad_json",
                   "the body is not valid JSON: %s at line %d column %d",
                   jerr.text, jerr.line, jerr.column);
        return NULL;
    }
    if (!json_is_object(value)) {
        json_decref(value);
        apierr_set(err, 400, "bad_json", "the body must be a JSON object");
        return NULL;
    }
    return value;
}

/* One request on its way through its row, and what it holds meanwhile. */
typedef struct journey {
    route_call call;
    path_params params;
    httpsig_request signed_as;
    caller who;
    json_t *request; /* the JSON body, once read */
    uint8_t new_key[32];
} journey;

/* What a bot's delegated key needs its grant to allow to call row
 * (auth/delegate.h), 0 when no delegate may call it: everything else
 * (grants, webhooks, settings, creating matches) is the player's own. */
static unsigned delegate_scope(const route *row)
{
    route_handler *h = row->handler;
    /* Reading talk (never writing it): a bot whose grant names some
     * matches cannot open the player stream, and follows the talk on
     * those matches' streams. */
    if (h == match_routes_view || h == match_routes_decision ||
        h == stream_routes_player || h == match_routes_messages ||
        h == stream_routes_match || h == export_routes_match)
        return STORE_GRANT_VIEW;
    if (h == match_routes_move || h == match_routes_commit ||
        h == match_routes_reveal)
        return STORE_GRANT_MOVE;
    if (h == match_routes_join)
        return STORE_GRANT_JOIN;
    return 0;
}

/* A player's signed request: by their own key, or by a bot's key acting
 * for them when it names them in Pbem-On-Behalf-Of. */
static bool auth_signed_player(const route *row, journey *j, int64_t now,
                               apierr *err)
{
    if (lookup_header(j->call.conn, AUTH_ON_BEHALF_OF) != NULL) {
        /* The player's stream shows all their matches. */
        long long match_id = row->handler == stream_routes_player
                                 ? AUTH_DELEGATE_EVERY_MATCH
                                 : j->params.match_id;
        return auth_delegate(&j->signed_as, now, delegate_scope(row),
                             match_id, &j->who, err);
    }
    bool ok = auth_player(&j->signed_as, now, &j->who, err);
    if (ok)
        notify_seen_mark(j->who.player_id); /* on the page: spare its mail */
    return ok;
}

/* A registration's key is in its body: both are read before the
 * signature can be checked. */
static bool registration(journey *j, int64_t now, apierr *err)
{
    j->request = json_body(j->call.body, j->call.body_len, err);
    if (j->request == NULL ||
        !players_registration_key(j->request, j->new_key, err))
        return false;
    j->call.new_key = j->new_key;
    return auth_new_key(&j->signed_as, now, j->new_key, &j->who, err);
}

/* A key added to an account is signed by one of the player's keys, or by
 * itself (the handler then wants a sign-in link's token): call.new_key is
 * set only in that second case. */
static bool enrolment(journey *j, int64_t now, apierr *err)
{
    j->request = json_body(j->call.body, j->call.body_len, err);
    if (j->request == NULL ||
        !players_registration_key(j->request, j->new_key, err))
        return false;
    bool by_new_key = false;
    if (!auth_enrolment(&j->signed_as, now, j->new_key, &j->who, &by_new_key,
                        err))
        return false;
    j->call.new_key = by_new_key ? j->new_key : NULL;
    return true;
}

/* Checks that row's caller may call: true (with call.who set when the
 * request was signed), or false with *out holding the error. */
static bool authenticate(const route *row, journey *j, answer *out)
{
    apierr err;
    int64_t now = (int64_t)time(NULL);
    bool ok = false;
    switch (row->access) {
    case ANYONE:
        return true;
    case PLAYER_IF_SIGNED:
        if (lookup_header(j->call.conn, "signature") == NULL)
            return true;
        ok = auth_signed_player(row, j, now, &err);
        break;
    case PLAYER:
        ok = auth_signed_player(row, j, now, &err);
        break;
    case NEW_KEY:
        ok = registration(j, now, &err);
        break;
    case KEY_OR_NEW_KEY:
        ok = enrolment(j, now, &err);
        break;
    case ADMIN:
        ok = admin_check(&j->signed_as, now, &j->who, &err);
        break;
    case MAIL_SERVER:
        ok = admin_check_mail(&j->signed_as, now, &j->who, &err);
        break;
    }
    if (!ok) {
        answer_apierr(out, &err);
        return false;
    }
    j->call.who = &j->who;
    return true;
}

/* Whether the request is charged to its address before anything else:
 * it is unsigned, or it registers a key (which anyone can make). */
static bool charged_to_address(const route *row, const journey *j)
{
    if (unmetered(row))
        return false;
    switch (row->access) {
    case ANYONE:
    case NEW_KEY:
    case KEY_OR_NEW_KEY: /* a new key may sign it: anyone can make one */
        return true;
    case PLAYER_IF_SIGNED:
        return lookup_header(j->call.conn, "signature") == NULL;
    default:
        return false;
    }
}

/* After authentication, for a request not charged yet: a signature that
 * holds is charged to its key (the operator's keys are not limited), one
 * that does not to the address it came from, whatever key it claims.
 * False when that budget is spent: *out is then the 429. */
static bool charge_after_authentication(const route *row, journey *j,
                                        bool authenticated,
                                        rate_ticket *ticket, answer *out)
{
    if (unmetered(row) ||
        (authenticated &&
         (row->access == ADMIN || row->access == MAIL_SERVER)))
        return true;
    if (authenticated)
        return rate_policy_take(j->call.conn, RATE_PLAYER, j->who.key_id,
                                row->name, cost_class(row), ticket, out);
    /* A database failure says nothing about the signature. */
    if (out->status >= 500)
        return true;
    return rate_policy_take(j->call.conn, RATE_ANONYMOUS, NULL, row->name,
                            cost_class(row), ticket, out);
}

/* The request failed because the database connection was lost (a
 * PostgreSQL restart), not because of anything it asked. */
static bool database_lost(const answer *out)
{
    return out->status == 503 && out->body != NULL &&
           strstr(out->body, "\"database_unavailable\"") != NULL;
}

/* Whether a request whose database connection was lost may simply run
 * again: a read always; a write only when its signature's nonce makes a
 * second run safe, because the first may have committed before the
 * connection went (the nonce's row then refuses the second, and its
 * stored answer is the answer). */
static bool may_repeat(const route *row, const journey *j)
{
    if (strcmp(row->method, "GET") == 0)
        return true;
    return row->retry != RETRY_NONE && j->call.who != NULL &&
           j->who.nonce[0] != '\0';
}

/* One request from its route to its answer, kept while the request is
 * set aside (a move waiting for its commit without holding its thread). */
struct routes_later {
    const route *row;
    journey j;
    rate_ticket ticket;
    int attempt;
    const char *method, *url; /* libmicrohttpd's, for the request's life */
    db_waiter waiter;         /* the connection, suspended and resumed */
    void *later;              /* what the handler set aside */
    void (*finish)(void *later, answer *out);
};

/* db_waiter's two ends: the connection leaves the thread's event loop
 * while its commit runs, and comes back (from the thread that ran it)
 * once its outcome is known. */
static void suspend_connection(void *context)
{
    MHD_suspend_connection(context);
}

static void resume_connection(void *context)
{
    MHD_resume_connection(context);
}

/* Everything after authentication: the retry, the body, the handler. */
static void run(const route *row, journey *j, answer *out)
{
    if (row->retry == RETRY_BEFORE && answer_stored(j->call.who, out) != 0)
        return;
    if (row->body == BODY_JSON && j->request == NULL) {
        apierr err;
        j->request = json_body(j->call.body, j->call.body_len, &err);
        if (j->request == NULL) {
            answer_apierr(out, &err);
            return;
        }
    }
    j->call.request = j->request;
    row->handler(&j->call, out);
}

/* After the handler answered: a failed use case may have been a retry of
 * one that succeeded; if not, its refusal spends the nonce like an
 * applied request would, so the nonce answers this request only (a 5xx
 * may go better next time: its nonce stays free for the retry). */
static void remember(const route *row, const journey *j, answer *out)
{
    if (row->retry == RETRY_ON_FAILURE && out->status >= 400 &&
        answer_stored(j->call.who, out) == 0 && out->status < 500)
        answer_remember_refusal(j->call.who, out);
    else if (row->retry == RETRY_BEFORE && out->status >= 400 &&
             out->status < 500)
        answer_remember_refusal(j->call.who, out);
}

/* One try: authentication, the charge, the handler. True when the
 * handler set the request aside; only the first try may. */
static bool try_once(routes_later *l, answer *out)
{
    journey *j = &l->j;
    bool authenticated = authenticate(l->row, j, out);
    if (!l->ticket.taken &&
        !charge_after_authentication(l->row, j, authenticated, &l->ticket, out))
        authenticated = false;
    if (!authenticated)
        return false;
    j->call.waiter = l->attempt == 1 ? &l->waiter : NULL;
    run(l->row, j, out);
    if (out->later != NULL)
        return true;
    remember(l->row, j, out);
    return false;
}

/* After a try was answered: its request's parts are let go, and true
 * when it is to be tried again (the first answer dropped). */
static bool try_again(routes_later *l, answer *out)
{
    journey *j = &l->j;
    bool again = l->attempt == 1 && database_lost(out) && may_repeat(l->row, j);
    json_decref(j->request);
    j->request = NULL;
    if (j->call.who != NULL)
        auth_caller_free(&j->who);
    j->call.who = NULL;
    if (!again)
        return false;
    /* The next db_conn reconnects; the first answer is dropped. */
    log_warn("%s %s: the database connection was lost; trying again", l->method,
             l->url);
    free(out->body);
    *out = (answer){.route = l->row->name};
    memset(&j->who, 0, sizeof j->who);
    l->attempt++;
    return true;
}

/* Tries until answered (NULL: l is freed, *out the answer) or set aside
 * (l, to resume). */
static routes_later *go(routes_later *l, answer *out)
{
    for (;;) {
        if (try_once(l, out)) {
            l->later = out->later;
            l->finish = out->finish;
            out->later = NULL;
            return l;
        }
        if (!try_again(l, out))
            break;
    }
    rate_policy_label(&l->ticket, out);
    free(l);
    return NULL;
}

routes_later *routes_resume(routes_later *l, answer *out)
{
    *out = (answer){.route = l->row->name};
    l->finish(l->later, out);
    remember(l->row, &l->j, out);
    if (try_again(l, out))
        return go(l, out);
    rate_policy_label(&l->ticket, out);
    free(l);
    return NULL;
}

routes_later *routes_handle(struct MHD_Connection *conn, const char *method,
                            const char *url, const char *target,
                            const char *body, size_t body_len, answer *out)
{
    journey probe = {0};
    /* Before any route: a signed request is recorded with its raw target,
     * which must read as the path served. Like m_042 for m_42, another
     * spelling of a path names no resource. */
    if (!path_is_canonical(url, target)) {
        out->route = "unknown";
        answer_error(out, 404, "non_canonical_path",
                     "the path must be spelled plainly: no percent-escapes "
                     "and no . or .. segments");
        return NULL;
    }
    const route *row = find(method, url, &probe.params, out);
    if (row == NULL)
        return NULL;
    out->route = row->name;
    routes_later *l = calloc(1, sizeof *l);
    if (l == NULL)
        abort();
    *l =
        (routes_later){.row = row,
                       .attempt = 1,
                       .method = method,
                       .url = url,
                       .waiter = {suspend_connection, resume_connection, conn}};
    journey *j = &l->j;
    j->params = probe.params;
    j->call = (route_call){
        .conn = conn,
        .params = &j->params,
        .body = body,
        .body_len = body_len,
    };
    pthread_once(&costs_once, register_costs);
    if (charged_to_address(row, j) &&
        !rate_policy_take(conn, RATE_ANONYMOUS, NULL, row->name,
                          cost_class(row), &l->ticket, out)) {
        rate_policy_label(&l->ticket, out);
        free(l);
        return NULL;
    }
    signed_request(conn, method, target, body, body_len, &j->signed_as);
    return go(l, out);
}
