/**
 * kill -9 during writes (docs/reliability.md): the real product, started by `ninefold start` as a
 * child process, takes concurrent creates, changes, transitions and deletes from signed-in clients that send
 * an Idempotency-Key with each; at a random moment it is killed with SIGKILL, started again on the
 * same database, and the clients send again, with the same key, each write whose answer the kill
 * took from them, as a real client does. After the last cycle every acknowledged write must be
 * there: each record with the version and values of its last acknowledged write, one history entry
 * per acknowledged write, every acknowledged delete gone, and no record twice. On SQLite (a file) and on the real PostgreSQL server
 * (a database of its own).
 */
import {
  CSRF_HEADER,
  CSRF_HEADER_VALUE,
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENT_REPLAYED_HEADER,
  SESSION_COOKIE,
} from '@ninefold/model';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type ProductStore,
  type RunningProduct,
  killHard,
  ninefold,
  postgresStore,
  sqliteStore,
  startProduct,
  stop,
} from './child-product.js';

/** Kill-and-restart cycles per database. */
const CYCLES = 5;
/** Clients writing at once. */
const WRITERS = 8;
/** How long the product takes writes before it is killed: a random moment in this window (ms). */
const LOAD_MS = [300, 2_500] as const;
const SEED = Number(process.env['KILL9_SEED'] ?? 9009);

/** A product that is ours alone: nothing in it is an example's. */
const SPEC = `
product: { name: Ledger }
entities:
  Entry:
    fields:
      title: { type: string, required: true, maxLength: 200 }
      count: { type: integer, required: true, default: 0 }
      amount: { type: money, currency: EUR }
      tags: { type: enum, many: true, values: [a, b, c] }
states:
  Entry:
    initial: open
    states: [open, done]
    transitions:
      finish: { from: open, to: done }
      reopen: { from: done, to: open }
limits:
  requestsPerMinute: { default: 1000000 }
`;

const EMAIL = 'writer@example.com';
const PASSWORD = 'correct horse battery';
const ENTRIES = '/api/entries';

type Values = { title: string; count: number; amount: string | null; tags: string[]; state: string };

/** A write the product answered with 2xx: what it was and the record's version and values after it. */
interface Ack {
  readonly action: 'create' | 'update' | 'transition' | 'delete';
  readonly transition: string | null;
  /** After a delete: the version and values the record had when it was deleted. */
  readonly version: number;
  readonly values: Values;
}

/** A write as a client sends it, kept until it is answered so that it can be sent again. */
interface Write {
  readonly method: 'POST' | 'PATCH' | 'DELETE';
  readonly path: string;
  /** The JSON body; none for a delete. */
  readonly body: Record<string, unknown> | null;
  readonly ifMatch: number | null;
  readonly key: string;
  readonly action: Ack['action'];
  readonly transition: string | null;
  /** The record it writes; null for a create. */
  readonly record: Tracked | null;
}

/** A record a client created, with every write of it the product acknowledged. */
interface Tracked {
  readonly id: string;
  readonly acks: Ack[];
}

const isDeleted = (record: Tracked) => last(record).action === 'delete';

/** A small seeded generator (mulberry32): the same seed, the same sequence of choices. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const last = (record: Tracked): Ack => record.acks[record.acks.length - 1]!;

function valuesOf(body: Record<string, unknown>): Values {
  return {
    title: String(body['title']),
    count: Number(body['count']),
    amount: body['amount'] === null || body['amount'] === undefined ? null : String(body['amount']),
    tags: Array.isArray(body['tags']) ? body['tags'].map(String) : [],
    state: String(body['state']),
  };
}

/** One client: signs in once, then writes its own records one write at a time. */
class Writer {
  readonly records: Tracked[] = [];
  /** The write whose answer a kill took, sent again (same key) once the product is back. */
  pending: Write | null = null;
  /** Answers that are neither 2xx nor a dropped connection: each is a finding. */
  readonly surprises: string[] = [];
  acknowledged = 0;
  resent = 0;
  /** Writes sent again that had committed before the kill: answered as replays of their key. */
  replayed = 0;
  #sequence = 0;

  constructor(
    readonly name: string,
    readonly cookie: string,
    readonly next: () => number,
  ) {}

