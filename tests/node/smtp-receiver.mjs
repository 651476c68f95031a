// smtp-receiver.mjs: a real SMTP server on loopback for the notification
// tests (npm smtp-server), parsing each message with mailparser and
// appending one JSON line per message to --out FILE. Prints
// "listening PORT" once it accepts connections. With --refuse N it
// refuses the first N messages (451, a temporary failure), writing a
// line {"refused": n} for each. With --idle-ms N it closes a connection
// idle for N ms (answering 421, as Postfix and others do), writing a line
// {"closed": n} for each connection that ends.
import { appendFileSync } from 'node:fs';
import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';

const args = process.argv.slice(2);
const out = args[args.indexOf('--out') + 1];
let refuse = args.includes('--refuse') ? Number(args[args.indexOf('--refuse') + 1]) : 0;
let refused = 0;
const idle = args.includes('--idle-ms') ? Number(args[args.indexOf('--idle-ms') + 1]) : 0;
let closed = 0;

const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS', 'AUTH'],
  logger: false,
  ...(idle ? {
    socketTimeout: idle,
    onClose() {
      closed += 1;
      appendFileSync(out, JSON.stringify({ closed }) + '\n');
    },
  } : {}),
  onData(stream, session, callback) {
    const chunks = [];
    stream.on('data', (c) => chunks.push(c));
    stream.on('end', async () => {
      const raw = Buffer.concat(chunks);
      if (refused < refuse) {
        refused += 1;
        appendFileSync(out, JSON.stringify({ refused }) + '\n');
        const err = new Error('try again later');
        err.responseCode = 451;
        callback(err);
        return;
      }
      try {
        const mail = await simpleParser(raw);
        appendFileSync(out, JSON.stringify({
          envelope_from: session.envelope.mailFrom && session.envelope.mailFrom.address,
          envelope_to: session.envelope.rcptTo.map((r) => r.address),
          from: mail.from && mail.from.value,
          to: mail.to && mail.to.value,
          subject: mail.subject,
          date: mail.date ? mail.date.toISOString() : null,
          message_id: mail.messageId,
          notification: mail.headers.get('x-pbem-notification'),
          reply_to: mail.replyTo ? mail.replyTo.value.map((a) => a.address) : null,
          in_reply_to: mail.inReplyTo || null,
          references: mail.references ? [].concat(mail.references) : null,
          auto_submitted: mail.headers.get('auto-submitted') || null,
          content_type: mail.headers.get('content-type') && mail.headers.get('content-type').value,
          text: mail.text,
          html: mail.html,
          raw: raw.toString('utf8'),
          ascii_only: /^[\x00-\x7f]*$/.test(raw.toString('latin1')),
        }) + '\n');
        callback();
      } catch (e) {
        appendFileSync(out, JSON.stringify({ error: String(e) }) + '\n');
        callback(e);
      }
    });
  },
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening ${server.server.address().port}\n`);
});
// Every message is on disk once parsed (appendFileSync), so a stop owes
// nothing to a client: exit at once. server.close() would wait up to its
// closeTimeout (30 s) for pbemd's kept SMTP connection to end, and did so
// in every test that stopped the receiver before pbemd.
process.on('SIGTERM', () => process.exit(0));
