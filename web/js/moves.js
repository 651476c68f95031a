// moves.js: choosing a move by touching the game. The player touches
// cards, dice or places on the table (the game's drawing marks them with
// data-piece), the panel offers only the legal moves those pieces make,
// and one button confirms the chosen one. The same rule for every move:
// choose, then confirm; undo or clear before confirming. A move in the
// engine's notation can also be typed.
import { h, field } from './dom.js';
import { movePieces, pieceName, sameTally, tally, within } from './pieces.js';

// At most this many moves are listed at once: more means the choice is
// not made yet, and touching another piece narrows it.
const MAX_LISTED = 12;

// A fresh choice: what match.js keeps across redraws so that a live update
// never loses a half-made move.
export function newChoice() {
  return { selection: [], chosen: null, typed: '', typedOpen: false };
}

// The element that stands for a piece, as a toggle button. Its name
// starts with the words it shows (a speech-input user says what they
// see), then what it is.
function pieceButton(original, key, label) {
  const shown = [...original.childNodes].filter((n) => !n.classList?.contains('sym'))
    .map((n) => n.textContent.trim()).filter(Boolean).join(' ');
  const name = !shown || label.toLowerCase().includes(shown.toLowerCase()) ? label : `${shown}: ${label}`;
  const b = h('button', { type: 'button', class: `${original.className} piece`, 'data-piece': key,
                          'aria-pressed': 'false', 'aria-label': name });
  b.append(...original.childNodes);
  return b;
}

