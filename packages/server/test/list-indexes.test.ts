/**
 * Indexes follow the screens (decision 0048): the page query the server runs for a declared list
 * screen — with a role's read condition, the screen's `where` and its sort — and for a child list
 * reached from a parent (`?<ref>=<id>`, newest first) is served by an index, with no sort step. The
 * SQL is the server's own, caught on its way to the database during a real request, and the plan is
 * the database's: SQLite's EXPLAIN QUERY PLAN, PostgreSQL's EXPLAIN with sequential scans and sorts
 * priced out, so that a sort left in the plan is one no index could spare.
 */
import { type Model, type Screen } from '@ninefold/model';
import { CompiledQuery, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { type Database, apiPath, desiredSchema, tableName } from '../src/index.js';
import { newId } from '../src/ids.js';
import {
  CSRF,
  DIALECTS,
  type TestDialect,
  type TestServer,
  checkedInject,
  exampleModel,
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

/** The examples whose every list screen is probed. */
const EXAMPLES = ['expense-claims.md', 'helpdesk.md', 'library-loans.md', 'bookings.yaml'];

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
      // a list of refs is aggregated per row in its items' order (decision 0044): not the page's sort
      sort: steps.some((s) => /TEMP B-TREE/.test(s) && !/FOR json_group_array\(ORDER BY\)/.test(s)),
    };
  }
  return {
    index: steps.some((s) => /Index (Only )?Scan/.test(s)) && !steps.some((s) => /Seq Scan/.test(s)),
    sort: outsideSubPlans(steps).some((s) => /\bSort\b/.test(s)),
  };
}

/**
 * The steps of a PostgreSQL plan that are not part of a SubPlan: a list of refs is aggregated per
 * row in its items' order (decision 0044), which is not the page's sort.
 */
function outsideSubPlans(steps: readonly string[]): string[] {
  const depth = (step: string) => step.length - step.trimStart().length;
  const out: string[] = [];
  let inside: number | null = null;
  for (const step of steps) {
    if (inside !== null && depth(step) > inside) continue;
    inside = /^\s*SubPlan\b/.test(step) ? depth(step) : null;
    if (inside === null) out.push(step);
  }
  return out;
}

/**
 * A server of a model on a fresh database with one signed-in user per role, and the plan of the page
 * query a list request runs.
 */
async function probe(dialect: TestDialect, model: Model) {
  const server: TestServer = await testServer(dialect, model);
  const cookies: Record<string, string> = {};
  for (const role of Object.keys(model.roles)) await givenUser(server, `${role}@example.com`, [role]);
  // every user belongs somewhere (a ref of the User entity: their organisation, say), so that a
  // condition on `user.<ref>` is a real equality and not a condition that holds for no row
  for (const field of Object.values(model.entities['User']?.fields ?? {})) {
    const target =
      field.type === 'ref' && !field.many && field.to !== null ? model.entities[field.to] : undefined;
    if (target === undefined || target.builtin) continue;
    const [id, at] = [newId(), new Date().toISOString()];
    await server.database.db
      .insertInto(tableName(target.resource))
      .values({ id, createdAt: at, updatedAt: at, version: 1 })
      .execute();
    await server.database.db.updateTable('users').set(field.name, id).execute();
  }
  for (const role of Object.keys(model.roles)) {
    const { cookie } = await login(server.app, `${role}@example.com`);
    if (cookie === undefined) throw new Error(`${role} could not sign in`);
    cookies[role] = cookie;
  }
  const send = (role: string, method: 'GET' | 'POST', url: string, payload?: object) =>
    checkedInject(server.app, model, {
      method,
      url,
      headers: { ...CSRF, cookie: cookies[role] ?? '' },
      ...(payload === undefined ? {} : { payload }),
    });
  const post = async (role: string, url: string, payload: object) => {
    const response = await send(role, 'POST', url, payload);
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ id: string }>();
  };
  const ran = recordSelects(server.database);
  /** The plan of the page query a list request ran, and what it answered. */
  const listPlan = async (role: string, resource: string, query: string) => {
    ran.length = 0;
    const response = await send(role, 'GET', `${apiPath(model, resource)}?${query}`);
    expect(response.statusCode, response.body).toBe(200);
    const from = `from "${tableName(resource)}"`;
    const page = ran.filter((r) => /\border by\b/i.test(r.text) && r.text.includes(from)).at(-1);
    if (page === undefined) throw new Error(`${resource}?${query} ran no page query`);
    const steps = await plan(server.database, page);
    const body = response.json<{ data: unknown[]; nextCursor: string | null }>();
    return { steps, served: servedByIndex(dialect, steps), rows: body.data, nextCursor: body.nextCursor };
  };
  return { post, listPlan };
}

