// chat-receiver.mjs: stands in for a Slack or Discord incoming webhook in
// the notification tests, and checks each delivery against the body shape
// that service documents:
//   slack   (api.slack.com/messaging/webhooks): a JSON object with a
//           non-empty "text" (mrkdwn; every "<" opens a link "<url|label>",
//           so no raw <!channel> or <@U…> mention slips through), and
//           optionally blocks, unfurl_links, unfurl_media, mrkdwn.
//           Answers 200 "ok", as Slack does.
//   discord (discord.com/developers/docs/resources/webhook): a JSON object
//           with "content" of 1 to 2000 characters, optionally embeds (at
//           most 10), and allowed_mentions {"parse": []} so no @everyone,
//           role or user in a name can ping. Answers 204, as Discord does.
// Either way the body is JSON (Content-Type application/json) and the
// request carries no Standard Webhooks headers. One JSON line per request
// goes to --out FILE: {n, valid, problems, body, webhook-id,
// webhook-signature, content_type}. --secrets is accepted and ignored.
// Prints "listening PORT" once it accepts connections.
import { appendFileSync } from 'node:fs';
import { createServer } from 'node:http';

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const out = opt('out');
const format = opt('format', 'slack');
let count = 0;

const only = (object, allowed, problems) => {
  for (const key of Object.keys(object))
    if (!allowed.includes(key)) problems.push(`unexpected member ${key}`);
};

function checkSlack(body, problems) {
  only(body, ['text', 'blocks', 'unfurl_links', 'unfurl_media', 'mrkdwn', 'response_type'], problems);
  if (typeof body.text !== 'string' || body.text.length === 0) {
    problems.push('text must be a non-empty string');
    return;
  }
  // Outside links, < and > must be escaped (&lt; &gt;), and & starts only
  // the three escapes Slack knows.
  const outside = body.text.replace(/<https?:\/\/[^|<>]+\|[^<>]+>/g, '');
  if (/[<>]/.test(outside)) problems.push('a raw < or > outside a link');
  if (/&(?!amp;|lt;|gt;)/.test(body.text)) problems.push('a raw & in text');
  if (body.blocks !== undefined && !Array.isArray(body.blocks)) problems.push('blocks must be an array');
}

function checkDiscord(body, problems) {
  only(body, ['content', 'embeds', 'components', 'allowed_mentions', 'username', 'avatar_url'], problems);
  if (typeof body.content !== 'string' || body.content.length === 0) {
    problems.push('content must be a non-empty string');
  } else if ([...body.content].length > 2000) {
    problems.push(`content is ${[...body.content].length} characters, over 2000`);
  }
  const parse = body.allowed_mentions?.parse;
  if (!Array.isArray(parse) || parse.length !== 0)
    problems.push('allowed_mentions.parse must be [] (no pings)');
  if (body.embeds !== undefined && (!Array.isArray(body.embeds) || body.embeds.length > 10))
    problems.push('embeds must be an array of at most 10');
}

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const n = ++count;
    const text = Buffer.concat(chunks).toString('utf8');
    const problems = [];
    if (req.method !== 'POST') problems.push(`method ${req.method}`);
    if (!(req.headers['content-type'] || '').startsWith('application/json'))
      problems.push(`content-type ${req.headers['content-type']}`);
    for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature'])
      if (req.headers[name] !== undefined) problems.push(`a ${name} header`);
    let body = null;
    try {
      body = JSON.parse(text);
    } catch {
      problems.push('the body is not JSON');
    }
    if (body !== null && (typeof body !== 'object' || Array.isArray(body)))
      problems.push('the body is not a JSON object');
    else if (body !== null) (format === 'discord' ? checkDiscord : checkSlack)(body, problems);
    const line = {
      n, valid: problems.length === 0, problems, body: text,
      content_type: req.headers['content-type'],
      'webhook-id': req.headers['webhook-id'],
      'webhook-signature': req.headers['webhook-signature'],
    };
    appendFileSync(out, JSON.stringify(line) + '\n');
    if (format === 'discord') {
      res.writeHead(204);
      res.end();
    } else {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end('ok');
    }
  });
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening ${server.address().port}\n`);
});
process.on('SIGTERM', () => process.exit(0));
