/* mail_table.c: the people who play by mail (tests/service/mailin), built
 * into this suite too, so that what a match played by mail publishes can
 * be read here. */
#include "../mailin/mail_people.c"
#include "../mailin/mail_scene.c"
