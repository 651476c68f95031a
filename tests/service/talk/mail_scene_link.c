/* The mail scene of the mail door suite, shared as it is. */
#include "../mailin/mail_scene.c"
