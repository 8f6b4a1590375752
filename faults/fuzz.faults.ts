/**
 * A fuzz of every write of every example (docs/reliability.md): for each example spec and each
 * database (SQLite, and the real PostgreSQL server), every write the model has — the create of
 * every entity, a PATCH of each of its fields, each transition, the delete — gets FUZZ_RUNS
 * requests (200 by default) from fast-check, as every role (those that may and those that may not)
 * and now and then as a guest, with bodies that mix valid values, boundaries, wrong types, hostile
 * text, shallow nesting, unknown and missing keys, nulls and bodies that are not JSON at all.
 *
 * Paths name records that exist, and now and then ids no record has (`ODD_IDS`).
 *
 * Every answer must be below 500, and every refusal a problem+json whose code (and every field
 * error's code) is in the model's catalogue. Afterwards every stored row of every entity is read
 * straight from its table and validated again by the engine (`validateRecord`, as an update that
 * changes nothing): nothing the API stored may be something the API would refuse.
 *
 * The product starts with the demo's accounts and records (`@ninefold/demo`), so there are records
 * in every state to change. The seed is fixed (printed; FUZZ_SEED overrides it), so a failure
 * reproduces.
 */
import {
  type DemoAccount,
  demoApi,
  generateRecord,
  candidates,
  refIdsFor,
  seedDemoAccounts,
  seedDemoData,
  writableList,
} from '@ninefold/demo';
import { type UserContext } from '@ninefold/engine';
import {
  CSRF_HEADER,
  CSRF_HEADER_VALUE,
  IDEMPOTENCY_KEY_HEADER,
  type Entity,
  type Model,
  type Value,
  plainField,
} from '@ninefold/model';
import { tableName } from '@ninefold/server';
import {
  DIALECTS,
  exampleFiles,
  exampleModel,
  givenUser,
  testServer,
  type TestServer,
} from '@ninefold/testkit';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { POSTGRES_URL, connectPostgres } from './child-product.js';
import { answerCode, answerFault, short } from './fuzz-answers.js';
import { ODD_IDS, fieldValue, idempotencyKey, notAnObject, notJson, unknownKey } from './fuzz-values.js';
import { invalidStoredRows, storedRows } from './stored-rows.js';

const SEED = Number(process.env['FUZZ_SEED'] ?? 20261125);
const RUNS = Number(process.env['FUZZ_RUNS'] ?? 200);
/** Every example that has something to write (every one today). */
const EXAMPLES = exampleFiles().filter((file) => Object.keys(exampleModel(file).entities).length > 0);
/** Requests between two moves of the clock past the rate limit's minute. */
const REQUESTS_PER_MINUTE = 40;

/** One request the fuzz sends. */
interface Attempt {
  readonly role: string | null;
  readonly method: 'POST' | 'PATCH' | 'DELETE';
  readonly url: string;
  /** A value sent as JSON, or raw text (not JSON) when `raw`. */
  readonly body: unknown;
  readonly raw: boolean;
  /** The header as sent, none (null), or the record's version as it is when the request leaves. */
  readonly ifMatch: string | null | typeof CURRENT | typeof STALE;
  /** The Idempotency-Key header, or none. */
  readonly key: string | null;
  /** The record a change is sent to: its version is read just before the request. */
  readonly target: { readonly entity: Entity; readonly id: string } | null;
}

/** If-Match: the record's version as it is right now. */
const CURRENT = Symbol('the current version');
/** If-Match: the version before the record's current one. */
const STALE = Symbol('a stale version');

/** A write of the model, and how to make its requests. */
interface Operation {
  readonly name: string;
  attempts(seed: number): Promise<Attempt[]>;
}

interface Tally {
  tried: number;
  ok: number;
  refused: number;
  failures: string[];
}

/** A clock the fuzz moves past the rate limit's window, starting now (the demo's values are today's). */
function movingClock() {
  let at = Date.now();
  return { now: () => new Date(at), advance: (ms: number) => (at += ms) };
}

