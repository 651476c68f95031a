/* imap_order.c: see imap_order.h. */
#include "mailin/imap_order.h"

#include <ctype.h>
#include <stdlib.h>

#include "mailin/mail_message.h"

uint64_t imap_order_key(const char *raw, size_t length)
{
    char *sender = mail_message_sender(raw, length);
    if (sender == NULL)
        return 0;
    /* FNV-1a over the address, all of it folded to lower case: two forms
     * of one address wait for each other, which costs nothing but
     * parallelism, where two keys for one player could reorder its
     * mails. */
    uint64_t hash = 14695981039346656037ULL;
    for (const unsigned char *p = (const unsigned char *)sender; *p; p++)
        hash = (hash ^ (uint64_t)tolower(*p)) * 1099511628211ULL;
    free(sender);
    return hash;
}
