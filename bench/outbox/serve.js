// One server of the outbox benchmark, in its own process: `node bench/outbox/serve.js
// plain|effects|delivering <sqlite file>`. `plain` serves the claims spec; `effects` the same spec
// with a notification and a webhook on every create, their jobs written and left for later;
// `delivering` also runs the product's job runner in the process, delivering them as they come
// (the webhook to the receiver the parent started, the mail to the development outbox). It listens
// on 127.0.0.1 at a free port and tells the parent; on `cpu` it reports its CPU time, on `stop` its
// peak RSS and how many jobs are done, then closes and exits.
import { JobRunner, TABLES, buildApp, openDatabase, productJobHandlers } from '@ninefold/server';
import { outboxModel } from './spec.js';

const [side, file] = process.argv.slice(2);
const model = outboxModel(side === 'plain' ? 'plain' : 'effects');
const database = await openDatabase({ sqlite: file });
const app = buildApp({ model, database });
const runner =
  side === 'delivering'
    ? new JobRunner({ database, handlers: productJobHandlers({ model, database }), pollMs: 100 })
    : null;
runner?.start();

await app.listen({ host: '127.0.0.1', port: 0 });
process.send({ type: 'ready', port: app.server.address().port });
process.on('message', async (message) => {
  if (message?.type === 'cpu') {
    const { user, system } = process.cpuUsage();
    process.send({ type: 'cpu', micros: user + system });
    return;
  }
  if (message?.type !== 'stop') return;
  const peakRss = process.resourceUsage().maxRSS * 1024;
  await app.close();
  await runner?.stop();
  const jobs = await database.db
    .selectFrom(TABLES.jobs)
    .select(['state', database.db.fn.countAll().as('n')])
    .groupBy('state')
    .execute();
  await database.close();
  const counts = Object.fromEntries(jobs.map((row) => [row.state, Number(row.n)]));
  process.send({ type: 'stopped', peakRss, jobs: counts }, () => process.exit(0));
});
process.on('disconnect', () => process.exit(0));
