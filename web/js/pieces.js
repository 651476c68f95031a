// pieces.js: which pieces of the table (cards, dice, places) a legal move
// names, so a player can choose a move by touching them. A piece is a key
// such as "card:blue2", "die:17", "slot:0.1.0", "place:castle"; the games'
// drawings mark the elements that stand for one with data-piece (common.js).

// The pieces a move (a legal() entry) names, as a list of keys, repeated
// when a move names a card twice ("play blue2 blue2 crown"). Fields that
// are not pieces (a thief's sack, "first quest"'s choice) are options of
// the action: moves differing only there are offered side by side.
export function movePieces(move) {
  const out = [];
  for (const [field, value] of Object.entries(move ?? {})) {
    const each = (prefix) => [].concat(value).forEach((v) => out.push(`${prefix}:${v}`));
    if (field === 'cards' && typeof move.stack === 'string') {
      // Artifact Stack's "flip china 5 6 7": the cards china5, china6, china7.
      [].concat(value).forEach((n) => out.push(`card:${move.stack}${n}`));
    } else if (field === 'card' || field === 'cards') each('card');
    // Another Man's Treasure's pattern: the cards of its melds, and the
    // cards that swap wilds out of the melds on the table.
    else if (field === 'melds' || field === 'swaps') [].concat(value).forEach((m) => [].concat(m?.cards ?? m?.card ?? []).forEach((c) => out.push(`card:${c}`)));
    else if (field === 'die' || field === 'other' || field === 'dice') each('die');
    else if (field === 'at') each('slot');
    else if (field === 'location') each('place');
    else if (field === 'collection') each('collection');
    else if (field === 'quest') each('quest');
    else if (field === 'assistant') each('assistant');
  }
  return out;
}

// How many times each key occurs in a list of keys.
export function tally(keys) {
  const counts = new Map();
  for (const k of keys) counts.set(k, (counts.get(k) ?? 0) + 1);
  return counts;
}

// Whether the multiset inner fits inside outer (both tallies).
export function within(inner, outer) {
  for (const [k, n] of inner) if ((outer.get(k) ?? 0) < n) return false;
  return true;
}

export function sameTally(a, b) {
  return a.size === b.size && within(a, b);
}

// A piece key as a player reads it: "card:yellow_wild" → "yellow wild".
export function pieceName(key) {
  const [kind, ...rest] = key.split(':');
  const name = rest.join(':').replaceAll('_', ' ');
  if (kind === 'die') return `die ${name}`;
  if (kind === 'slot') return `temple place ${name}`;
  if (kind === 'collection') return `collection ${name}`;
  if (kind === 'quest') return `quest ${name}`;
  return name;
}
