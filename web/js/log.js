// log.js: a match's events as lines people read.
import { h, when } from './dom.js';

function who(seats, seat) {
  if (seat === null || seat === undefined) return 'the service';
  const s = seats?.find((x) => x.seat === seat);
  return s?.name ? `${s.name} (seat ${seat})` : `seat ${seat}`;
}

function actionText(action) {
  if (!action) return '';
  if (typeof action === 'string') return action;
  return Object.entries(action).map(([k, v]) => (k === 'type' ? v : `${k} ${typeof v === 'object' ? JSON.stringify(v) : v}`)).join(' ');
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
    case 'finished': return `the match is over: scores ${(d.result?.scores ?? []).join(', ')}`;
    case 'aborted': return `an admin aborted the match: ${d.reason ?? ''}`;
    case 'rewound': return `an admin rewound the match to event ${d.to_seq}: ${d.reason ?? ''}`;
    case 'seat_replaced': return `an admin gave ${who(seats, e.seat)} to another player`;
    default: return e.kind;
  }
}

export function logItem(e, seats) {
  return h('li', null, h('time', { datetime: e.at }, when(e.at)), ` · ${eventLine(e, seats)}`);
}
