/**
 * Every role's queues hold something after the demo is seeded: each list screen each role may open
 * shows at least one row, read as that role's demo account through the API (`?screen=`, as the app
 * reads it), and each dashboard it may open a figure that is not zero, for every example on every
 * database; and in the expense claims, the manager's "to approve" holds claims by other people
 * that the manager may approve.
 */
import { describe, expect, it } from 'vitest';
import { mayOpenScreen } from '@ninefold/engine';
import { ACTIONS_KEY, type ApiRecord, type DashboardFigures, type Model } from '@ninefold/model';
import { JobRunner, buildApp, migrate, productJobHandlers } from '@ninefold/server';
import { DIALECTS, exampleModel, freshDatabase, tempFileStore } from '@ninefold/testkit';
import { demoApi, seedDemoAccounts, seedDemoData } from '../src/index.js';
import { listScreensByRole, screenShowsRows } from '../src/queues.js';

const EXAMPLES = [
  'expense-claims.md',
  'helpdesk.md',
  'library-loans.md',
  'bookings.yaml',
  'seed.txt',
  'orders.md',
];

for (const dialect of DIALECTS) {
  describe(`${dialect}: every role's queues`, () => {
    for (const file of EXAMPLES) {
      it(`${file}: every list screen of every role shows a row`, { timeout: 120_000 }, async () => {
        const model = exampleModel(file);
        const { database } = await freshDatabase(dialect);
        await migrate(database, model);
        const accounts = await seedDemoAccounts(database, model);
        const sessions = new Map<string, string>();
        const app = buildApp({ model, database, logger: false });
        const { created } = await seedDemoData(app, database, model, accounts, { sessions });
        await app.close();
        // the timers that came due at start fire, as the started product's runner fires them
        const now = () => new Date();
        const handlers = () => productJobHandlers({ model, database, files: tempFileStore(), now });
        if (hasTimers(model)) await new JobRunner({ database, now, handlers: handlers() }).runDue();
        // read as the demo accounts on another instance, with their sessions (on PostgreSQL the
        // sign-in limit is shared between instances)
        const later = buildApp({ model, database, logger: false });
        const api = demoApi(later, model, accounts, sessions);
        const screens = await listScreensByRole(api, new Set(Object.keys(created)));
        const empty: string[] = [];
        for (const [role, screen] of screens) {
          if (!(await screenShowsRows(api, role, screen))) empty.push(`${role}: ${screen.id}`);
        }
        expect(screens.length > 0).toBe(Object.keys(created).length > 0);
        expect(empty).toEqual([]);
        // and every dashboard a role may open has a figure to show
        const blank: string[] = [];
        for (const role of Object.keys(model.roles)) {
          const user = await api.userContext(role);
          for (const screen of model.screens.filter((s) => s.kind === 'dashboard')) {
            if (!mayOpenScreen(model, user, screen)) continue;
            const answer = await api.call<DashboardFigures>(role, 'GET', `dashboards/${screen.id}`);
            expect(answer.status).toBe(200);
            const shown = answer.body.widgets.some((w) => w.value !== null && Number(w.value) !== 0);
            if (!shown) blank.push(`${role}: ${screen.id}`);
          }
        }
        expect(blank).toEqual([]);
        await later.close();
      });
    }
  });
}

const hasTimers = (model: Model) =>
  Object.values(model.states).some((m) => Object.values(m.transitions).some((t) => t.timer !== null));

for (const dialect of DIALECTS) {
  describe(`${dialect}: the expense claims' manager`, () => {
    it(
      'has claims by other people waiting, which the manager may approve',
      { timeout: 120_000 },
      async () => {
        const model = exampleModel('expense-claims.md');
        const { database } = await freshDatabase(dialect);
        await migrate(database, model);
        const accounts = await seedDemoAccounts(database, model);
        const sessions = new Map<string, string>();
        const app = buildApp({ model, database, logger: false });
        await seedDemoData(app, database, model, accounts, { sessions });
        await app.close();
        const later = buildApp({ model, database, logger: false });
        const api = demoApi(later, model, accounts, sessions);
        const manager = await api.userContext('manager');
        const queue = await api.call<{ data: ApiRecord[] }>(
          'manager',
          'GET',
          'claims?screen=approvals&limit=50',
        );
        expect(queue.status).toBe(200);
        const approvable: ApiRecord[] = [];
        for (const row of queue.body.data) {
          const claim = await api.call<ApiRecord>('manager', 'GET', `claims/${row.id}`);
          expect(claim.body.state).toBe('submitted');
          expect(claim.body['submittedBy']).not.toBe(manager.id);
          if ((claim.body[ACTIONS_KEY] ?? []).includes('approve')) approvable.push(claim.body);
        }
        expect(approvable.length).toBeGreaterThan(0);
        // the employee has drafts of their own as well as claims on their way
        const mine = await api.call<{ data: ApiRecord[] }>(
          'employee',
          'GET',
          'claims?screen=my-claims&limit=50',
        );
        const states = new Set(mine.body.data.map((c) => c.state));
        expect(states.has('draft')).toBe(true);
        expect(states.has('submitted')).toBe(true);
        await later.close();
      },
    );
  });
}
