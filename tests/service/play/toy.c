/* toy.c: the rules harness's toy engine (tests/rules/toy), whose moves
 * draw a card only the drawer may know, for the doors' secrecy tests. It
 * is not in the service's registry: tests hand it to the use cases. */
#include "../../rules/toy/toy_engine.c"
