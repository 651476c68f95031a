// dom.js: elements built from data, never from HTML strings, so nothing a
// server or another player sends can become markup or script.

// h('button', {class: 'x', onclick: f}, 'text', child…): an element.
// Attributes starting with "on" become listeners; null/false are skipped.
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') {
      el.addEventListener(name.slice(2), value);
    } else if (name === 'class') {
      el.className = value;
    } else if (value === true) {
      el.setAttribute(name, '');
    } else {
      el.setAttribute(name, String(value));
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else if (child instanceof Node) el.appendChild(child);
    else el.appendChild(document.createTextNode(String(child)));
  }
}

// Replaces everything inside el by children.
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

// The toast stands clear of what a player reads or touches: above the
// move panel while that panel is held at the bottom of the screen, and
// otherwise at the screen's bottom, where the page keeps an empty strip
// below its last line (style.css: .bottom) for it.
function placeToast() {
  const region = document.getElementById('status');
  const bar = document.querySelector('.moves-bar');
  let lift = 0;
  if (region && bar) {
    const r = bar.getBoundingClientRect();
    if (r.height > 0 && r.top < window.innerHeight && r.bottom >= window.innerHeight - 2) lift = window.innerHeight - r.top;
  }
  region?.style.setProperty('--lift', `${Math.max(0, Math.round(lift))}px`);
}

// Says text to screen-reader users (and shows it) in the page's live region.
let clearing = null;
let following = 0;
export function announce(text) {
  const region = document.getElementById('status');
  if (!region) return;
  region.textContent = text;
  // Placed again at every frame while it shows: the page scrolls, and the
  // move panel comes, grows and goes as the page is drawn again.
  cancelAnimationFrame(following);
  const follow = () => {
    placeToast();
    following = region.textContent ? requestAnimationFrame(follow) : 0;
  };
  follow();
  // Said once: the toast goes after a while so it hides nothing for long.
  clearTimeout(clearing);
  clearing = setTimeout(() => { region.textContent = ''; }, 6000);
}

let fieldCount = 0;
// A labelled form field: label text, then the control.
export function field(labelText, control, hint) {
  const id = control.id || `f${++fieldCount}`;
  control.id = id;
  let hintEl = null;
  if (hint) {
    hintEl = h('small', { id: `${id}-hint`, class: 'hint' }, hint);
    control.setAttribute('aria-describedby', hintEl.id);
  }
  return h('div', { class: 'field' }, h('label', { for: id }, labelText), control, hintEl);
}

export function when(iso) {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
}

// A table in a box that scrolls sideways when the screen is narrower than
// the table, so the page itself never does (a phone would zoom out); the
// box can be reached and scrolled with the keyboard.
export function wide(table, label) {
  return h('div', { class: 'table-wrap', role: 'region', tabindex: 0, 'aria-label': label }, table);
}