  /** Writes until a request fails to get an answer (the product is gone). */
  async run(url: string, until: () => boolean): Promise<void> {
    if (this.pending !== null) {
      this.resent += 1;
      if (!(await this.#send(url, this.pending))) return;
    }
    while (!until()) {
      if (!(await this.#send(url, this.#plan()))) return;
    }
  }

  #plan(): Write {
    const seq = ++this.#sequence;
    const key = `${this.name}-${String(seq)}-${String(Math.floor(this.next() * 1e9))}`;
    const title = `${this.name} #${String(seq)} ✓ Ünïcödé`;
    const choice = this.next();
    const live = this.records.filter((r) => !isDeleted(r));
    if (live.length === 0 || choice < 0.35) {
      const body = {
        title,
        amount: `${String(seq)}.${String(seq % 100).padStart(2, '0')}`,
        tags: ['b', 'a'],
      };
      return {
        method: 'POST',
        path: ENTRIES,
        body,
        ifMatch: null,
        key,
        action: 'create',
        transition: null,
        record: null,
      };
    }
    const record = live[Math.floor(this.next() * live.length)]!;
    const now = last(record);
    if (choice < 0.72) {
      const body = { title, count: now.values.count + 1, tags: seq % 2 === 0 ? ['c'] : [] };
      return {
        method: 'PATCH',
        path: `${ENTRIES}/${record.id}`,
        body,
        ifMatch: now.version,
        key,
        action: 'update',
        transition: null,
        record,
      };
    }
    if (choice < 0.78) {
      const path = `${ENTRIES}/${record.id}`;
      return {
        method: 'DELETE',
        path,
        body: null,
        ifMatch: now.version,
        key,
        action: 'delete',
        transition: null,
        record,
      };
    }
    const name = now.values.state === 'open' ? 'finish' : 'reopen';
    return {
      method: 'POST',
      path: `${ENTRIES}/${record.id}/transitions/${name}`,
      body: {},
      ifMatch: now.version,
      key,
      action: 'transition',
      transition: name,
      record,
    };
  }

  /** Sends a write; false when no answer came (the product was killed), and it stays pending. */
  async #send(url: string, write: Write): Promise<boolean> {
    this.pending = write;
    let response: Response;
    let text: string;
    try {
      response = await fetch(`${url}${write.path}`, {
        method: write.method,
        headers: {
          ...(write.body === null ? {} : { 'content-type': 'application/json' }),
          cookie: this.cookie,
          [CSRF_HEADER]: CSRF_HEADER_VALUE,
          [IDEMPOTENCY_KEY_HEADER]: write.key,
          ...(write.ifMatch === null ? {} : { 'if-match': `"${String(write.ifMatch)}"` }),
        },
        ...(write.body === null ? {} : { body: JSON.stringify(write.body) }),
        signal: AbortSignal.timeout(30_000),
      });
      text = await response.text();
    } catch {
      return false;
    }
    if (response.status < 200 || response.status > 299) {
      this.surprises.push(`${write.method} ${write.path} → ${String(response.status)} ${text}`);
      this.pending = null;
      return true;
    }
    if (response.headers.get(IDEMPOTENT_REPLAYED_HEADER) === 'true') this.replayed += 1;
    const answered = (body: Record<string, unknown>): Ack => ({
      action: write.action,
      transition: write.transition,
      version: Number(body['version']),
      values: valuesOf(body),
    });
    if (write.record === null) {
      const body = JSON.parse(text) as Record<string, unknown>;
      this.records.push({ id: String(body['id']), acks: [answered(body)] });
    } else if (write.action === 'delete') {
      // 204, no body: the record was deleted as it last was
      write.record.acks.push({ ...last(write.record), action: 'delete', transition: null });
    } else {
      write.record.acks.push(answered(JSON.parse(text) as Record<string, unknown>));
    }
    this.acknowledged += 1;
    this.pending = null;
    return true;
  }
}

async function signIn(url: string): Promise<string> {
  const response = await fetch(`${url}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [CSRF_HEADER]: CSRF_HEADER_VALUE },
    body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
  });
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0] ?? '')
    .find((c) => c.startsWith(`${SESSION_COOKIE}=`));
  if (response.status !== 200 || cookie === undefined) {
    throw new Error(`Could not sign in: ${String(response.status)} ${await response.text()}`);
  }
  return cookie;
}

async function getJson(
  url: string,
  path: string,
  cookie: string,
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${url}${path}`, { headers: { cookie } });
  return { status: response.status, body: await response.json() };
}

/** What was lost or changed of the acknowledged writes, one line each (none when all is well). */
async function lostWrites(url: string, cookie: string, records: readonly Tracked[]): Promise<string[]> {
  const lost: string[] = [];
  for (const record of records) {
    const acked = last(record);
    const got = await getJson(url, `${ENTRIES}/${record.id}`, cookie);
    if (isDeleted(record)) {
      if (got.status !== 404) lost.push(`${record.id}: deleted (acknowledged), now ${String(got.status)}`);
      continue;
    }
    if (got.status !== 200) {
      lost.push(`${record.id}: acknowledged at version ${String(acked.version)}, now ${String(got.status)}`);
      continue;
    }
    const stored = got.body as Record<string, unknown>;
    const values = valuesOf(stored);
    if (
      Number(stored['version']) !== acked.version ||
      JSON.stringify(values) !== JSON.stringify(acked.values)
    ) {
      lost.push(
        `${record.id}: acknowledged v${String(acked.version)} ${JSON.stringify(acked.values)}, stored v${String(stored['version'])} ${JSON.stringify(values)}`,
      );
    }
    const history = (await getJson(url, `${ENTRIES}/${record.id}/history`, cookie)).body as {
      data: { action: string; transition: string | null; changes: Record<string, { to: unknown }> }[];
    };
    if (history.data.length !== acked.version) {
      lost.push(
        `${record.id}: ${String(history.data.length)} history entries for version ${String(acked.version)}`,
      );
    }
    for (const ack of record.acks) {
      const found = history.data.some(
        (entry) =>
          entry.action === ack.action &&
          entry.transition === ack.transition &&
          (ack.action === 'transition' ||
            JSON.stringify(entry.changes['title']?.to) === JSON.stringify(ack.values.title)),
      );
      if (!found)
        lost.push(
          `${record.id}: no history entry for the acknowledged ${ack.action} v${String(ack.version)}`,
        );
    }
    const transitions = (name: string) => record.acks.filter((a) => a.transition === name).length;
    for (const name of ['finish', 'reopen']) {
      const entries = history.data.filter((e) => e.transition === name).length;
      if (entries !== transitions(name)) {
        lost.push(
          `${record.id}: ${String(entries)} ${name} entries for ${String(transitions(name))} acknowledged`,
        );
      }
    }
  }
  const list = (await getJson(url, `${ENTRIES}?total=true&limit=1`, cookie)).body as { total: number };
  const live = records.filter((r) => !isDeleted(r)).length;
  if (list.total !== live) {
    lost.push(`${String(list.total)} records stored for ${String(live)} acknowledged creates not deleted`);
  }
  return lost;
}

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const STORES: Record<'sqlite' | 'postgres', (dir: string) => Promise<ProductStore>> = {
  sqlite: async (dir) => sqliteStore(dir),
  postgres: postgresStore,
};

for (const [name, makeStore] of Object.entries(STORES)) {
  describe(`${name}: kill -9 during writes`, () => {
    it(`keeps every acknowledged write through ${String(CYCLES)} kills`, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'ninefold-kill9-'));
      dirs.push(dir);
      const spec = join(dir, 'ledger.yaml');
      writeFileSync(spec, SPEC);
      const store = await makeStore(join(dir, 'data'));
      const next = random(SEED);
      let product: RunningProduct | null = null;
      try {
        await ninefold(
          [
            'users',
            'add',
            '--spec',
            spec,
            '--email',
            EMAIL,
            '--name',
            'Writer',
            '--roles',
            'user',
            '--password',
            PASSWORD,
          ],
          store,
        );
        product = await startProduct(spec, store);
        const cookie = await signIn(product.url);
        const writers = Array.from({ length: WRITERS }, (_, i) => new Writer(`w${String(i)}`, cookie, next));
        for (let cycle = 1; cycle <= CYCLES; cycle++) {
          const running = product;
          const killAt = LOAD_MS[0] + next() * (LOAD_MS[1] - LOAD_MS[0]);
          let killed = false;
          const load = Promise.all(writers.map((w) => w.run(running.url, () => killed)));
          await sleep(killAt);
          killed = true;
          await killHard(running);
          await load;
          const inFlight = writers.filter((w) => w.pending !== null).length;
          console.log(
            `${name}: cycle ${String(cycle)} killed after ${String(Math.round(killAt))} ms, ${String(inFlight)} writes in flight`,
          );
          product = await startProduct(spec, store);
        }
        // the last start takes the writes the last kill left unanswered, then stands still
        const final = product;
        await Promise.all(writers.map((w) => w.run(final.url, () => true)));
        const records = writers.flatMap((w) => w.records);
        const lost = await lostWrites(final.url, cookie, records);
        const acknowledged = writers.reduce((n, w) => n + w.acknowledged, 0);
        const resent = writers.reduce((n, w) => n + w.resent, 0);
        const replayed = writers.reduce((n, w) => n + w.replayed, 0);
        const surprises = writers.flatMap((w) => w.surprises);
        console.log(
          `kill9 ${name}: ${String(CYCLES)} cycles, ${String(acknowledged)} writes acknowledged ` +
            `(${String(records.length)} records, ${String(records.filter(isDeleted).length)} of them deleted; ${String(resent)} sent again after a kill, ${String(replayed)} of them had committed), ` +
            `${String(lost.length)} lost, ${String(surprises.length)} unexpected answers`,
        );
        expect(surprises).toEqual([]);
        expect(lost).toEqual([]);
        expect(writers.some((w) => w.pending !== null)).toBe(false);
        expect(acknowledged).toBeGreaterThan(CYCLES * WRITERS);
      } finally {
        if (product !== null) await stop(product);
        await store.drop();
      }
    });
  });
}
