/* bytea text, the '\x<hex>' form libpq carries bytea columns and
 * parameters in: written one way, read back, and anything else refused. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "store/bytea.h"

Test(bytea, written_as_backslash_x_and_lower_case_hex)
{
    const uint8_t bytes[] = {0x00, 0xab, 0xff};
    char text[BYTEA_TEXT_SIZE(sizeof bytes)];
    bytea_write(bytes, sizeof bytes, text);
    cr_expect_str_eq(text, "\\x00abff");
}

Test(bytea, reads_back_what_it_wrote)
{
    uint8_t bytes[32], back[32];
    for (size_t i = 0; i < sizeof bytes; i++)
        bytes[i] = (uint8_t)(7 * i + 3);
    char text[BYTEA_TEXT_SIZE(sizeof bytes)];
    bytea_write(bytes, sizeof bytes, text);
    cr_assert(bytea_read_exact(text, back, sizeof back));
    cr_expect_arr_eq(back, bytes, sizeof bytes);
}

Test(bytea, reads_up_to_its_capacity_and_says_how_much)
{
    uint8_t out[8];
    size_t len = 99;
    cr_assert(bytea_read("\\x0102ff", out, sizeof out, &len));
    cr_expect_eq(len, 3);
    cr_expect_eq(out[2], 0xff);
    cr_expect(!bytea_read("\\x000102030405060708", out, sizeof out, &len),
              "nine bytes do not fit in eight");
}

Test(bytea, refuses_what_is_not_bytea_text)
{
    uint8_t out[2];
    size_t len = 0;
    cr_expect(!bytea_read("0102", out, sizeof out, &len), "no \\x");
    cr_expect(!bytea_read("\\x01zz", out, sizeof out, &len), "not hex");
    cr_expect(!bytea_read("\\x012", out, sizeof out, &len), "half a byte");
    cr_expect(!bytea_read(NULL, out, sizeof out, &len));
}

Test(bytea, exact_wants_exactly_that_many_bytes)
{
    uint8_t out[4];
    cr_expect(bytea_read_exact("\\x01020304", out, 4));
    cr_expect(!bytea_read_exact("\\x010203", out, 4), "one byte short");
    cr_expect(!bytea_read_exact("\\x0102030405", out, 4), "one too many");
}

Test(bytea, a_copy_of_any_length_the_caller_frees)
{
    size_t len = 99;
    uint8_t *copy = bytea_read_copy("\\xdeadbeef", &len);
    cr_assert_not_null(copy);
    cr_expect_eq(len, 4);
    cr_expect_eq(copy[0], 0xde);
    cr_expect_eq(copy[3], 0xef);
    free(copy);
    copy = bytea_read_copy("\\x", &len);
    cr_assert_not_null(copy, "an empty value is a buffer too");
    cr_expect_eq(len, 0);
    free(copy);
    cr_expect_null(bytea_read_copy("deadbeef", &len));
    cr_expect_null(bytea_read_copy("\\xdeadbeeg", &len));
}
