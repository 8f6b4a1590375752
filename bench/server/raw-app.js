// The anchor: what a developer would write by hand on the same SQLite file — bare Fastify, prepared
// better-sqlite3 statements, JSON.stringify, and a compiled JSON Schema in front of the insert. No
// sessions, permissions, masks, audit or rate limit: the ratios price exactly those.
import Sqlite from 'better-sqlite3';
import Fastify from 'fastify';
import { randomUUID } from 'node:crypto';

const COLUMNS = [
  'id',
  'createdAt',
  'updatedAt',
  'createdBy',
  'version',
  'state',
  'title',
  'category',
  'amount',
  'spentOn',
  'merchant',
  'mileageKm',
  'urgent',
  'notes',
  'submittedBy',
];
const SELECT = COLUMNS.map((c) => `"${c}"`).join(', ');

const CREATE_SCHEMA = {
  body: {
    type: 'object',
    additionalProperties: false,
    required: ['title', 'category', 'amount', 'spentOn'],
    properties: {
      title: { type: 'string', minLength: 1, maxLength: 120 },
      category: { enum: ['travel', 'meals', 'lodging', 'mileage', 'equipment'] },
      amount: { type: 'string', pattern: '^[0-9]{1,11}(\\.[0-9]{1,2})?$' },
      spentOn: { type: 'string', format: 'date' },
      merchant: { type: 'string', maxLength: 80 },
      mileageKm: { type: 'integer', minimum: 0, maximum: 10000 },
      urgent: { type: 'boolean' },
      notes: { type: 'string', maxLength: 2000 },
    },
  },
};

/**
 * The bare app: `/health`, and `/raw/claims` list, get and create over `file`.
 *
 * @example const app = rawApp('/tmp/claims.sqlite', userId); await app.listen({ host: '127.0.0.1', port: 0 });
 */
export function rawApp(file, userId) {
  const sqlite = new Sqlite(file);
  // the server's own pragmas (packages/server/src/db/dialect.ts), so that writes cost the same fsyncs
  for (const pragma of [
    'journal_mode = WAL',
    'synchronous = FULL',
    'busy_timeout = 5000',
    'foreign_keys = ON',
  ])
    sqlite.pragma(pragma);
  const list = (where, order) =>
    sqlite.prepare(`select ${SELECT} from claims where ${where} order by ${order} limit 50`);
  const lists = {
    // the server's own filter for `read: own` (the engine's toSqlFilter emits a bare equality where
    // no negation is above it), hence the server's plan: the (submittedBy, createdAt, id) index
    samePlan: list('"submittedBy" = ?', '"createdAt" desc, "id" desc'),
    // what one writes by hand (now the same text as the server's): a plain equality
    plain: list('"submittedBy" = ?', '"createdAt" desc, "id" desc'),
    // the server's order for a nullable key (NULLs first descending), by hand; over the same file, so
    // over the `(submittedBy, spentOn, id)` index the `claims-by-day` screen asks for (decision 0048)
    spentOn: list('"submittedBy" = ?', '"spentOn" desc nulls first, "id" desc'),
  };
  const byId = sqlite.prepare(`select ${SELECT} from claims where "id" = ?`);
  const insert = sqlite.prepare(
    `insert into claims_raw (${SELECT}) values (${COLUMNS.map(() => '?').join(', ')})`,
  );

  const app = Fastify({ logger: false });
  app.addHook('onClose', async () => sqlite.close());

  app.get('/health', async () => ({ status: 'ok' }));

  app.get('/raw/claims', (request, reply) => {
    const { owner, plan = 'samePlan' } = request.query;
    const rows = lists[plan].all(owner);
    reply.type('application/json').send(JSON.stringify({ data: rows }));
  });

  app.get('/raw/claims/:id', (request, reply) => {
    const row = byId.get(request.params.id);
    if (row === undefined) return reply.code(404).send({ error: 'not found' });
    reply.type('application/json').send(JSON.stringify(row));
  });

  app.post('/raw/claims', { schema: CREATE_SCHEMA }, (request, reply) => {
    const body = request.body;
    const at = new Date().toISOString();
    const [units, cents = ''] = body.amount.split('.');
    const row = {
      id: randomUUID(),
      createdAt: at,
      updatedAt: at,
      createdBy: userId,
      version: 1,
      state: 'draft',
      title: body.title,
      category: body.category,
      amount: Number(units) * 100 + Number(cents.padEnd(2, '0')),
      spentOn: body.spentOn,
      merchant: body.merchant ?? null,
      mileageKm: body.mileageKm ?? null,
      urgent: body.urgent === true ? 1 : 0,
      notes: body.notes ?? null,
      submittedBy: userId,
    };
    insert.run(COLUMNS.map((c) => row[c]));
    reply.code(201).type('application/json').send(JSON.stringify(row));
  });
  return app;
}
