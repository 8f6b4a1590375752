/**
 * Indexes follow the screens (decision 0048): the page query the server runs for a declared list
 * screen — with a role's read condition, the screen's `where` and its sort — and for a child list
 * reached from a parent (`?<ref>=<id>`, newest first) is served by an index, with no sort step. The
 * SQL is the server's own, caught on its way to the database during a real request, and the plan is
 * the database's: SQLite's EXPLAIN QUERY PLAN, PostgreSQL's EXPLAIN with sequential scans and sorts
 * priced out, so that a sort left in the plan is one no index could spare.
 */
import { type Model } from '@ninefold/model';
import { CompiledQuery, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { type Database } from '../src/index.js';
import {
  CSRF,
  DIALECTS,
  type TestDialect,
  type TestServer,
  checkedInject,
  givenUser,
  login,
  specModel,
  testServer,
} from '@ninefold/testkit';

const SPEC = `
product: { name: Field service }
entities:
  Site:
    fields:
      name: { type: string, required: true }
  Job:
    owner: engineer
    fields:
      title: { type: string, required: true }
      priority: { type: enum, values: [low, high], required: true }
      urgent: { type: boolean, default: false }
      dueOn: { type: date }
      site: { type: ref, to: Site }
      engineer: { type: ref, to: User, default: user.id, readonly: true }
states:
  Job:
    initial: open
    states:
      open: { label: Open }
      done: { label: Done }
    transitions:
      finish: { from: open, to: done, roles: [engineer, dispatcher] }
screens:
  jobs-by-due:
    path: /jobs-by-due
    entity: Job
    title: By due date
    sort: -dueOn
  open-high:
    path: /open-high
    entity: Job
    title: Open and high
    where: "state == 'open' && priority == 'high'"
    sort: dueOn
  urgent:
    path: /urgent
    entity: Job
    title: Urgent
    where: "urgent == true"
  mine:
    path: /mine
    entity: Job
    title: Mine
    where: "own"
    sort: -dueOn
roles:
  engineer:
    Job: { read: own, create: true, update: own }
    Site: { read: true }
  dispatcher:
    Job: { read: true, create: true, update: true }
    Site: { read: true, create: true }
`;

/** A page query the server ran: its text and parameters. */
interface Ran {
  readonly text: string;
  readonly parameters: readonly unknown[];
}

/** Records every SELECT the server runs through `selectValues` (list pages go this way). */
function recordSelects(database: Database): Ran[] {
  const ran: Ran[] = [];
  const original = database.selectValues.bind(database);
  database.selectValues = (text, parameters) => {
    ran.push({ text, parameters });
    return original(text, parameters);
  };
  return ran;
}

/** The plan of a query, one line per step, as the database words it. */
async function plan(database: Database, { text, parameters }: Ran): Promise<string[]> {
  if (database.dialect === 'sqlite') {
    const result = await database.db.executeQuery<{ detail: string }>(
      CompiledQuery.raw(`explain query plan ${text}`, [...parameters]),
    );
    return result.rows.map((r) => r.detail);
  }
  return database.db.transaction().execute(async (tx) => {
    // priced out, not forbidden: a plan keeps a sequential scan or a sort only when nothing else can
    await sql`set local enable_seqscan = off`.execute(tx);
    await sql`set local enable_sort = off`.execute(tx);
    const result = await tx.executeQuery<{ 'QUERY PLAN': string }>(
      CompiledQuery.raw(`explain ${text}`, [...parameters]),
    );
    return result.rows.map((r) => r['QUERY PLAN']);
  });
}

/** Whether a plan reads the table through an index and sorts nothing. */
function servedByIndex(dialect: TestDialect, steps: readonly string[]): { index: boolean; sort: boolean } {
  if (dialect === 'sqlite') {
    return {
      index:
        steps.some((s) => /USING (COVERING )?INDEX/.test(s)) &&
        !steps.some((s) => /^SCAN \S+$/.test(s.trim())),
      sort: steps.some((s) => /TEMP B-TREE/.test(s)),
    };
  }
  return {
    index: steps.some((s) => /Index (Only )?Scan/.test(s)) && !steps.some((s) => /Seq Scan/.test(s)),
    sort: steps.some((s) => /\bSort\b/.test(s)),
  };
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: indexes follow the screens`, () => {
    async function world() {
      const model: Model = specModel(SPEC);
      const server: TestServer = await testServer(dialect, model);
      const cookies: Record<string, string> = {};
      for (const role of ['engineer', 'dispatcher']) {
        await givenUser(server, `${role}@example.com`, [role]);
        const { cookie } = await login(server.app, `${role}@example.com`);
        if (cookie === undefined) throw new Error(`${role} could not sign in`);
        cookies[role] = cookie;
      }
      const get = async (role: string, url: string) => {
        const response = await checkedInject(server.app, model, {
          method: 'GET',
          url,
          headers: { ...CSRF, cookie: cookies[role] ?? '' },
        });
        expect(response.statusCode, response.body).toBe(200);
        return response;
      };
      const post = async (role: string, url: string, payload: object) => {
        const response = await checkedInject(server.app, model, {
          method: 'POST',
          url,
          headers: { ...CSRF, cookie: cookies[role] ?? '' },
          payload,
        });
        expect(response.statusCode, response.body).toBe(201);
        return response.json<{ id: string }>();
      };
      const site = await post('dispatcher', '/api/sites', { name: 'Depot' });
      for (const [i, role] of ['engineer', 'dispatcher', 'engineer'].entries()) {
        await post(role, '/api/jobs', {
          title: `Job ${i}`,
          priority: i % 2 === 0 ? 'high' : 'low',
          urgent: i === 0,
          dueOn: `2026-03-0${i + 1}`,
          site: site.id,
        });
      }
      const ran = recordSelects(server.database);
      /** The plan of the page query a list request ran, and the rows it answered. */
      const listPlan = async (role: string, url: string) => {
        ran.length = 0;
        const response = await get(role, url);
        const page = ran.filter((r) => /\border by\b/i.test(r.text) && /from "jobs"/.test(r.text)).at(-1);
        if (page === undefined) throw new Error(`${url} ran no page query`);
        const steps = await plan(server.database, page);
        const body = response.json<{ data: unknown[]; nextCursor: string | null }>();
        return { steps, served: servedByIndex(dialect, steps), rows: body.data, nextCursor: body.nextCursor };
      };
      return { model, listPlan, site };
    }

    it('serves every declared list screen of every role by an index, without a sort step', async () => {
      const { model, listPlan } = await world();
      const screens = model.screens.filter((s) => s.kind === 'list' && s.entity === 'Job');
      expect(screens.map((s) => s.id).sort()).toEqual(['jobs-by-due', 'mine', 'open-high', 'urgent']);
      for (const screen of screens) {
        for (const role of ['engineer', 'dispatcher']) {
          // as the client asks: the screen, and its sort when it has one
          const sort = screen.sort === null ? '' : `&sort=${screen.sort}`;
          const { steps, served } = await listPlan(role, `/api/jobs?screen=${screen.id}${sort}`);
          expect(served, `${screen.id} as ${role}:\n${steps.join('\n')}`).toEqual({
            index: true,
            sort: false,
          });
        }
      }
    });

    it('serves the next page after a cursor by an index too', async () => {
      const { listPlan } = await world();
      const url = '/api/jobs?screen=jobs-by-due&sort=-dueOn&limit=1';
      const first = await listPlan('engineer', url);
      expect(first.rows).toHaveLength(1);
      expect(first.nextCursor).not.toBeNull();
      const { served, steps, rows } = await listPlan('engineer', `${url}&cursor=${first.nextCursor}`);
      expect(rows).toHaveLength(1);
      expect(served, steps.join('\n')).toEqual({ index: true, sort: false });
    });

    it("serves a parent's child list, newest first, by an index", async () => {
      const { listPlan, site } = await world();
      for (const role of ['engineer', 'dispatcher']) {
        const { steps, served, rows } = await listPlan(role, `/api/jobs?site=${site.id}&sort=-createdAt`);
        expect(rows.length).toBeGreaterThan(0);
        expect(served, `${role}:\n${steps.join('\n')}`).toEqual({ index: true, sort: false });
      }
    });

    it('still sorts a list no screen declares: the probe sees a sort step when there is one', async () => {
      const { listPlan } = await world();
      const { steps, served } = await listPlan('dispatcher', '/api/jobs?sort=title');
      expect(served.sort, steps.join('\n')).toBe(true);
    });
  });
}
