// log.js: a match's events as lines people read: the server's sentence
// when it sends one (a seat's view "log", an event's "text", both told by
// the engine as the mails are), else a line made here from the event.
import { h, when } from './dom.js';

function who(seats, seat) {
  if (seat === null || seat === undefined) return 'the service';
  const s = seats?.find((x) => x.seat === seat);
  return s?.name ?? `seat ${seat}`;
}

function actionText(action) {
  if (!action) return '';
  if (typeof action === 'string') return action;
  // As the notation writes it: the verb, then its words ("go castle",
  // "play thief 7", "dig 0.1.0").
  const words = Object.entries(action).filter(([k]) => k !== 'type')
    .map(([, v]) => (Array.isArray(v) ? v.join(' ') : typeof v === 'object' && v !== null ? JSON.stringify(v) : v));
  return [action.type, ...words].filter((w) => w !== undefined && w !== '').join(' ');
}

export function eventLine(e, seats) {
  const d = e.data ?? {};
  switch (e.kind) {
    case 'created': {
      const by = seats?.find((s) => s.player && s.player === d.created_by);
      return `${by ? who(seats, by.seat) : 'someone'} created the match`;
    }
    case 'joined': return `${who(seats, e.seat)} joined`;
    case 'started': return 'the match started';
    case 'move': return `${who(seats, e.seat)}: ${d.text ?? actionText(d.action)}`;
    case 'committed': return `${who(seats, e.seat)} sealed a choice (${d.decision})`;
    case 'revealed': return `${who(seats, e.seat)} revealed: ${actionText(d.action)}`;
    case 'voided': return `${who(seats, e.seat)}'s sealed choice was refused (${d.reason}); the default stands in`;
    case 'decided': return `the sealed choices of ${d.decision} were applied`;
    case 'timeout': return `${who(seats, e.seat)} ran out of time: ${d.action ?? ''}`;
    case 'forfeited': return `${who(seats, e.seat)} forfeited: ${d.reason ?? ''}`;
    case 'finished': return finishedLine(d.result, seats);
    case 'aborted': return `an admin aborted the match: ${d.reason ?? ''}`;
    case 'rewound': return `an admin rewound the match to event ${d.to_seq}: ${d.reason ?? ''}`;
    case 'seat_replaced': return `an admin gave ${who(seats, e.seat)} to another player`;
    default: return e.kind;
  }
}

function finishedLine(result, seats) {
  const r = result ?? {};
  const first = r.ranking?.[0] ?? [];
  const won = first.length === 1 ? `${who(seats, first[0])} won` : first.length ? `${first.map((s) => who(seats, s)).join(' and ')} share the win` : 'the match is over';
  const scores = (r.scores ?? []).map((n, s) => `${who(seats, s)} ${n}`).join(', ');
  const named = (text) => text && text.replace(/\bseat (\d+)\b/g, (all, n) => who(seats, Number(n)) ?? all);
  return [`${won}${scores ? ` (${scores})` : ''}.`, named(r.reason), named(r.tie_break)].filter(Boolean).join(' ');
}

// The sentence for event e: told (a seat's log entry {seq, seat, text}
// or undefined), then the event's public "text", then the page's line.
export function logText(e, told, seats) {
  if (typeof told?.text === 'string' && told.text) return told.text;
  if (typeof e.text === 'string' && e.text) return e.text;
  const line = eventLine(e, seats);
  return `${line.charAt(0).toUpperCase()}${line.slice(1)}${/[.!?]$/.test(line) ? '' : '.'}`;
}

export function logItem(e, text) {
  return h('li', { 'data-seq': e.seq }, h('time', { datetime: e.at }, when(e.at)), ` · ${text}`);
}