// legal: {moves, texts, complete, forms}; play(body, text) posts {action}
// or {move} and returns a promise. board: the element the game drew the
// table in; its [data-piece] elements become buttons. choice: newChoice(),
// kept by the caller; it is read and updated here.
export function movesPanel(legal, play, { sealed = false, board = null, choice = newChoice() } = {}) {
  const entries = (legal.moves ?? []).map((move, i) => {
    const keys = movePieces(move);
    return { move, text: legal.texts?.[i] ?? JSON.stringify(move), pieces: tally(keys), size: keys.length };
  });
  const known = new Set(entries.flatMap((e) => [...e.pieces.keys()]));

  // The table's pieces that some legal move names become toggles; the
  // pieces the drawing does not show (an action card in Adel
  // Verplichtet, which the view does not list) get a button here.
  const buttons = [];
  for (const el of board ? [...board.querySelectorAll('[data-piece]')] : []) {
    const key = el.dataset.piece;
    if (!known.has(key)) continue;
    const b = pieceButton(el, key, el.getAttribute('aria-label') ?? el.dataset.label ?? pieceName(key));
    el.replaceWith(b);
    buttons.push(b);
  }
  const onTable = new Set(buttons.map((b) => b.dataset.piece));
  const extras = [...known].filter((k) => !onTable.has(k)).sort()
    .map((k) => h('button', { type: 'button', class: 'piece chip', 'data-piece': k, 'aria-pressed': 'false' }, pieceName(k)));
  buttons.push(...extras);
  const nthOf = (b) => buttons.filter((x) => x.dataset.piece === b.dataset.piece).indexOf(b);
  const buttonAt = ({ key, nth }) => buttons.filter((x) => x.dataset.piece === key)[nth] ?? null;

  // A selection kept from before an update: pieces no longer on the
  // table are dropped, and the page says so.
  const notes = [];
  const kept = [];
  for (const s of choice.selection) {
    const b = buttonAt(s) ?? buttons.find((x) => x.dataset.piece === s.key && !kept.some((k) => buttonAt(k) === x));
    if (b) kept.push({ key: s.key, nth: nthOf(b) });
    else notes.push(`${pieceName(s.key)} is no longer yours to use: the match moved on.`);
  }
  choice.selection = kept;
  if (choice.chosen && !entries.some((e) => e.text === choice.chosen)) {
    notes.push(`“${choice.chosen}” is no longer possible: the match moved on.`);
    choice.chosen = null;
  }

  const chosenLine = h('p', { id: 'touch-chosen', class: 'chosen' });
  const problem = h('p', { id: 'touch-problem', class: 'error', role: 'status', hidden: true });
  const undo = h('button', { type: 'button', id: 'touch-undo', class: 'secondary' }, 'Undo last');
  const clear = h('button', { type: 'button', id: 'touch-clear', class: 'secondary' }, 'Clear');
  const legend = h('legend', { id: 'touch-legend' });
  const options = h('div', { class: 'choices', role: 'radiogroup', 'aria-labelledby': 'touch-legend' });
  const more = h('p', { class: 'hint', id: 'touch-more' });
  const confirm = h('button', { type: 'submit', id: 'touch-confirm' });
  const actions = h('fieldset', null, legend, options);
  let listed = [];

  function render(message) {
    const S = tally(choice.selection.map((s) => s.key));
    const candidates = entries.filter((e) => within(S, e.pieces));
    listed = candidates.filter((e) => sameTally(e.pieces, S));
    if (listed.length === 1 && choice.selection.length) choice.chosen = listed[0].text;
    if (choice.chosen && !listed.some((e) => e.text === choice.chosen)) choice.chosen = null;
    for (const b of buttons) {
      const mine = choice.selection.some((s) => buttonAt(s) === b);
      b.setAttribute('aria-pressed', String(mine));
      const grown = new Map(S).set(b.dataset.piece, (S.get(b.dataset.piece) ?? 0) + 1);
      const usable = mine || candidates.some((e) => within(grown, e.pieces));
      if (usable) b.removeAttribute('aria-disabled');
      else b.setAttribute('aria-disabled', 'true');
    }
    chosenLine.textContent = choice.selection.length
      ? `Chosen: ${choice.selection.map((s) => pieceName(s.key)).join(', ')}.`
      : known.size ? 'Nothing chosen yet: touch a card, die or place on the table, or pick a move below.' : 'Pick a move below.';
    undo.disabled = !choice.selection.length;
    clear.disabled = !choice.selection.length && !choice.chosen;
    const said = [...notes, message].filter(Boolean);
    if (choice.selection.length && !candidates.length) said.push(`No legal move uses ${choice.selection.map((s) => pieceName(s.key)).join(' with ')}: undo or clear.`);
    problem.hidden = !said.length;
    problem.textContent = said.join(' ');
    legend.textContent = choice.selection.length ? 'What to do with them' : 'Moves that need no piece';
    options.replaceChildren(...listed.slice(0, MAX_LISTED).map((e, i) => h('label', null,
      h('input', { type: 'radio', name: 'touch-action', value: String(i), 'data-text': e.text,
                   checked: e.text === choice.chosen, onchange: () => { choice.chosen = e.text; render(); } }),
      e.text)));
    const wider = candidates.length - listed.length;
    more.textContent = [
      listed.length > MAX_LISTED ? `${listed.length - MAX_LISTED} more moves like these: touch a piece to narrow them.` : '',
      wider && choice.selection.length ? `${wider} more move${wider === 1 ? ' uses' : 's use'} these and further pieces (such as “${candidates.find((e) => e.size > choice.selection.length)?.text}”).` : '',
      !listed.length && !choice.selection.length ? 'Every move here needs a piece: touch one on the table.' : '',
    ].filter(Boolean).join(' ');
    more.hidden = !more.textContent;
    actions.hidden = !listed.length;
    confirm.disabled = !choice.chosen;
    confirm.textContent = choice.chosen ? `${sealed ? 'Seal' : 'Play'}: ${choice.chosen}` : sealed ? 'Seal the chosen move' : 'Play the chosen move';
  }

  for (const b of buttons) {
    b.addEventListener('click', () => {
      const i = choice.selection.findIndex((s) => buttonAt(s) === b);
      notes.length = 0;
      if (i >= 0) choice.selection.splice(i, 1);
      else if (b.getAttribute('aria-disabled') === 'true') return render(`${pieceName(b.dataset.piece)} makes no legal move with what is chosen.`);
      else choice.selection.push({ key: b.dataset.piece, nth: nthOf(b) });
      choice.chosen = null;
      render();
    });
  }
  undo.addEventListener('click', () => {
    notes.length = 0;
    choice.selection.pop();
    choice.chosen = null;
    render();
  });
  clear.addEventListener('click', () => {
    notes.length = 0;
    choice.selection = [];
    choice.chosen = null;
    render();
  });
  const form = h('form', { class: 'touch-move' },
    extras.length ? h('div', null, h('p', { class: 'hint', id: 'touch-extras-title' }, 'Also yours to choose:'),
      h('div', { class: 'row', role: 'group', 'aria-labelledby': 'touch-extras-title' }, extras)) : null,
    h('div', { class: 'row' }, chosenLine, undo, clear), problem,
    actions, more, confirm);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const e = listed.find((x) => x.text === choice.chosen);
    if (e) play({ action: e.move }, e.text);
  });
  render();

  // Any move in the engine's notation: for the forms the list only samples.
  const typed = h('input', { name: 'move', id: 'typed-move', autocomplete: 'off', spellcheck: 'false', value: choice.typed });
  typed.addEventListener('input', () => { choice.typed = typed.value; });
  const details = h('details', { open: legal.complete === false || choice.typedOpen ? true : null },
    h('summary', null, 'Type a move'),
    field('Move, as the rules write it', typed, legal.forms?.length ? `Forms: ${legal.forms.join(' · ')}` : null),
    h('button', { type: 'submit', class: 'secondary' }, sealed ? 'Seal this move' : 'Play this move'));
  details.addEventListener('toggle', () => { choice.typedOpen = details.open; });
  const typedForm = h('form', { class: 'typed-move' }, details);
  typedForm.addEventListener('submit', (event) => {
    event.preventDefault();
    if (typed.value.trim()) play({ move: typed.value.trim() }, typed.value.trim());
  });
  return h('div', { class: 'moves' }, h('p', { class: 'hint' }, sealed
    ? 'Touch what you choose, then seal it: nobody sees it until everyone has chosen.'
    : 'Touch the cards, dice or places you want to use, then confirm. Nothing is played until you confirm.'), form, typedForm);
}
