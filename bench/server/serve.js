// One server of the benchmark, in its own process so that the load generator never shares its event
// loop: `node bench/server/serve.js ninefold|raw <sqlite file> <user id>`. It listens on 127.0.0.1 at
// a free port and tells the parent over IPC; on `cpu` it reports the CPU time it has used, on `stop`
// its peak RSS, then closes and exits.
import { buildApp, openDatabase } from '@ninefold/server';
import { rawApp } from './raw-app.js';
import { benchModel } from './spec.js';

const [kind, file, userId] = process.argv.slice(2);

async function build() {
  if (kind === 'raw') return { app: rawApp(file, userId), close: async () => undefined };
  const database = await openDatabase({ sqlite: file });
  // the seed migrated the file with this model; the app is what `ninefold start` builds, minus the log
  const app = buildApp({ model: benchModel(), database });
  return { app, close: () => database.close() };
}

const { app, close } = await build();
await app.listen({ host: '127.0.0.1', port: 0 });
const { port } = app.server.address();
process.send({ type: 'ready', port });
process.on('message', async (message) => {
  // the CPU time this process has used, in µs: the runner divides it by the requests it sent
  if (message?.type === 'cpu') {
    const { user, system } = process.cpuUsage();
    process.send({ type: 'cpu', micros: user + system });
    return;
  }
  if (message?.type !== 'stop') return;
  // resourceUsage().maxRSS is the kernel's high-water mark, in KiB
  const peakRss = process.resourceUsage().maxRSS * 1024;
  await app.close();
  await close();
  process.send({ type: 'stopped', peakRss }, () => process.exit(0));
});
// the parent going away (a crash, Ctrl-C) must not leave a server behind
process.on('disconnect', () => process.exit(0));
