// One server of the files benchmark, in its own process so that the client never shares its event
// loop: `node bench/files/serve.js ninefold|raw <dir>`. The Ninefold side is the whole stack over a
// SQLite file and a disk store in <dir> (it migrates and adds the uploader itself); the raw side is
// a bare Fastify app with @fastify/multipart that streams a part to a file and a file back, which is
// what a developer would write by hand. It listens on 127.0.0.1 at a free port and tells the parent
// over IPC; on `stop` it reports its peak RSS, then closes and exits.
import multipart from '@fastify/multipart';
import { compile } from '@ninefold/language';
import { addUser, buildApp, migrate, openDatabase } from '@ninefold/server';
import { diskFileStore } from '../../packages/server/dist/files/disk-store.js';
import Fastify from 'fastify';
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { EMAIL, PASSWORD, SPEC } from './spec.js';

async function ninefoldApp(dir) {
  const result = compile(SPEC, { file: 'bench-files.yaml' });
  if (!result.ok) throw new Error(result.diagnostics.map((d) => d.message).join('\n'));
  await mkdir(dir, { recursive: true });
  const database = await openDatabase({ sqlite: join(dir, 'bench.sqlite') });
  await migrate(database, result.model);
  await addUser(database, result.model, {
    email: EMAIL,
    name: 'Uploader',
    roles: ['clerk'],
    password: PASSWORD,
  });
  const app = buildApp({ model: result.model, database, files: diskFileStore(join(dir, 'files')) });
  return { app, close: () => database.close() };
}

function rawApp(dir) {
  const root = join(dir, 'raw');
  const app = Fastify();
  void app.register(multipart, { limits: { fileSize: 2 ** 30, files: 1 } });
  app.post('/raw/files', async (request, reply) => {
    const part = await request.file();
    const id = randomUUID();
    await mkdir(root, { recursive: true });
    const partial = join(root, `${id}.part`);
    await pipeline(part.file, createWriteStream(partial));
    await rename(partial, join(root, id));
    reply.code(201);
    return { id };
  });
  app.get('/raw/files/:id', async (request, reply) => {
    const path = join(root, request.params.id);
    const { size } = await stat(path);
    return reply.type('application/octet-stream').header('content-length', size).send(createReadStream(path));
  });
  return { app, close: async () => undefined };
}

const [kind, dir] = process.argv.slice(2);
const { app, close } = kind === 'raw' ? rawApp(dir) : await ninefoldApp(dir);
await app.listen({ host: '127.0.0.1', port: 0 });
process.send({ type: 'ready', port: app.server.address().port, rss: process.memoryUsage.rss() });
process.on('message', async (message) => {
  if (message?.type !== 'stop') return;
  // resourceUsage().maxRSS is the kernel's high-water mark, in KiB
  const peakRss = process.resourceUsage().maxRSS * 1024;
  await app.close();
  await close();
  process.send({ type: 'stopped', peakRss }, () => process.exit(0));
});
// the parent going away (a crash, Ctrl-C) must not leave a server behind
process.on('disconnect', () => process.exit(0));
