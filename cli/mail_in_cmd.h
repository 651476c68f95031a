/* mail_in_cmd.h: `pbem mail-in`, the pipe from a mail server (a Postfix or
 * Exim alias, procmail, fetchmail's mda) into the play-by-email door. */
#ifndef CLI_MAIL_IN_CMD_H
#define CLI_MAIL_IN_CMD_H

/* pbem mail-in [--url URL] --key FILE < message
 * Reads one message on standard input and hands it to pbemd (POST
 * /v1/mail/inbound, signed with keyid "mail"). The exit status follows
 * sysexits.h so the mail server does the right thing:
 *   0   handled (refused moves included: the player gets an answer)
 *   65  EX_DATAERR: not a mail, or larger than 1 MiB (the server bounces)
 *   75  EX_TEMPFAIL: pbemd or its database is down, or the key is refused
 *       (the server keeps the message and tries again later)
 *   64  EX_USAGE: wrong arguments */
int mail_in_cmd_main(int argc, char **argv);

#endif
