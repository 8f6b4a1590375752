/**
 * `GET <basePath>/dashboards/<screen>` (decision 0046) on SQLite and PostgreSQL: every measure and
 * grouping over exactly the rows the viewer may read, labels, date buckets, field masks, 404s — and,
 * over random data and roles, every figure equal to what the list API's rows give by hand.
 */
import { type DashboardFigures, type Model, type WidgetFigure } from '@ninefold/model';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DIALECTS,
  type TestServer,
  checkedInject,
  givenUser,
  login,
  problem,
  specModel,
  testServer,
} from '@ninefold/testkit';
import { SPEC, figureByHand, listAll, sortByKey, unlabelled } from './dashboard-world.js';
import { PDF, multipart } from './files-world.js';
import { type Client, type Json, exampleWorld } from './world.js';
import { CSRF } from '@ninefold/testkit';

/** The fields the auditor may read (the spec's `fields.read`), and the system ones. */
const AUDITED = ['title', 'kind', 'day', 'team', 'traveller', 'state'];
const ROLES = {
  tina: ['traveller'],
  tom: ['traveller'],
  bea: ['boss'],
  aud: ['auditor'],
  wat: ['watcher'],
  out: ['outsider'],
};

async function signedIn(
  server: TestServer,
  model: Model,
  name: string,
  roles: readonly string[],
): Promise<Client> {
  const user = await givenUser(server, `${name}@example.com`, roles);
  const { cookie } = await login(server.app, `${name}@example.com`);
  if (cookie === undefined) throw new Error(`${name} could not sign in`);
  const request: Client['request'] = (method, url, payload, headers = {}) =>
    checkedInject(server.app, model, {
      method,
      url,
      headers: { ...CSRF, cookie, ...headers },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  return {
    id: user.id,
    request,
    get: (url) => request('GET', url),
    post: (url, payload, headers) => request('POST', url, payload ?? {}, headers),
    patch: (url, payload, version) => request('PATCH', url, payload, { 'if-match': `"${version}"` }),
    fire: (url, transition, version, payload = {}) =>
      request('POST', `${url}/transitions/${transition}`, payload, { 'if-match': `"${version}"` }),
  };
}

async function world(dialect: (typeof DIALECTS)[number]) {
  const model = specModel(SPEC);
  const server = await testServer(dialect, model);
  const as: Record<string, Client> = {};
  for (const [name, roles] of Object.entries(ROLES)) as[name] = await signedIn(server, model, name, roles);
  return { model, server, as };
}

async function created(client: Client, url: string, payload: Json): Promise<Json> {
  const response = await client.post(url, payload);
  if (response.statusCode !== 201) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
  return response.json<Json>();
}

async function figures(client: Client, screen = 'figures'): Promise<Record<string, WidgetFigure>> {
  const response = await client.get(`/api/dashboards/${screen}`);
  expect(response.statusCode, response.body).toBe(200);
  const body = response.json<DashboardFigures>();
  expect(body.screen).toBe(screen);
  return Object.fromEntries(body.widgets.map((w) => [w.id, w]));
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: dashboards`, () => {
    it('measures and groups only the rows each viewer may read, labelled', async () => {
      const { as } = await world(dialect);
      const north = await created(as.bea!, '/api/teams', { name: 'North' });
      const south = await created(as.bea!, '/api/teams', { name: 'South' });
      const trip = (client: Client, fields: Json) =>
        created(client, '/api/trips', { title: 'A trip', ...fields });
      await trip(as.tina!, {
        kind: 'rail',
        km: 120,
        amount: '10.10',
        rate: '0.250',
        day: '2026-01-05',
        at: '2026-01-05T23:30:00Z',
        urgent: true,
        team: north['id'],
      });
      await trip(as.tina!, {
        kind: 'air',
        km: 800,
        amount: '200.00',
        rate: '1.125',
        day: '2026-03-31',
        at: '2026-03-31T00:10:00+02:00',
        urgent: false,
        team: south['id'],
      });
      await trip(as.tom!, {
        kind: 'rail',
        km: 35,
        amount: '5.05',
        day: '2026-01-11',
        urgent: true,
        team: north['id'],
      });
      const bossTrip = await trip(as.bea!, {
        kind: 'car',
        km: 1,
        amount: '0.01',
        rate: '2.000',
        day: null,
        urgent: null,
      });
      const fired = await as.bea!.fire(`/api/trips/${String(bossTrip['id'])}`, 'finish', 1);
      expect(fired.statusCode, fired.body).toBe(200);

      // the boss reads all four
      const all = await figures(as.bea!);
      expect(all['trips']!.value).toBe(4);
      expect(all['kilometres']!.value).toBe(956);
      expect(all['spent']!.value).toBe('215.16');
      expect(all['average-spend']!.value).toBe('53.79');
      expect(all['lowest-rate']!.value).toBe('0.250');
      expect(all['longest']!.value).toBe(800);
      expect(all['average-distance']!.value).toBe('239.00');
      expect(all['highest-spend']!.value).toBe('200.00');
      expect(all['by-kind']!.groups).toEqual([
        { key: 'rail', label: 'Rail', value: 2 },
        { key: 'air', label: 'Air', value: 1 },
        { key: 'car', label: 'Car', value: 1 },
      ]);
      expect(all['by-state']!.groups).toEqual([
        { key: 'planned', label: 'Planned', value: 3 },
        { key: 'done', label: 'Done and dusted', value: 1 },
      ]);
      expect(all['spent-by-team']!.groups).toEqual([
        { key: north['id'], label: 'North', value: '15.15' },
        { key: south['id'], label: 'South', value: '200.00' },
        { key: null, label: '(none)', value: '0.01' },
      ]);
      expect(all['urgent-or-not']!.groups).toEqual([
        { key: false, label: 'No', value: 1 },
        { key: true, label: 'Yes', value: 2 },
        { key: null, label: '(none)', value: 1 },
      ]);
      // months from the first to the last, February filled in with no rows; the undated trip last
      expect(all['by-month']!.groups).toEqual([
        { key: '2026-01-01', label: 'January 2026', value: 2 },
        { key: '2026-02-01', label: 'February 2026', value: 0 },
        { key: '2026-03-01', label: 'March 2026', value: 1 },
        { key: null, label: '(none)', value: 1 },
      ]);
      // ISO weeks from Monday: 5 January 2026 is a Monday, the 11th a Sunday of the same week
      const weeks = all['kilometres-by-week']!.groups!;
      expect(weeks[0]).toEqual({ key: '2026-01-05', label: 'Week of 5 Jan 2026', value: 155 });
      expect(weeks[1]).toEqual({ key: '2026-01-12', label: 'Week of 12 Jan 2026', value: null });
      expect(weeks.at(-2)).toEqual({ key: '2026-03-30', label: 'Week of 30 Mar 2026', value: 800 });
      expect(weeks.at(-1)).toEqual({ key: null, label: '(none)', value: 1 });
      // instants by their UTC day: 00:10 at +02:00 is the 30th in UTC
      const days = all['by-day']!.groups!;
      expect(days[0]).toEqual({ key: '2026-01-05', label: '5 Jan 2026', value: 1 });
      expect(days.filter((d) => d.value !== 0).map((d) => d.key)).toEqual(['2026-01-05', '2026-03-30', null]);
      expect(all['rail-trips']!.value).toBe(2);
      expect(all['by-traveller']!.groups).toEqual([
        { key: as.bea!.id, label: 'bea', value: 1 },
        { key: as.tina!.id, label: 'tina', value: 2 },
        { key: as.tom!.id, label: 'tom', value: 1 },
      ]);

      // a traveller reads their own; other travellers' names are not theirs to read
      const own = await figures(as.tina!);
      expect(own['trips']!.value).toBe(2);
      expect(own['spent']!.value).toBe('210.10');
      expect(own['rail-trips']!.value).toBe(1);
      expect(own['by-kind']!.groups).toEqual([
        { key: 'rail', label: 'Rail', value: 1 },
        { key: 'air', label: 'Air', value: 1 },
      ]);
      expect(own['by-traveller']!.groups?.map((g) => g.key)).toEqual([as.tina!.id]);

      // a condition: the watcher reads the urgent ones
      const urgent = await figures(as.wat!);
      expect(urgent['trips']!.value).toBe(2);
      expect(urgent['kilometres']!.value).toBe(155);
    });

    it('leaves out the widgets whose field the viewer’s mask hides, and never names an unreadable ref', async () => {
      const { as } = await world(dialect);
      const north = await created(as.bea!, '/api/teams', { name: 'North' });
      await created(as.tina!, '/api/trips', {
        title: 'Out',
        kind: 'rail',
        km: 3,
        amount: '1.00',
        day: '2026-02-02',
        team: north['id'],
      });
      const seen = await figures(as.aud!);
      // km, amount, rate, urgent and at are outside the auditor's fields; state, kind, day, team are in
      expect(Object.keys(seen)).toEqual([
        'trips',
        'by-kind',
        'by-state',
        'by-month',
        'rail-trips',
        'by-traveller',
        'by-team',
      ]);
      // the auditor may not read the teams: their groups are counted, never named, never by their id
      expect(seen['by-team']!.groups).toEqual([{ key: north['id'], label: '(hidden)', value: 1 }]);
      expect(JSON.stringify(seen)).not.toContain('North');
      // every role reads users' names (the built-in User's default)
      expect(seen['by-traveller']!.groups).toEqual([{ key: as.tina!.id, label: 'tina', value: 1 }]);
      // the boss reads the team
      const all = await figures(as.bea!);
      expect(all['by-team']!.groups).toEqual([{ key: north['id'], label: 'North', value: 1 }]);

      // no read of Trip at all: the screen opens, with no figure
      const none = await as.out!.get('/api/dashboards/figures');
      expect(none.statusCode).toBe(200);
      expect(none.json<DashboardFigures>().widgets).toEqual([]);
    });

    it('answers 404 for an unknown screen, a screen that is no dashboard and one the roles may not open', async () => {
      const { as, server } = await world(dialect);
      const open = await as.bea!.get('/api/dashboards/boss-figures');
      expect(open.statusCode).toBe(200);
      // rate-limited like every read
      expect(open.headers['x-ratelimit-limit']).toBe('600');
      expect(Number(open.headers['x-ratelimit-remaining'])).toBeLessThan(600);
      for (const url of ['/api/dashboards/nothing', '/api/dashboards/trips', '/api/dashboards/__proto__']) {
        const response = await as.bea!.get(url);
        expect(response.statusCode, url).toBe(404);
        expect(problem(response).code).toBe('E_NOT_FOUND');
      }
      const refused = await as.tina!.get('/api/dashboards/boss-figures');
      expect(refused.statusCode).toBe(404);
      expect(problem(refused).code).toBe('E_NOT_FOUND');
      const anonymous = await server.app.inject({ method: 'GET', url: '/api/dashboards/figures' });
      expect(anonymous.statusCode).toBe(401);
    });

    it('serves each role of the expense-claims example its own dashboard', async () => {
      const { as } = await exampleWorld(dialect, 'expense-claims.md', {
        ann: ['employee'],
        bob: ['employee'],
        mia: ['director'],
        fin: ['finance'],
        aud: ['auditor'],
      });
      // each claim with a receipt of its own, uploaded first
      const claim = async (by: Client, amount: string, spentOn: string) => {
        const upload = multipart([
          { name: 'file', filename: 'receipt.pdf', bytes: PDF, type: 'application/pdf' },
        ]);
        const receipt = (await by.request('POST', '/api/files', upload.payload, upload.headers)).json<Json>();
        return created(by, '/api/claims', {
          title: 'Train to Lyon',
          category: 'travel',
          amount,
          spentOn,
          receipt: receipt['id'],
        });
      };
      const first = await claim(as.ann!, '12.50', '2026-01-20');
      await claim(as.ann!, '7.25', '2026-02-03');
      await claim(as.bob!, '100.00', '2026-02-04');
      const submitted = await as.ann!.fire(`/api/claims/${String(first['id'])}`, 'submit', 1);
      expect(submitted.statusCode, submitted.body).toBe(200);

      const mine = await figures(as.ann!, 'my-figures');
      expect(mine['my-claims-by-state']!.groups).toEqual([
        { key: 'draft', label: 'Draft', value: 1 },
        { key: 'submitted', label: 'Waiting for approval', value: 1 },
      ]);
      expect(mine['claimed-by-month']!.groups).toEqual([
        { key: '2026-01-01', label: 'January 2026', value: '12.50' },
        { key: '2026-02-01', label: 'February 2026', value: '7.25' },
      ]);
      expect(mine['waiting-for-approval']!.value).toBe('12.50');

      const approvals = await figures(as.mia!, 'approval-figures');
      expect(approvals['amount-awaiting-approval']!.value).toBe('12.50');
      expect(approvals['awaiting-approval-by-department']!.groups).toEqual([
        { key: null, label: '(none)', value: 1 },
      ]);
      // finance reads approved and paid claims only: none yet
      const totals = await figures(as.fin!, 'finance-figures');
      expect(totals['claims-to-pay']!.value).toBe(0);
      expect(totals['amount-to-pay']!.value).toBeNull();
      expect(totals['claims-by-state']!.groups).toEqual([]);
      // the auditor reads every claim's amount
      const audited = await figures(as.aud!, 'finance-figures');
      expect(audited['average-claim']!.value).toBe('39.92');
      // an employee may not open the others' dashboards
      expect((await as.ann!.get('/api/dashboards/finance-figures')).statusCode).toBe(404);
      expect((await as.ann!.get('/api/dashboards/approval-figures')).statusCode).toBe(404);
    });

    it('serves the generated dashboard a product asks for, each role its readable entities', async () => {
      const model = specModel(`
product: { name: Trips, dashboard: true }
${SPEC.slice(SPEC.indexOf('entities:'), SPEC.indexOf('screens:'))}`);
      const server = await testServer(dialect, model);
      const tina = await signedIn(server, model, 'tina', ['traveller']);
      const out = await signedIn(server, model, 'out', ['outsider']);
      await created(tina, '/api/trips', { title: 'Mine', kind: 'rail' });
      const theirs = await figures(tina, 'dashboard');
      expect(theirs['teams']!.value).toBe(0);
      expect(theirs['trips']!.groups).toEqual([{ key: 'planned', label: 'Planned', value: 1 }]);
      // the outsider reads teams, not trips: the trips' widget is left out
      expect(Object.keys(await figures(out, 'dashboard'))).toEqual(['teams']);
    });

    it('gives every figure as the listed rows give it by hand, over random data and roles', async () => {
      const { model, as } = await world(dialect);
      const teams = [
        await created(as.bea!, '/api/teams', { name: 'North' }),
        await created(as.bea!, '/api/teams', { name: 'South' }),
      ];
      const widgets = model.screens.find((s) => s.id === 'figures')!.widgets;
      const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null });
      const trip = fc.record({
        by: fc.constantFrom('tina', 'tom', 'bea'),
        kind: maybe(fc.constantFrom('rail', 'air', 'car')),
        km: maybe(fc.integer({ min: -50, max: 5000 })),
        amount: maybe(
          fc
            .integer({ min: 0, max: 99999 })
            .map((c) => `${Math.floor(c / 100)}.${String(c % 100).padStart(2, '0')}`),
        ),
        rate: maybe(fc.integer({ min: 1, max: 9999 }).map((r) => (r / 1000).toFixed(3))),
        day: maybe(
          fc
            .date({ min: new Date('2025-11-01'), max: new Date('2026-04-30'), noInvalidDate: true })
            .map((d) => d.toISOString().slice(0, 10)),
        ),
        at: maybe(
          fc
            .date({ min: new Date('2026-01-01'), max: new Date('2026-02-28'), noInvalidDate: true })
            .map((d) => d.toISOString()),
        ),
        urgent: maybe(fc.boolean()),
        team: maybe(fc.constantFrom(0, 1)),
        finish: fc.boolean(),
      });
      let made: string[] = [];
      await fc.assert(
        fc.asyncProperty(
          fc.array(trip, { maxLength: 8 }),
          fc.constantFrom('tina', 'bea', 'aud', 'wat', 'out'),
          async (trips, viewer) => {
            for (const id of made) await as.bea!.request('DELETE', `/api/trips/${id}`);
            made = [];
            for (const t of trips) {
              const { by, team, finish, ...fields } = t;
              const record = await created(as[by]!, '/api/trips', {
                title: 'Trip',
                ...fields,
                team: team === null ? null : teams[team]!['id'],
              });
              made.push(String(record['id']));
              if (finish) await as.bea!.fire(`/api/trips/${String(record['id'])}`, 'finish', 1);
            }
            const client = as[viewer]!;
            const listed = viewer === 'out' ? [] : await listAll(client, 'trips');
            const served = await figures(client);
            for (const widget of widgets) {
              const figure = served[widget.id];
              const fields = [
                ...(widget.measure.kind === 'count' ? [] : [widget.measure.field]),
                ...(widget.by ? [widget.by.field] : []),
              ];
              const hidden =
                viewer === 'out' || (viewer === 'aud' && fields.some((f) => !AUDITED.includes(f)));
              expect(figure === undefined, widget.id).toBe(hidden);
              if (figure === undefined) continue;
              const where = widget.id === 'rail-trips' ? (r: Json) => r['kind'] === 'rail' : undefined;
              const expected = figureByHand(model, widget, listed, where);
              const dated = widget.by?.bucket !== null && widget.by?.bucket !== undefined;
              expect(unlabelled(figure, dated), widget.id).toEqual(
                dated || expected.groups === null
                  ? expected
                  : { ...expected, groups: sortByKey(expected.groups) },
              );
            }
          },
        ),
        { numRuns: dialect === 'sqlite' ? 25 : 12 },
      );
    }, 120_000);
  });
}
