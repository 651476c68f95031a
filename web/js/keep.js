// keep.js: what a person was doing on a part of the page that is about to
// be drawn again (a live update): where the focus was, which details were
// open, what was typed and how far the page was scrolled; restore() puts
// it back on the new elements. Elements are found again by id, by the
// piece they stand for (data-piece and its place among equals), by a
// radio's move text, or by a details' data-keep name.

function describe(el) {
  if (!el || el === document.body) return null;
  if (el.dataset?.piece) {
    const same = [...document.querySelectorAll(`[data-piece="${CSS.escape(el.dataset.piece)}"]`)];
    return { piece: el.dataset.piece, nth: same.indexOf(el) };
  }
  if (el.dataset?.text && el.type === 'radio') return { radio: el.dataset.text };
  if (el.id) return { id: el.id };
  return null;
}

function find(d) {
  if (!d) return null;
  if (d.piece) return document.querySelectorAll(`[data-piece="${CSS.escape(d.piece)}"]`)[d.nth] ?? null;
  if (d.radio) return [...document.querySelectorAll('input[type=radio][data-text]')].find((r) => r.dataset.text === d.radio) ?? null;
  return document.getElementById(d.id);
}

// What to keep of root's state before it is redrawn.
export function keep(root) {
  const active = document.activeElement;
  const hadFocus = root.contains(active) && active !== root;
  return {
    hadFocus,
    focus: hadFocus ? describe(active) : null,
    open: [...root.querySelectorAll('details[data-keep]')].filter((d) => d.open).map((d) => d.dataset.keep),
    scrollX: window.scrollX,
    scrollY: window.scrollY,
  };
}

// Puts kept back on root's new elements.
export function restore(root, kept) {
  for (const name of kept.open) {
    const d = root.querySelector(`details[data-keep="${CSS.escape(name)}"]`);
    if (d) d.open = true;
  }
  const el = find(kept.focus);
  if (el && root.contains(el)) el.focus({ preventScroll: true });
  window.scrollTo(kept.scrollX, kept.scrollY);
}
