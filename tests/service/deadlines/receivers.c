/* receivers.c: the notification suite's loopback receivers (a Standard
 * Webhooks receiver verified with the official npm library), compiled into
 * this suite too: a suite is one folder, and the deadline tests check
 * reminders where they arrive. */
#include "../notify/receivers.c"
