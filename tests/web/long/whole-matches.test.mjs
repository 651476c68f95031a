// whole-matches.test.mjs: the two longest games played to the end in a
// real browser by touching the table only, as browser.test.mjs plays the
// three shorter ones: Quarriors (the base game, whose glory goal is 20 for
// two players) and Another Man's Treasure (Classic, five rounds, its
// default). Two profiles, no typed move; each match ends with the page
// saying who won, the final scores, axe-core clean at 1280 and 390 px and
// the screenshots mid-match and at the end in build/screenshots/.
//
// A match here is hundreds of moves, so make soak runs this file, not make
// test (which runs tests/web/*.test.mjs). Run alone by
//   scripts/test.sh build tests/web/long/whole-matches.test.mjs
// Prints one line per check and "[browser] Tested: N | Passing: P | Failing: F".
import { startServer } from '../server.mjs';
import { launch, profile, runner } from '../harness.mjs';
import { table } from '../table.mjs';

const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844, isMobile: true, hasTouch: true };

const t = runner();
// However a browser or a server hangs, make soak goes on after 40 minutes
// (a loaded machine plays a move a second; the two matches are about a
// thousand moves), with one more failure saying why.
setTimeout(() => {
  console.log('[FAIL] the whole matches did not finish within 40 minutes');
  t.summary(1);
  process.exit(1);
}, 2400000).unref();
const server = await startServer();
const browser = await launch();
const alice = await profile(browser, server.origin, DESKTOP);
const bob = await profile(browser, server.origin, PHONE);
const both = [alice, bob];
const { registerByMouse, startMatch, joinThroughLink, allAt, playUntil, seqOf, statusOf, api, saysWhoWon, shot } = table(server, both);

// How each seat picks among the moves its page offers: the way a player in
// a hurry plays, so that a match ends in a few hundred moves (random
// choices take thousands in Another Man's Treasure). Moves are still made
// by touching their pieces; this only says which.
const rank = (legal, score) => {
  let best = 0;
  legal.moves.forEach((m, i) => {
    if (score(m) > score(legal.moves[best])) best = i;
  });
  return best;
};

// Quarriors: summon what was rolled, attack with it, capture the Wild
// worth the most glory, then end the turn.
function quarriors(legal, view) {
  const wilds = new Map((view?.wilds ?? []).map((w) => [w.card, w]));
  return rank(legal, (m) => {
    if (m.type === 'summon') return 500;
    if (m.type === 'attack') return 400;
    if (m.type === 'capture') return 300 + 10 * (wilds.get(m.card)?.glory ?? 0) + (wilds.get(m.card)?.cost ?? 0);
    if (m.type === 'end') return 100;
    return 200;
  });
}

// Another Man's Treasure: lay a pattern when one is offered, add to it,
// draw, pass on a claim, and discard the card that pairs with the fewest
// others in the hand (never a wild).
function treasure(legal, view) {
  const hand = (view?.hand ?? []).map((c) => (typeof c === 'string' ? c : c.card));
  const number = (c) => (c.startsWith('W') ? null : c.slice(1).replace(/s$/, ''));
  const same = (c) => hand.filter((x) => number(x) === number(c)).length;
  return rank(legal, (m) => {
    if (m.type === 'pattern') return 900 + m.melds.reduce((n, x) => n + x.cards.length, 0);
    if (m.type === 'add') return 800;
    if (m.type === 'draw') return 700;
    if (m.type === 'pass') return 600;
    if (m.type === 'discard') return m.card.startsWith('W') ? 0 : 500 - 20 * same(m.card) + Number(number(m.card));
    return 1;
  });
}

await t.test('two browsers register', async () => {
  await registerByMouse(alice, 'Alice');
  await registerByMouse(bob, 'Bob');
});

// In Another Man's Treasure's claim window the player to draw and the
// others may all move: the one to draw does, which closes the window (the
// others wanted no claim, so a pass from each would change nothing).
const drawer = (w) => w.page.$('#moves input[name=touch-action][data-text="draw"]').then((e) => e !== null);

for (const [game, title, options, choose, limit, prefer] of [
  ['quarriors', 'Quarriors', { quests: false }, quarriors, 400],
  ['another_mans_treasure', "Another Man's Treasure", {}, treasure, 1500, drawer],
]) {
  await t.test(`Alice and Bob play a whole ${title} match by touching the table only, and the page says who won`, async () => {
    const began = Date.now();
    const link = await startMatch(alice, game, 2, options);
    const id = link.split('/').pop();
    await joinThroughLink(bob, link);
    await alice.page.waitForFunction(() => document.getElementById('main').dataset.status === 'active');
    await allAt((await api(`/v1/matches/${id}`)).head.seq);
    let mid = false;
    const moves = await playUntil(async () => {
      if (!mid && (await seqOf(alice)) > 60) {
        mid = true;
        await shot(alice, `${game}_mid`);
        await shot(bob, `${game}_mid_phone`);
      }
      return (await statusOf(alice)) === 'finished';
    }, limit, choose, prefer);
    await saysWhoWon(id, game);
    const seconds = (Date.now() - began) / 1000;
    console.log(`        (${moves} moves touched in ${seconds.toFixed(0)} s, ${(seconds * 1000 / moves).toFixed(0)} ms a move)`);
  });
}

await browser.close();
await server.stop();
process.exit(t.summary() === 0 ? 0 : 1);