/** The fuzz of one example on one database. */
class Fuzz {
  readonly tally: Tally = { tried: 0, ok: 0, refused: 0, failures: [] };
  /** Answers by write and code (or status): what the fuzz reaches, printed with FUZZ_DEBUG=1. */
  readonly answers = new Map<string, number>();
  readonly cookies = new Map<string, string>();
  /** The ids of the demo accounts that send the requests. */
  readonly senders = new Set<string>();
  readonly roles: readonly string[];
  readonly base: string;
  /** The demo accounts' view of the API: their sessions, and the engine's view of each. */
  readonly api: ReturnType<typeof demoApi>;
  #sinceMove = 0;

  constructor(
    readonly server: TestServer,
    readonly clock: ReturnType<typeof movingClock>,
    readonly accounts: readonly DemoAccount[],
  ) {
    this.roles = Object.keys(server.model.roles);
    this.base = server.model.calls.basePath.replace(/\/$/, '');
    this.api = demoApi(server.app, server.model, accounts, this.cookies);
  }

  get model(): Model {
    return this.server.model;
  }

  /** Sends an attempt and judges its answer. */
  async send(operation: string, attempt: Attempt): Promise<void> {
    if (++this.#sinceMove >= REQUESTS_PER_MINUTE) {
      this.#sinceMove = 0;
      this.clock.advance(61_000);
    }
    const cookie = attempt.role === null ? undefined : this.cookies.get(attempt.role);
    const ifMatch = await this.resolveIfMatch(attempt);
    const payload =
      attempt.body === undefined
        ? undefined
        : attempt.raw
          ? String(attempt.body)
          : JSON.stringify(attempt.body);
    const response = await this.server.app.inject({
      method: attempt.method,
      url: attempt.url,
      headers: {
        [CSRF_HEADER]: CSRF_HEADER_VALUE,
        ...(cookie === undefined ? {} : { cookie }),
        ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
        ...(ifMatch === null ? {} : { 'if-match': ifMatch }),
        ...(attempt.key === null ? {} : { [IDEMPOTENCY_KEY_HEADER]: attempt.key }),
      },
      ...(payload === undefined ? {} : { payload }),
    });
    this.tally.tried += 1;
    const fault = answerFault(
      this.model,
      response.statusCode,
      String(response.headers['content-type'] ?? ''),
      response.body,
    );
    if (fault !== null) {
      this.tally.failures.push(
        `${operation} as ${attempt.role ?? 'guest'}: ${attempt.method} ${attempt.url} if-match ${ifMatch ?? '-'} ` +
          `${attempt.raw ? 'raw ' : ''}${short(attempt.body)} ${fault}: ${response.body.slice(0, 500)}`,
      );
    } else if (response.statusCode < 400) this.tally.ok += 1;
    else this.tally.refused += 1;
    const key = `${operation} → ${answerCode(response.statusCode, response.body)}`;
    this.answers.set(key, (this.answers.get(key) ?? 0) + 1);
  }

  /** The If-Match header of an attempt, its version read now when it asks for the current one. */
  async resolveIfMatch(attempt: Attempt): Promise<string | null> {
    if (attempt.ifMatch !== CURRENT && attempt.ifMatch !== STALE) return attempt.ifMatch;
    if (attempt.target === null) return null;
    const row = (await this.server.database.db
      .selectFrom(tableName(attempt.target.entity.resource))
      .select('version')
      .where('id', '=', attempt.target.id)
      .executeTakeFirst()) as { version: unknown } | undefined;
    const version = row === undefined ? 1 : Number(row.version);
    return `"${String(attempt.ifMatch === CURRENT ? version : version - 1)}"`;
  }

  /**
   * Current versions of an entity's records by id, the demo accounts' own User records left out: a
   * fuzzed PATCH that took a sender's role or disabled it would leave the rest of the run to 403s.
   */
  async versions(entity: Entity): Promise<{ id: string; version: number; state: string | null }[]> {
    const rows = (await storedRows(this.server.database, this.model, entity)).filter(
      (r) => !this.senders.has(String(r['id'])),
    );
    return rows.map((r) => ({
      id: String(r['id']),
      version: Number(r['version']),
      state: r['state'] === undefined || r['state'] === null ? null : String(r['state']),
    }));
  }

  /**
   * Signs every role in once (sessions outlive the clock's moves: each request refreshes them), and
   * adds a bystander of each role.
   */
  async signIn(): Promise<void> {
    for (const role of this.roles) {
      await this.api.call(role, 'GET', 'session');
      this.senders.add((await this.api.userContext(role)).id);
      // a user of each role who sends nothing: a User record for the fuzz to change and delete
      await givenUser(this.server, `bystander-${role}@example.com`, [role]);
    }
  }

