/* The pbem runner of the players suite, shared as it is. */
#include "../../cli/players/players_run.c"
