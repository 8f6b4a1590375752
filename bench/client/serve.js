// The server of the client benchmark, in its own process so that the browser driver never shares its
// event loop: `node bench/client/serve.js <sqlite file> <client dir> <anchors dir>`. It is what
// `startServer` builds with `clientDir` (the API, and @ninefold/web hosting the built client with
// the model inline in its page), plus one route: `/anchor/<name>/…` serves the anchors built into `<anchors dir>/<name>`, so
// that they run on the same origin, with the same session cookie, against the same API. It listens on
// 127.0.0.1 at a free port and tells the parent over IPC; on `stop` it reports its peak RSS and exits.
import { buildApp, openDatabase } from '@ninefold/server';
import { webApp } from '@ninefold/web';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { benchModel } from './spec.js';

const [file, clientDir, anchorsDir] = process.argv.slice(2);
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

const database = await openDatabase({ sqlite: file });
// the seed migrated the file with this model; the app is what `ninefold start` builds, minus the log
const app = buildApp({ model: benchModel(), database });
await app.register(webApp, { dir: clientDir });
app.get('/anchor/*', async (request, reply) => {
  const path = normalize(request.url.split('?')[0].slice('/anchor/'.length));
  if (path.startsWith('..')) return reply.code(404).send();
  const target = path.endsWith('/') || extname(path) === '' ? join(path, 'index.html') : path;
  try {
    const body = await readFile(join(anchorsDir, target));
    // like the client's assets: hashed files cached for good, the page checked every time
    return reply
      .header(
        'cache-control',
        target.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
      )
      .type(TYPES[extname(target)] ?? 'application/octet-stream')
      .send(body);
  } catch {
    return reply.code(404).send();
  }
});
await app.listen({ host: '127.0.0.1', port: 0 });
const { port } = app.server.address();
process.send({ type: 'ready', port });
process.on('message', async (message) => {
  if (message?.type !== 'stop') return;
  // resourceUsage().maxRSS is the kernel's high-water mark, in KiB
  const peakRss = process.resourceUsage().maxRSS * 1024;
  await app.close();
  await database.close();
  process.send({ type: 'stopped', peakRss }, () => process.exit(0));
});
// the parent going away (a crash, Ctrl-C) must not leave a server behind
process.on('disconnect', () => process.exit(0));
