// bot.ts: ordinary bot code against the types openapi-typescript makes of
// openapi.yaml; scripts/test.sh generates them (api.d.ts beside a copy of
// this file) and compiles this under `tsc --strict`. It is never run: it
// only has to type-check, as a bot author's code would.
import type { components, paths, webhooks } from './api';

type Schemas = components['schemas'];
type Action = Schemas['Action'];
type SeatView = Schemas['SeatView'];
type Match = Schemas['Match'];
type Event = Schemas['Event'];
type Delivery = Schemas['WebhookDelivery'];
type StreamItem = Schemas['PlayerStreamItem'];
type TurnBody =
  webhooks['match.your_turn']['post']['requestBody']['content']['application/json'];
type CreateMatch =
  paths['/v1/matches']['post']['requestBody']['content']['application/json'];

// An action is the game's own object: its fields beyond `type` are open.
function castleOrFirst(view: SeatView): Action | undefined {
  const moves: Action[] = view.legal?.moves ?? [];
  const castle = moves.find((m) => m.type === 'go' && m.location === 'castle');
  return castle ?? moves[0];
}

// A bot builds actions of its own, with the game's fields.
const play: Action = { type: 'play', card: 'A1' };
const exhibit: Action = { type: 'exhibit', cards: ['A1', 'A2', 'A3'] };

// Game options are the game's: a bot reads and sets them by name.
function rounds(match: Match): number {
  const value = match.options['rounds'];
  return typeof value === 'number' ? value : 3;
}
const create: CreateMatch = {
  game: 'adel_verplichtet',
  seats: 3,
  options: { rounds: 2, advanced: true },
};

// A seat's view and the public view are the engine's objects.
function handSize(view: SeatView): number {
  const hand = view.view?.['hand'];
  return Array.isArray(hand) ? hand.length : 0;
}
function publicTable(match: Match): unknown {
  return match.view?.['table'];
}

// Event data depends on the kind: a bot reads the fields it knows.
function decisionOf(event: Event): string | undefined {
  const decision = event.data['decision'];
  return event.kind === 'committed' && typeof decision === 'string'
    ? decision
    : undefined;
}
function moveText(event: Event): string {
  return event.kind === 'move' ? String(event.data.text ?? '') : '';
}

// A webhook body or a player stream item, by its type: the compiler knows
// which data each carries, so a bot reads them without casts.
function whatToDo(body: Delivery): string {
  switch (body.type) {
    case 'match.your_turn':
      return `${body.data.game_title}: ${body.data.moves?.[0] ?? body.data.prompt}`;
    case 'match.nudge':
      return `${body.data.nudged_by} is waiting for you`;
    case 'match.reminder':
      return `waiting ${body.data.reminder_hours} h in ${body.data.game_title}`;
    case 'match.deadline_reminder':
      return `due at ${body.data.deadline.due_at} (${body.data.deadline.action})`;
    case 'match.over':
      return `over: ranking ${JSON.stringify(body.data.result.ranking)}`;
    case 'match.aborted':
      return `aborted: ${body.data.reason}`;
    case 'match.found':
      return `a quick match: seat ${body.data.seat} with ${body.data.players.join(', ')}`;
  }
}
// The player stream's NDJSON lines add their id; the first waiting matches
// have none.
function resumeAfter(items: StreamItem[]): number | undefined {
  return items.reduce<number | undefined>((last, item) => item.stream_id ?? last, undefined);
}
// A message at the table comes on the player stream only.
function saidAtTable(item: StreamItem): string | undefined {
  return item.type === 'match.message'
    ? `${item.data.message.from_name ?? 'someone'}: ${item.data.message.text}`
    : undefined;
}
// The webhook operation's body is the same type as the schema's.
function myTurnAt(body: TurnBody): [string, number] {
  return [body.data.match, body.data.seq];
}
// A match stream's items are the events of GET /v1/matches/{id}/events.
function toldSince(items: Event[], seq: number): string[] {
  return items.filter((e) => e.seq > seq).map((e) => e.text ?? e.kind);
}

export {
  castleOrFirst, play, exhibit, rounds, create, handSize, publicTable,
  decisionOf, moveText, whatToDo, resumeAfter, saidAtTable, myTurnAt, toldSince,
};
