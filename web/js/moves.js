// moves.js: the legal moves as controls, grouped by their form (the
// action's "type"): choose one, then confirm. Moves the engine lists only
// as a sample (complete: false) can also be typed in its notation.
import { h, field } from './dom.js';

let groupCount = 0;

// legal: {moves, texts, complete, forms}; play(move) posts {action} or
// {move: text} and returns a promise.
export function movesPanel(legal, play, { sealed = false, hand = [] } = {}) {
  const groups = new Map();
  (legal.moves ?? []).forEach((move, i) => {
    const form = move.type ?? 'move';
    if (!groups.has(form)) groups.set(form, []);
    groups.get(form).push({ move, text: legal.texts?.[i] ?? JSON.stringify(move) });
  });
  const panel = h('div', { class: 'moves' });
  for (const [form, entries] of groups) {
    const id = `g${++groupCount}`;
    const confirm = h('button', { type: 'submit', 'data-form': form }, sealed ? `Seal this choice` : `Play ${form}`);
    let pick;
    let chooser = null;
    if (entries.length === 1) {
      pick = () => entries[0];
      confirm.textContent = sealed ? `Seal: ${entries[0].text}` : entries[0].text;
      confirm.setAttribute('aria-label', `${sealed ? 'Seal the choice' : 'Play'}: ${entries[0].text}`);
    } else {
      chooser = h('div', { class: 'choices', role: 'radiogroup', 'aria-labelledby': `${id}-legend` },
        entries.map((e, i) => h('label', null,
          h('input', { type: 'radio', name: id, value: String(i), required: true }), e.text)));
      pick = () => {
        const checked = chooser.querySelector('input:checked');
        return checked ? entries[Number(checked.value)] : null;
      };
    }
    const form$ = h('form', { class: 'move-form', 'data-form': form },
      h('fieldset', null, h('legend', { id: `${id}-legend` }, form), chooser, confirm));
    form$.addEventListener('submit', (event) => {
      event.preventDefault();
      const chosen = pick();
      if (chosen) play({ action: chosen.move }, chosen.text);
    });
    panel.append(form$);
  }
  const composer = cardComposer(legal, hand, play, sealed);
  if (composer) panel.append(composer);
  // Any move in the engine's notation: for the forms the list only samples.
  const typed = h('input', { name: 'move', autocomplete: 'off', spellcheck: 'false' });
  const typedForm = h('form', { class: 'typed-move' },
    h('details', { open: legal.complete === false ? true : null },
      h('summary', null, 'Type a move'),
      field('Move, as the rules write it', typed, legal.forms?.length ? `Forms: ${legal.forms.join(' · ')}` : null),
      h('button', { type: 'submit', class: 'secondary' }, sealed ? 'Seal this move' : 'Play this move')));
  typedForm.addEventListener('submit', (event) => {
    event.preventDefault();
    if (typed.value.trim()) play({ move: typed.value.trim() }, typed.value.trim());
  });
  panel.append(typedForm);
  return panel;
}

// Choose cards, then confirm: for the forms that name only cards of the
// hand ("play CARD CARD CARD…", "discard CARD"), and only those whose kind
// of move is legal now, the hand as checkboxes and the form to play them
// with. The rules judge the choice; a refusal shows their sentence.
function cardComposer(legal, hand, play, sealed) {
  if (!hand.length) return null;
  const legalTypes = new Set((legal.moves ?? []).map((m) => m.type));
  const verbs = [];
  for (const form of legal.forms ?? []) {
    const m = form.match(/^([a-z]+) CARD\b(.*)$/);
    if (!m || /[A-Z]{2,}/.test(m[2].replaceAll('CARD', '')) || !legalTypes.has(m[1])) continue;
    if (!verbs.includes(m[1])) verbs.push(m[1]);
  }
  if (!verbs.length) return null;
  const id = `c${++groupCount}`;
  const verb = h('select', { id: `${id}-verb` }, verbs.map((v) => h('option', { value: v }, v)));
  const boxes = hand.map((card, i) => h('label', null, h('input', { type: 'checkbox', value: card, name: `${id}-card${i}` }), card));
  const err = h('p', { class: 'error', role: 'alert', hidden: true });
  const form = h('form', { class: 'card-composer' },
    h('fieldset', null, h('legend', null, 'Choose cards, then confirm'),
      h('div', { class: 'field' }, h('label', { for: `${id}-verb` }, 'Move'), verb),
      h('div', { class: 'choices', role: 'group', 'aria-label': 'Cards from your hand' }, boxes),
      h('button', { type: 'submit' }, sealed ? 'Seal these cards' : 'Play these cards'), err));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const cards = boxes.map((b) => b.querySelector('input')).filter((b) => b.checked).map((b) => b.value);
    if (!cards.length) {
      err.hidden = false;
      err.textContent = 'choose at least one card';
      return;
    }
    err.hidden = true;
    const text = `${verb.value} ${cards.join(' ')}`;
    play({ move: text }, text);
  });
  return form;
}