  /** Valid values of each field, from the demo's candidates, with the refs the first role granted anything on sees. */
  async validValues(entity: Entity): Promise<Record<string, Value[]>> {
    const role =
      this.roles.find((r) => this.model.roles[r]?.entities[entity.name] !== undefined) ?? this.roles[0]!;
    const refIds = await refIdsFor(this.api, role, entity.name);
    const out: Record<string, Value[]> = {};
    for (const field of Object.values(entity.fields))
      out[field.name] = candidates(field, this.clock.now(), refIds);
    return out;
  }

  /** Whole valid create inputs of each role that may create (a few per role: unique fields differ). */
  async validCreates(entity: Entity): Promise<Record<string, Value>[]> {
    const out: Record<string, Value>[] = [];
    for (const role of this.roles) {
      const access = this.model.roles[role]?.entities[entity.name];
      if (access === undefined || access.create === false) continue;
      const user = await this.api.userContext(role);
      const refIds = await refIdsFor(this.api, role, entity.name);
      const writable = writableList(this.model, user, entity.name, 'create', null);
      for (let i = 0; i < 4; i++) {
        try {
          out.push(
            generateRecord(this.model, entity.name, user, { writable, refIds, now: this.clock.now() }).input,
          );
        } catch {
          break; // no values satisfy its rules as this role
        }
      }
    }
    return out;
  }

  /**
   * Who sends a request: mostly a role whose grants allow the action (and for a transition, one it
   * names), else any role, now and then a guest.
   */
  readonly who = (
    entity: Entity,
    action: 'create' | 'update' | 'delete',
    roles: readonly string[] | null = null,
  ) => {
    const granted = (roles ?? this.roles).filter((r) => {
      const access = this.model.roles[r]?.entities[entity.name];
      return access !== undefined && access[action] !== false;
    });
    const anyone = fc.option(fc.constantFrom(...this.roles), { freq: 20, nil: null });
    return granted.length === 0
      ? anyone
      : fc.oneof({ weight: 2, arbitrary: fc.constantFrom(...granted) }, { weight: 1, arbitrary: anyone });
  };

  /** If-Match: the record's version mostly; sometimes stale, absent or not a version at all. */
  readonly ifMatch = () =>
    fc.oneof(
      { weight: 8, arbitrary: fc.constant<Attempt['ifMatch']>(CURRENT) },
      { weight: 1, arbitrary: fc.constant(null) },
      {
        weight: 1,
        arbitrary: fc.constantFrom<Attempt['ifMatch']>(
          STALE,
          '"99999999999999999999"',
          '*',
          'W/"1"',
          '"abc"',
          '1',
          '""',
          '"-1"',
        ),
      },
    );

