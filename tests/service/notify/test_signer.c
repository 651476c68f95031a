/* Units of the notification pipeline: the Standard Webhooks signer against
 * the shared vector, the template renderer's escaping, RFC 2047 phrases,
 * and the backoff schedule. */
#include <criterion/criterion.h>
#include <sodium.h>
#include <stdlib.h>
#include <string.h>

#include "notify/mail.h"
#include "notify/notify.h"
#include "notify/templates.h"
#include "notify/webhooks.h"

Test(signer, standard_webhooks_vector)
{
    cr_assert(sodium_init() >= 0);
    char sig[WEBHOOKS_SIGNATURE_MAX];
    const char *body = "{\"test\": 2432232314}";
    cr_assert(webhooks_sign("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
                            "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, body,
                            strlen(body), sig));
    cr_assert_str_eq(sig, "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
    /* Another timestamp or body, another signature. */
    cr_assert(webhooks_sign("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
                            "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265331, body,
                            strlen(body), sig));
    cr_assert_str_neq(sig, "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
    cr_assert_not(webhooks_sign("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "x", 1,
                                body, strlen(body), sig));
    cr_assert_not(webhooks_sign("whsec_!!!", "x", 1, body, strlen(body), sig));
}

Test(signer, generated_secrets)
{
    cr_assert(sodium_init() >= 0);
    char a[WEBHOOKS_SECRET_MAX], b[WEBHOOKS_SECRET_MAX];
    webhooks_new_secret(a);
    webhooks_new_secret(b);
    cr_assert_eq(strncmp(a, "whsec_", 6), 0);
    cr_assert_eq(strlen(a), 6 + 44);
    cr_assert_str_neq(a, b);
    char sig[WEBHOOKS_SIGNATURE_MAX];
    cr_assert(webhooks_sign(a, "ntf_1_2", 1700000000, "{}", 2, sig));
}

Test(templates, html_escapes_data_text_does_not)
{
    templates_var vars[] = {{"name", "<b>Zoë & \"co\"</b>"}, {"n", "3"}};
    char *html = templates_render_text("<p>{{name}} has {{ n }}{{missing}}</p>",
                                       vars, 2, true);
    cr_assert_str_eq(html, "<p>&lt;b&gt;Zoë &amp; &quot;co&quot;&lt;/b&gt; has 3</p>");
    char *text = templates_render_text("{{name}}: {{n}} {{", vars, 2, false);
    cr_assert_str_eq(text, "<b>Zoë & \"co\"</b>: 3 {{");
    free(html);
    free(text);
}

Test(mail, phrases_are_encoded_only_when_needed)
{
    cr_assert(sodium_init() >= 0);
    char *plain = mail_encode_phrase("Robert", true);
    cr_assert_str_eq(plain, "Robert");
    char *quoted = mail_encode_phrase("Smith, J.", true);
    cr_assert_str_eq(quoted, "\"Smith, J.\"");
    char *encoded = mail_encode_phrase("Zoë", true);
    cr_assert_str_eq(encoded, "=?UTF-8?B?Wm/Dqw==?=");
    /* A CR LF in a name can never start a header of its own. */
    char *hostile = mail_encode_phrase("x\r\nBcc: victim@example.org", true);
    cr_assert_null(strstr(hostile, "\r\nBcc"));
    cr_assert_eq(strncmp(hostile, "=?UTF-8?B?", 10), 0);
    /* Long names fold into several encoded words, each short enough. */
    char *longer = mail_encode_phrase(
        "Ååååååååååååååååååååååååååååååååååååååååååå", false);
    cr_assert_not_null(strstr(longer, "?=\r\n =?UTF-8?B?"));
    free(plain);
    free(quoted);
    free(encoded);
    free(hostile);
    free(longer);
}

Test(backoff, doubles_with_jitter_and_honours_retry_after)
{
    cr_assert(sodium_init() >= 0);
    notify_config c = {.backoff_ms = 1000, .backoff_max_ms = 8000};
    for (int i = 0; i < 50; i++) {
        long long first = notify_backoff_ms(&c, 1, 0);
        cr_assert(first >= 500 && first <= 1000, "%lld", first);
        long long third = notify_backoff_ms(&c, 3, 0);
        cr_assert(third >= 2000 && third <= 4000, "%lld", third);
        long long capped = notify_backoff_ms(&c, 30, 0);
        cr_assert(capped >= 4000 && capped <= 8000, "%lld", capped);
        cr_assert_eq(notify_backoff_ms(&c, 1, 60000), 60000);
    }
}

/* The guard judges the address a delivery connects to: an IPv6 address
 * that a NAT64 or 6to4 gateway turns into an internal IPv4 one is refused
 * like that IPv4 address, and a public one inside 6to4 is not. */
Test(guard, ipv6_forms_of_internal_ipv4_addresses_are_refused)
{
    static const struct {
        const char *url;
        bool blocked;
    } cases[] = {
        {"http://[64:ff9b::a9fe:a9fe]:9/", true}, /* 169.254.169.254 */
        {"http://[64:ff9b::7f00:1]:9/", true},    /* 127.0.0.1 */
        {"http://[64:ff9b:1::a00:1]:9/", true},   /* local-use NAT64 */
        {"http://[2002:a00:1::1]:9/", true},      /* 6to4 of 10.0.0.1 */
        {"http://[2002:c0a8:101::1]:9/", true},   /* 6to4 of 192.168.1.1 */
        {"http://[2002:808:808::1]:9/", false},   /* 6to4 of 8.8.8.8 */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        CURL *easy = curl_easy_init();
        cr_assert_not_null(easy);
        webhooks_guard guard = {0};
        cr_assert(webhooks_prepare(easy, cases[i].url, 15, &guard));
        curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS, 300L);
        curl_easy_perform(easy);
        curl_easy_cleanup(easy);
        cr_expect_eq(guard.blocked, cases[i].blocked, "%s: blocked %d",
                     cases[i].url, guard.blocked);
    }
}
