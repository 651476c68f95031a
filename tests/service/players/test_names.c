/* Names that show what they are: a name with a character that is not on
 * the screen, or of white space alone, is refused at registration with a
 * sentence that says the rule; a name is kept in one form (NFC); and in
 * one match no two players' names may be taken for one another (UTS #39,
 * by ICU), whether the second player joins or is invited. */
#include <criterion/criterion.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/names.h"
#include "players_scene.h"

/* POST /v1/players with name (raw JSON text of a string) and a new key. */
static e2e_response try_register(const e2e_server *s, const char *name_json,
                                 e2e_player *p)
{
    scene_new_key(p);
    client_key_id(p->key.public_key, p->key.key_id);
    char key_b64[64], body[400];
    sodium_bin2base64(key_b64, sizeof key_b64, p->key.public_key, 32,
                      sodium_base64_VARIANT_ORIGINAL);
    snprintf(body, sizeof body, "{\"name\":%s,\"public_key\":\"%s\"}",
             name_json, key_b64);
    return e2e_call(s, "POST", "/v1/players", body, p);
}

static void expect_refused(const e2e_server *s, const char *name_json,
                           const char *says)
{
    e2e_player p;
    e2e_response r = try_register(s, name_json, &p);
    cr_expect_eq(r.status, 400, "%s: %ld %s", name_json, r.status, r.body);
    cr_expect_str_eq(scene_member(json_object_get(r.json, "error"), "code"),
                     "bad_name", "%s", r.body);
    const char *message =
        scene_member(json_object_get(r.json, "error"), "message");
    cr_expect(strstr(message, says) != NULL, "%s: \"%s\" does not say \"%s\"",
              name_json, message, says);
    cr_expect(strstr(message, "1 to 40 characters") != NULL,
              "%s: \"%s\" does not say how long a name may be", name_json,
              message);
    e2e_response_free(&r);
}

Test(names, invisible_characters_and_white_space_alone_are_refused,
     .timeout = 60)
{
    e2e_server s;
    scene_start(&s, NULL);
    expect_refused(&s, "\"An\\u200bn\"", "invisible character");
    expect_refused(&s, "\"\\ufeffAnn\"", "invisible character");
    expect_refused(&s, "\"Ann\\u2060\"", "invisible character");
    expect_refused(&s, "\"\\u202eAnn\"", "invisible character");
    expect_refused(&s, "\"   \"", "only white space");
    expect_refused(&s, "\"\\u3000\\t \"", "control character");
    expect_refused(&s, "\"\\u2003\\u00a0\"", "only white space");
    expect_refused(&s, "\"\"", "empty");
    expect_refused(&s, "\"ann@example.org\"", "mail address");
    expect_refused(&s, "\"Ann (ann.b@mail.example.org)\"", "mail address");
    /* 41 letters are one too many; 40 are fine. */
    expect_refused(&s, "\"abcdefghijklmnopqrstuvwxyzabcdefghijklmno\"",
                   "longer");
    e2e_player p;
    e2e_response r =
        try_register(&s, "\"abcdefghijklmnopqrstuvwxyzabcdefghijklmn\"", &p);
    cr_expect_eq(r.status, 201, "%ld %s", r.status, r.body);
    e2e_response_free(&r);
    e2e_stop(&s);
}

Test(names, a_name_is_kept_in_one_form, .timeout = 60)
{
    e2e_server s;
    scene_start(&s, NULL);
    e2e_player p;
    /* "Zoë" with a combining diaeresis, and spaces around it. */
    e2e_response r = try_register(&s, "\"  Zoe\\u0308 \"", &p);
    cr_assert_eq(r.status, 201, "%ld %s", r.status, r.body);
    cr_expect_str_eq(scene_member(r.json, "name"), "Zo\xc3\xab");
    e2e_response_free(&r);
    r = e2e_call(&s, "GET", "/v1/players/me", NULL, &p);
    cr_assert_eq(r.status, 200, "%ld %s", r.status, r.body);
    cr_expect_str_eq(scene_member(r.json, "name"), "Zo\xc3\xab");
    e2e_response_free(&r);
    e2e_stop(&s);
}