  /** A body around a patch: as it is, with unknown keys, or replaced by something that is not an object. */
  body(patch: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<{ body: unknown; raw: boolean }> {
    const extra = fc.dictionary(unknownKey, fieldValue(ANY_FIELD, []), { maxKeys: 2 });
    return fc.oneof(
      { weight: 6, arbitrary: patch.map((p) => ({ body: p, raw: false })) },
      {
        weight: 2,
        arbitrary: fc.tuple(patch, extra).map(([p, e]) => ({
          body: Object.fromEntries([...Object.entries(p), ...Object.entries(e)]),
          raw: false,
        })),
      },
      { weight: 1, arbitrary: notAnObject.map((b) => ({ body: b, raw: false })) },
      { weight: 1, arbitrary: notJson.map((b) => ({ body: b, raw: true })) },
    );
  }

  /** Every write operation of the model, creates and changes first, deletes last. */
  async operations(): Promise<{ changes: Operation[]; deletes: Operation[] }> {
    const changes: Operation[] = [];
    const deletes: Operation[] = [];
    for (const entity of Object.values(this.model.entities)) {
      const path = `${this.base}/${entity.resource}`;
      const valid = await this.validValues(entity);
      const creates = await this.validCreates(entity);
      const fields = Object.values(entity.fields);
      const anyRecord = async () => {
        const all = await this.versions(entity);
        return all.length === 0 ? [{ id: 'no-such-record', version: 1, state: null }] : all;
      };

      changes.push({
        name: `${entity.name}: create`,
        attempts: async (seed) => {
          const fuzzed = fc.record(
            Object.fromEntries(fields.map((f) => [f.name, fieldValue(f, valid[f.name] ?? [])])),
            { requiredKeys: [] },
          );
          const mutated =
            creates.length === 0
              ? fuzzed
              : fc
                  .tuple(fc.constantFrom(...creates), fc.constantFrom(...fields), fc.nat(), fuzzed)
                  .map(([input, field, pick, noise]) =>
                    pick % 3 === 0
                      ? input // as the demo would make it
                      : { ...input, [field.name]: noise[field.name] ?? null },
                  );
          const bodies = fc.oneof({ weight: 3, arbitrary: mutated }, { weight: 1, arbitrary: fuzzed });
          const arbitrary = fc.record({
            role: this.who(entity, 'create'),
            key: idempotencyKey,
            body: this.body(bodies),
          });
          return fc.sample(arbitrary, { numRuns: RUNS, seed }).map(({ role, key, body }) => ({
            key,
            role,
            method: 'POST',
            url: path,
            ...body,
            ifMatch: null,
            target: null,
          }));
        },
      });

      for (const field of fields) {
        changes.push({
          name: `${entity.name}: PATCH ${field.name}`,
          attempts: async (seed) => {
            const records = await anyRecord();
            const arbitrary = fc.constantFrom(...records).chain((r) =>
              fc.record({
                record: fc.constant(r),
                key: idempotencyKey,
                id: fc.oneof({ weight: 9, arbitrary: fc.constant(r.id) }, fc.constantFrom(...ODD_IDS)),
                role: this.who(entity, 'update'),
                ifMatch: this.ifMatch(),
                body: this.body(
                  fc.record({ [field.name]: fieldValue(field, valid[field.name] ?? []) }) as fc.Arbitrary<
                    Record<string, unknown>
                  >,
                ),
              }),
            );
            return fc
              .sample(arbitrary, { numRuns: RUNS, seed })
              .map(({ record, id, role, key, ifMatch, body }) => ({
                key,
                role,
                method: 'PATCH',
                url: `${path}/${id}`,
                ...body,
                ifMatch,
                target: { entity, id: record.id },
              }));
          },
        });
      }

      for (const transition of Object.values(this.model.states[entity.name]?.transitions ?? {})) {
        changes.push({
          name: `${entity.name}: ${transition.name}`,
          attempts: async (seed) => {
            const records = await anyRecord();
            const ready = records.filter((r) => r.state !== null && transition.from.includes(r.state));
            const patchFields = fields.filter((f) => transition.require.includes(f.name) || !f.readonly);
            const patch = fc.record(
              Object.fromEntries(
                patchFields.map((f) => [
                  f.name,
                  transition.require.includes(f.name)
                    ? fc.oneof(
                        fc.constantFrom(...(valid[f.name] ?? [null])),
                        fieldValue(f, valid[f.name] ?? []),
                      )
                    : fieldValue(f, valid[f.name] ?? []),
                ]),
              ),
              { requiredKeys: [] },
            );
            const target =
              ready.length > 0
                ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...ready) }, fc.constantFrom(...records))
                : fc.constantFrom(...records);
            const arbitrary = target.chain((r) =>
              fc.record({
                record: fc.constant(r),
                key: idempotencyKey,
                id: fc.oneof({ weight: 9, arbitrary: fc.constant(r.id) }, fc.constantFrom(...ODD_IDS)),
                role: this.who(entity, 'update', transition.roles),
                ifMatch: this.ifMatch(),
                body: fc.oneof(
                  { weight: 1, arbitrary: fc.constant({ body: undefined, raw: false }) },
                  { weight: 4, arbitrary: this.body(patch as fc.Arbitrary<Record<string, unknown>>) },
                ),
              }),
            );
            return fc
              .sample(arbitrary, { numRuns: RUNS, seed })
              .map(({ record, id, role, key, ifMatch, body }) => ({
                key,
                role,
                method: 'POST',
                url: `${path}/${id}/transitions/${transition.name}`,
                ...body,
                ifMatch,
                target: { entity, id: record.id },
              }));
          },
        });
      }