/** The query string the client sends for a list screen: the screen, and its sort when it has one. */
function screenQuery(screen: Screen): string {
  return `screen=${screen.id}${screen.sort === null ? '' : `&sort=${screen.sort}`}`;
}

/** The roles that may open a list screen: those it names (or all) that may read its entity. */
function rolesOf(model: Model, screen: Screen): string[] {
  return Object.values(model.roles)
    .filter((role) => screen.roles === null || screen.roles.includes(role.name))
    .filter((role) => (role.entities[screen.entity ?? '']?.read ?? false) !== false)
    .map((role) => role.name);
}

/** Whether a role's list of a screen admits rows by any of several values: an `in`, an `||`, grants. */
function disjunctive(model: Model, screen: Screen, role: string): boolean {
  const read = model.roles[role]?.entities[screen.entity ?? '']?.read ?? false;
  const sources = screen.where === null ? [] : [screen.where.source];
  if (read !== true && read !== false) {
    if (read.any.length > 1) return true;
    sources.push(...read.any.map((e) => e.source));
  }
  return sources.some((source) => /\|\||\bin\b/.test(source));
}

describe('indexes no screen needs', () => {
  it('are not asked for: every index costs every write', () => {
    const jobs = desiredSchema(specModel(SPEC)).tables['jobs'];
    const indexed = new Set(jobs?.indexes.flatMap((i) => i.columns));
    // a field no screen, filter or ref mentions, and modification order, which no screen sorts by
    expect(indexed.has('title')).toBe(false);
    expect(indexed.has('updatedAt')).toBe(false);
    // what the screens do mention is indexed
    for (const column of ['engineer', 'state', 'priority', 'urgent', 'dueOn', 'site']) {
      expect(indexed.has(column), column).toBe(true);
    }
  });
});

for (const dialect of DIALECTS) {
  // PGlite in a busy process is slow: each case runs a dozen requests and plans
  describe(`${dialect}: indexes follow the screens`, { timeout: 180_000 }, () => {
    async function world() {
      const model: Model = specModel(SPEC);
      const { post, listPlan: plan } = await probe(dialect, model);
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
      const listPlan = (role: string, url: string) => plan(role, 'jobs', url.replace(/^\/api\/jobs\?/, ''));
      return { model, listPlan, site };
    }

    it('serves every declared list screen of every role by an index, without a sort step', async () => {
      const { model, listPlan } = await world();
      const screens = model.screens.filter((s) => s.kind === 'list' && s.entity === 'Job');
      expect(screens.map((s) => s.id).sort()).toEqual(['jobs-by-due', 'mine', 'open-high', 'urgent']);
      for (const screen of screens) {
        for (const role of ['engineer', 'dispatcher']) {
          const { steps, served } = await listPlan(role, `/api/jobs?${screenQuery(screen)}`);
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

    // a condition that admits rows of several values (an `in`, an `||`, several grants) may be
    // answered by a seek per value and a sort of what they find, the planner's choice (decision 0048)
    it.each(EXAMPLES)('serves every list screen of %s, for every role that may open it', async (file) => {
      const model = exampleModel(file);
      const { listPlan } = await probe(dialect, model);
      let probed = 0;
      for (const screen of model.screens) {
        if (screen.kind !== 'list' || screen.entity === null) continue;
        const resource = model.entities[screen.entity]?.resource ?? '';
        for (const role of rolesOf(model, screen)) {
          const { steps, served } = await listPlan(role, resource, screenQuery(screen));
          const what = `${screen.id} as ${role}:\n${steps.join('\n')}`;
          expect(served.index, what).toBe(true);
          if (!disjunctive(model, screen, role)) expect(served.sort, what).toBe(false);
          probed++;
        }
      }
      expect(probed).toBeGreaterThan(3);
    });

    it('still sorts a list no screen declares: the probe sees a sort step when there is one', async () => {
      const { listPlan } = await world();
      const { steps, served } = await listPlan('dispatcher', '/api/jobs?sort=title');
      expect(served.sort, steps.join('\n')).toBe(true);
    });
  });
}