/* Ann opens a two-seat match (its ref into match). */
static void open_match(const e2e_server *s, const e2e_player *ann,
                       char match[32])
{
    e2e_response r = e2e_call(s, "POST", "/v1/matches",
                              "{\"game\":\"artifact_stack\",\"seats\":2}", ann);
    cr_assert_eq(r.status, 201, "%ld %s", r.status, r.body);
    snprintf(match, 32, "%s",
             scene_member(json_object_get(r.json, "match"), "id"));
    e2e_response_free(&r);
}

static e2e_response join(const e2e_server *s, const char *match,
                         const e2e_player *p)
{
    char path[80];
    snprintf(path, sizeof path, "/v1/matches/%s/join", match);
    return e2e_call(s, "POST", path, "{}", p);
}

Test(names, a_look_alike_of_a_seated_name_cannot_join, .timeout = 60)
{
    e2e_server s;
    scene_start(&s, NULL);
    e2e_player ann, fake, twin, bob;
    scene_register(&s, "Ann", NULL, &ann);
    /* A Cyrillic А, then the same name again. */
    scene_register(&s, "\xd0\x90nn", NULL, &fake);
    scene_register(&s, "Ann", NULL, &twin);
    scene_register(&s, "Bob", NULL, &bob);
    char match[32];
    open_match(&s, &ann, match);
    const e2e_player *alike[] = {&fake, &twin};
    for (int i = 0; i < 2; i++) {
        e2e_response r = join(&s, match, alike[i]);
        cr_expect_eq(r.status, 422, "%ld %s", r.status, r.body);
        cr_expect_str_eq(scene_member(json_object_get(r.json, "error"), "code"),
                         "confusable_name");
        cr_expect(
            strstr(scene_member(json_object_get(r.json, "error"), "message"),
                   "could be taken for \"Ann\", the name of seat 0's "
                   "player") != NULL,
            "%s", r.body);
        e2e_response_free(&r);
    }
    e2e_response r = join(&s, match, &bob);
    cr_expect_eq(r.status, 200, "Bob may join: %ld %s", r.status, r.body);
    e2e_response_free(&r);
    e2e_stop(&s);
}

Test(names, a_look_alike_of_a_seated_name_cannot_be_invited, .timeout = 60)
{
    e2e_server s;
    scene_start(&s, NULL);
    e2e_player ann;
    scene_register(&s, "Ann", NULL, &ann);
    char match[32], path[80];
    open_match(&s, &ann, match);
    snprintf(path, sizeof path, "/v1/matches/%s/invitations", match);
    e2e_response r = e2e_call(
        &s, "POST", path,
        "{\"email\":\"zoe@example.org\",\"name\":\"\\u0391nn\"}", &ann);
    cr_expect_eq(r.status, 422, "%ld %s", r.status, r.body);
    cr_expect_str_eq(scene_member(json_object_get(r.json, "error"), "code"),
                     "confusable_name");
    e2e_response_free(&r);
    r = e2e_call(&s, "POST", path,
                 "{\"email\":\"zoe@example.org\",\"name\":\"An\\u200bn\"}",
                 &ann);
    cr_expect_eq(r.status, 400, "%ld %s", r.status, r.body);
    cr_expect_str_eq(scene_member(json_object_get(r.json, "error"), "code"),
                     "bad_name");
    e2e_response_free(&r);
    /* The invitee's address as their name would publish it. */
    r = e2e_call(&s, "POST", path,
                 "{\"email\":\"zoe@example.org\","
                 "\"name\":\"zoe@example.org\"}",
                 &ann);
    cr_expect_eq(r.status, 400, "%ld %s", r.status, r.body);
    cr_expect(strstr(r.body, "mail address") != NULL, "%s", r.body);
    e2e_response_free(&r);
    e2e_stop(&s);
}

/* The skeletons are ICU's, not a table of ours. */
Test(names, confusables_are_unicodes)
{
    cr_expect(names_confusable("Ann", "Ann"));
    cr_expect(names_confusable("Ann", "\xd0\x90nn")); /* Cyrillic А */
    cr_expect(names_confusable("Ann", "\xce\x91nn")); /* Greek Α */
    cr_expect(names_confusable("rnary", "mary"));     /* rn and m */
    cr_expect(names_confusable("Pau1", "Paul"));      /* 1 and l */
    cr_expect_not(names_confusable("Ann", "Anne"));
    cr_expect_not(names_confusable("Ann", "Bob"));
}
