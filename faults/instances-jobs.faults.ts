/**
 * Three instances as one service, their workers (issue 20, "Proof at scale": "the outbox and timers
 * … are already in the database: prove them across instances"). Three `ninefold start` processes on
 * one PostgreSQL database, each running its own job runner, take creates through all three at once.
 * Each create writes, in its transaction, an e-mail (to a real SMTP server the test starts), a webhook
 * delivery (to a real HTTP receiver the test starts) and a timer (`after: 3s`), whose transition
 * writes a webhook delivery of its own. Afterwards: every mail arrived once, every webhook message
 * once (by its `webhook-id`, and one per record and event), and every timer fired once (one history
 * entry by the system, one version step) — whichever of the three ran each.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, describe, expect, it } from 'vitest';
import { type ProductInstances, freshPostgresDatabase, startInstances } from '@ninefold/testkit';

process.env['TEST_DATABASE_URL'] ??= 'postgres://postgres@127.0.0.1:5432/test';

const CREATES = 45;
const SPEC = `
product: { name: Errands }
entities:
  Errand:
    display: title
    fields:
      title: { type: string, required: true }
      contact: { type: email, required: true }
states:
  Errand:
    initial: open
    states:
      open: { label: Open }
      lapsed: { label: Lapsed, terminal: true }
    transitions:
      lapse: { from: open, to: lapsed, after: 3s }
roles:
  writer: { Errand: { read: true, create: true } }
notifications:
  errand-made:
    on: Errand.created
    to: [contact]
    channels: [email]
    subject: "Errand {title}"
    message: "An errand was made: {title}."
webhooks:
  receiver:
    on: [Errand.created, Errand.lapse]
    url: \${RECEIVER_URL}
    secret: \${RECEIVER_SECRET}
limits:
  requestsPerMinute: { default: 100000, guest: 100000 }
`;
const EMAIL = 'writer@example.com';
const PASSWORD = 'a long and unguessable passphrase';
const CSRF = { 'x-ninefold-csrf': '1' };

const folder = mkdtempSync(join(tmpdir(), 'ninefold-instances-jobs-'));
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  rmSync(folder, { recursive: true, force: true });
});

/** An SMTP server on 127.0.0.1 that keeps every mail it receives. */
async function smtpServer() {
  const received: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (mail) => {
          received.push(mail);
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { received, port: (server.server.address() as AddressInfo).port };
}

interface Delivery {
  readonly webhookId: string;
  readonly type: string;
  readonly recordId: string;
}

/** An HTTP receiver on 127.0.0.1 that answers 200 to every webhook and keeps what it got. */
async function webhookReceiver() {
  const received: Delivery[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const message = JSON.parse(body) as { type: string; data: { id: string } };
      received.push({
        webhookId: String(request.headers['webhook-id']),
        type: message.type,
        recordId: message.data.id,
      });
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { received, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/in` };
}

/** One request to one instance. */
async function call(base: string, method: string, path: string, body?: unknown, cookie?: string) {
  const response = await fetch(`${base}/api/${path}`, {
    method,
    headers: {
      ...CSRF,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(cookie === undefined ? {} : { cookie }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: (text === '' ? {} : JSON.parse(text)) as Record<string, unknown>,
    headers: response.headers,
  };
}

/** Waits until `check` holds, or until `ms` have passed. */
async function until(check: () => boolean | Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
}

/** Each value's count, for the ones seen more than once. */
function repeated(values: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return Object.fromEntries(Object.entries(counts).filter(([, count]) => count > 1));
}

describe('three instances on one PostgreSQL, their workers at once', () => {
  it('deliver every mail and webhook once, and fire every timer once', async () => {
    const smtp = await smtpServer();
    const receiver = await webhookReceiver();
    const database = await freshPostgresDatabase();
    cleanups.push(() => database.drop());
    const spec = join(folder, 'errands.yaml');
    writeFileSync(spec, SPEC);
    const service: ProductInstances = await startInstances({
      spec,
      count: 3,
      store: database,
      env: {
        SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
        MAIL_FROM: 'errands@example.com',
        NINEFOLD_PUBLIC_URL: 'https://errands.example.com/',
        RECEIVER_URL: receiver.url,
        RECEIVER_SECRET: `whsec_${randomBytes(24).toString('base64')}`,
        NINEFOLD_WEBHOOKS_ALLOW_PRIVATE: '1',
      },
    });
    cleanups.push(() => service.stop());
    await service.ninefold([
      'users',
      'add',
      '--spec',
      spec,
      '--email',
      EMAIL,
      '--name',
      'Wendy Writer',
      '--roles',
      'writer',
      '--password',
      PASSWORD,
    ]);
    const urls = service.instances.map((instance) => instance.url);
    expect(urls).toHaveLength(3);
    const signedIn = await call(urls[0]!, 'POST', 'session', { email: EMAIL, password: PASSWORD });
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    const cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0]!;

    // the load: creates through the three at once; each writes a mail, a webhook and a timer
    const made = await Promise.all(
      Array.from({ length: CREATES }, (_, i) =>
        call(urls[i % 3]!, 'POST', 'errands', { title: `errand ${i}`, contact: `c${i}@example.com` }, cookie),
      ),
    );
    expect(made.map((a) => a.status)).toEqual(Array(CREATES).fill(201));
    const ids = made.map((a) => String(a.body['id']));

    // the three runners work through them: mails and created-webhooks at once, the timers after 3s
    await until(() => smtp.received.length >= CREATES && receiver.received.length >= 2 * CREATES, 90_000);
    // a delivery made twice would arrive a moment after the first: give it the time to
    await new Promise((resolve) => setTimeout(resolve, 3000));

    // every mail once: one to each errand's contact
    const recipients = smtp.received.map((mail) => (Array.isArray(mail.to) ? '' : (mail.to?.text ?? '')));
    expect(repeated(recipients)).toEqual({});
    expect(recipients.sort()).toEqual(ids.map((_, i) => `c${i}@example.com`).sort());

    // every webhook message once: by its id, and one per record and event
    expect(repeated(receiver.received.map((d) => d.webhookId))).toEqual({});
    for (const type of ['Errand.created', 'Errand.lapse']) {
      const of = receiver.received.filter((d) => d.type === type).map((d) => d.recordId);
      expect(of.sort(), type).toEqual([...ids].sort());
    }

    // every timer fired once: each errand lapsed, one version step, by the system
    for (const [i, id] of ids.entries()) {
      const record = await call(urls[i % 3]!, 'GET', `errands/${id}`, undefined, cookie);
      expect(record.body).toMatchObject({ state: 'lapsed', version: 2 });
    }
    const histories = await Promise.all(
      ids.map((id, i) => call(urls[(i + 1) % 3]!, 'GET', `errands/${id}/history`, undefined, cookie)),
    );
    for (const history of histories) {
      const entries = history.body['data'] as { transition?: string | null }[];
      expect(entries.filter((entry) => entry.transition === 'lapse')).toHaveLength(1);
    }
  });
});
