// index.js: one drawing module per game, by the engine's name (the
// `game` of a match, as GET /v1/games lists it).
//
// What each game's module exports, and what the pages use it for:
//
//   title: string. The game's name as people read it, for headings and the
//     list of one's matches (start.js, match.js, replay.js). The server's
//     GET /v1/games has its own title for the new-match form.
//   summary: string. One or two sentences on how the game plays, shown in
//     the list of games on the start page.
//   draw(view, ctx): the board. view is the engine's JSON view as the API
//     gives it: a seat's own view (GET …/view) when the reader holds a seat,
//     else the public view of GET /v1/matches/{id}, or in a replay each
//     seat's view after event N. Read its fields with a fallback (`?? ''`)
//     as the modules do, so a view missing one still draws. ctx is
//     {seat, seats, replay?}: seat is the reader's seat number, or null
//     for an onlooker (in a replay, the seat whose view this is); seats is
//     the match's list of {seat, name, …}; replay is true when every seat's
//     view is drawn side by side, so nobody is "you" (common.js seatName).
//     Returns an element or an array of elements (anything dom.js h()
//     accepts as children), built with h() and never from HTML strings,
//     since names and views come from the server and other players.
//     match.js puts it in a section with the class `game-<name>`; a game
//     without a module is shown as the view's JSON.
//     The pieces a legal move can name (pieces.js: "card:blue2",
//     "die:17", "slot:0.1.0", "place:castle") are drawn with their key
//     (common.js card/die `piece`, place()): moves.js turns those into
//     buttons to touch; a piece the drawing lacks gets a button in the
//     move panel, so every legal move can be made by touching.
//   hand(view) (optional): the seat's cards by the names moves use (for
//     example "R3"), from its own view.
//
// Other exports (the cards' drawings) are the module's own helpers;
// common.js holds what the games share.
import * as antiquity_quest from './antiquity_quest.js';
import * as another_mans_treasure from './another_mans_treasure.js';
import * as adel_verplichtet from './adel_verplichtet.js';
import * as quarriors from './quarriors.js';
import * as artifact_stack from './artifact_stack.js';

const modules = { antiquity_quest, another_mans_treasure, adel_verplichtet, quarriors, artifact_stack };

export function gameModule(name) {
  return modules[name] ?? null;
}
