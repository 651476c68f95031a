// rules.js: a game's rules in short (/games/<game>), the same text the
// mail door's "rules GAME" and pbem games GAME show, drawn as a page:
// headings, lists and the notation's examples.
import { h } from '../dom.js';
import { call } from '../api.js';

// The summary's blocks (separated by blank lines) as elements: a block's
// first line is its heading when more lines follow; "- " lines are list
// items (an indented line goes on with the item before it); lines
// indented by two spaces in a block of their own are examples, kept as
// written.
function blocks(text) {
  const out = [];
  for (const block of text.trim().split(/\n\s*\n/)) {
    const lines = block.split('\n');
    let heading = null;
    if (lines.length > 1 && !lines[0].startsWith(' ') && !lines[0].startsWith('- ')) {
      heading = lines.shift();
    }
    if (heading) out.push(h('h2', null, heading));
    let items = null;
    let para = [];
    let examples = [];
    const flush = () => {
      if (para.length) out.push(h('p', null, para.join(' ')));
      if (examples.length) out.push(h('pre', { class: 'notation' }, examples.join('\n')));
      para = [];
      examples = [];
    };
    for (const line of lines) {
      if (line.startsWith('- ')) {
        flush();
        if (!items) {
          items = h('ul', null);
          out.push(items);
        }
        items.append(h('li', null, line.slice(2)));
      } else if (items && line.startsWith('  ') && !line.startsWith('    ') && items.lastChild) {
        items.lastChild.append(` ${line.trim()}`);
      } else if (line.startsWith('  ')) {
        items = null;
        if (para.length) flush();
        examples.push(line.slice(2));
      } else {
        items = null;
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
      h('a', { href: '/games' }, 'All the games')),
    h('article', { class: 'rules' }, blocks(rest.join('\n'))));
}
