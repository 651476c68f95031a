// rules.js: a game's rules in short (/games/<game>), the same text the
// mail door's "rules GAME" and pbem games GAME show, drawn as a page:
// headings, lists and the notation's examples.
import { h } from '../dom.js';
import { call } from '../api.js';

// The summary's blocks (separated by blank lines) as elements: a block's
// first line is its heading when more lines follow and it is short and
// ends in no punctuation (a paragraph's runs to the 72nd column); "- " and
// "1. " lines
// are list items, and an indented line goes on with the item before it;
// lines indented by two spaces that follow no item are examples, kept as
// written.
const ITEM = /^(- |\d+\. )/;

function blocks(text) {
  const out = [];
  for (const block of text.trim().split(/\n\s*\n/)) {
    const lines = block.split('\n');
    if (lines.length > 1 && !/^\s/.test(lines[0]) && !ITEM.test(lines[0]) &&
        lines[0].length <= 40 && !/[.,:;]$/.test(lines[0])) {
      out.push(h('h2', null, lines.shift()));
    }
    let list = null;
    let para = [];
    let examples = [];
    const flush = () => {
      if (para.length) out.push(h('p', null, para.join(' ')));
      // Scrolls sideways on a phone, so the keyboard must reach it too.
      if (examples.length) out.push(h('pre', { class: 'notation', tabindex: '0', 'aria-label': 'Examples' }, examples.join('\n')));
      para = [];
      examples = [];
    };
    for (const line of lines) {
      const item = line.match(ITEM);
      if (item) {
        flush();
        const ordered = item[1] !== '- ';
        if (!list || (list.tagName === 'OL') !== ordered) {
          list = h(ordered ? 'ol' : 'ul', null);
          out.push(list);
        }
        list.append(h('li', null, line.slice(item[1].length)));
      } else if (list && /^ {2,3}\S/.test(line) && list.lastChild) {
        list.lastChild.append(` ${line.trim()}`);
      } else if (line.startsWith('  ')) {
        list = null;
        if (para.length) flush();
        examples.push(line.slice(2));
      } else {
        list = null;
        if (examples.length) flush();
        para.push(line.trim());
      }
    }
    flush();
  }
  return out;
}

export async function rulesPage(main, app, game) {
  const g = await call('GET', `/v1/games/${encodeURIComponent(game)}`);
  const [title, ...rest] = g.summary.split('\n');
  main.append(
    h('h1', null, title),
    h('p', null, `${g.min_seats} to ${g.max_seats} players. `,
      h('a', { href: '/' }, 'Start a match'), ' · ',
      h('a', { href: `/games/${encodeURIComponent(game)}/standings`, id: 'standings-link' }, 'Standings'), ' · ',
      h('a', { href: '/games' }, 'All the games')),
    h('article', { class: 'rules' }, blocks(rest.join('\n'))));
}
