// One server of the limits benchmark, in its own process: `node bench/limits/serve.js
// memory|postgres|redis <database url> [<redis url>]`. The whole Ninefold stack (`buildApp` of the
// server bench's spec) over the PostgreSQL database, counting its limits where `kind` says. It
// listens on 127.0.0.1 at a free port and tells the parent over IPC; on `cpu` it reports the CPU
// time it has used, on `stop` it closes and exits.
import {
  buildApp,
  memoryCounters,
  openDatabase,
  openRedisCounters,
  postgresCounters,
} from '@ninefold/server';
import { benchModel } from '../server/spec.js';

const [kind, url, redisUrl] = process.argv.slice(2);
const database = await openDatabase(url);
const counters =
  kind === 'memory'
    ? memoryCounters()
    : kind === 'postgres'
      ? postgresCounters(database)
      : await openRedisCounters(redisUrl, { prefix: `bench:${process.pid}:` });
const app = buildApp({ model: benchModel(), database, counters });
await app.listen({ host: '127.0.0.1', port: 0 });
process.send({ type: 'ready', port: app.server.address().port });
process.on('message', async (message) => {
  if (message?.type === 'cpu') {
    const { user, system } = process.cpuUsage();
    process.send({ type: 'cpu', micros: user + system });
    return;
  }
  if (message?.type !== 'stop') return;
  await app.close();
  await counters.close();
  await database.close();
  process.send({ type: 'stopped' }, () => process.exit(0));
});
process.on('disconnect', () => process.exit(0));