      deletes.push({
        name: `${entity.name}: delete`,
        attempts: async (seed) => {
          const records = await anyRecord();
          const arbitrary = fc.constantFrom(...records).chain((r) =>
            fc.record({
              record: fc.constant(r),
              key: idempotencyKey,
              id: fc.oneof({ weight: 9, arbitrary: fc.constant(r.id) }, fc.constantFrom(...ODD_IDS)),
              role: this.who(entity, 'delete'),
              ifMatch: fc.oneof(this.ifMatch(), fc.constant(null)),
              body: fc.oneof(
                { weight: 4, arbitrary: fc.constant({ body: undefined, raw: false }) },
                { weight: 1, arbitrary: notAnObject.map((b) => ({ body: b, raw: false })) },
              ),
            }),
          );
          return fc
            .sample(arbitrary, { numRuns: RUNS, seed })
            .map(({ record, id, role, key, ifMatch, body }) => ({
              key,
              role,
              method: 'DELETE',
              url: `${path}/${id}`,
              ...body,
              ifMatch,
              target: { entity, id: record.id },
            }));
        },
      });
    }
    return { changes, deletes };
  }

  /** Every stored row that the engine would not accept, one line each (`invalidStoredRows`). */
  async invalidRows(): Promise<{ checked: number; invalid: string[] }> {
    const users = new Map<string, UserContext>();
    for (const role of this.roles) {
      const context = await this.api.userContext(role);
      users.set(context.id, context);
    }
    return invalidStoredRows(this.server.database, this.model, users, this.clock.now());
  }
}

/** A field of no type in particular: values of every kind for unknown keys. */
const ANY_FIELD = plainField('unknown', 'string');

// the real PostgreSQL server, never PGlite: testkit's databases follow TEST_DATABASE_URL
process.env['TEST_DATABASE_URL'] = POSTGRES_URL;
beforeAll(async () => {
  await (await connectPostgres()).end();
});

console.log(`fuzz: seed ${String(SEED)} (FUZZ_SEED), ${String(RUNS)} requests per write (FUZZ_RUNS)`);

for (const example of EXAMPLES) {
  for (const dialect of DIALECTS) {
    describe(`${example} on ${dialect}`, () => {
      it(`answers every fuzzed write below 500 with catalogue problems, and stores only valid rows`, async () => {
        const model = exampleModel(example);
        const clock = movingClock();
        const server = await testServer(dialect, model, { now: clock.now });
        const accounts = await seedDemoAccounts(server.database, model);
        await seedDemoData(server.app, server.database, model, accounts);
        clock.advance(61_000);
        const fuzz = new Fuzz(server, clock, accounts);
        await fuzz.signIn();
        const { changes, deletes } = await fuzz.operations();
        const operations = [...changes, ...deletes];
        const started = performance.now();
        let checked = 0;
        const invalid: string[] = [];
        // the rows are validated again after the creates and changes, and once more after the deletes
        for (const phase of [changes, deletes]) {
          for (const operation of phase) {
            const seed = SEED + operations.indexOf(operation);
            for (const attempt of await operation.attempts(seed)) await fuzz.send(operation.name, attempt);
          }
          const rows = await fuzz.invalidRows();
          checked += rows.checked;
          invalid.push(...rows.invalid);
        }
        const { tried, ok, refused, failures } = fuzz.tally;
        console.log(
          `fuzz ${example} ${dialect}: ${String(operations.length)} writes, ${String(tried)} requests ` +
            `(${String(ok)} done, ${String(refused)} refused), ${String(failures.length)} failures; ` +
            `${String(checked)} row validations (after the changes, and again after the deletes), ${String(invalid.length)} invalid ` +
            `(${String(Math.round(performance.now() - started))} ms)`,
        );
        if (process.env['FUZZ_DEBUG'] !== undefined) {
          console.log([...fuzz.answers].map(([k, n]) => `${k}: ${String(n)}`).join('\n'));
        }
        expect(failures.slice(0, 20)).toEqual([]);
        expect(invalid.slice(0, 20)).toEqual([]);
        expect(tried).toBeGreaterThanOrEqual(operations.length * RUNS);
      });
    });
  }
}
