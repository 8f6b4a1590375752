// Files benchmark (issue 18, decision 0053): upload and download throughput of one large file
// through Ninefold's routes (`POST /api/files`, `GET /api/files/<id>`) against a bare Fastify app
// that streams the same multipart part to disk and the same file back, side by side in one run.
//
//   npm run bench:files              (tsc -b && node bench/files/run.js)
//   node bench/files/run.js --mib 50 --runs 5 --big-mib 640 --heap-mib 64
//
// Both servers run in child processes on 127.0.0.1 (bench/files/serve.js); the client streams a
// multipart body from a file on disk and reads each download to the end. Each side runs `--runs`
// times, alternating which goes first: medians of MiB/s, the median of the runs' ratios, each
// server's peak RSS.
// Then the memory check: a Ninefold server started with --max-old-space-size=<heap-mib> takes an
// upload ten times larger than its heap (generated as it is sent, never on disk on the client's
// side), which must succeed with its RSS growing by far less than the file's size. A failed request fails the
// run (exit 1); a missed target is printed, never fatal.
import { Buffer } from 'node:buffer';
import { fork } from 'node:child_process';
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { randomFillSync } from 'node:crypto';
import { request } from 'node:http';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { argument, median } from '../lib/stats.js';
import { EMAIL, PASSWORD } from './spec.js';

const MiB = 2 ** 20;
const SIZE_MIB = Number(argument('--mib', '50'));
const RUNS = Number(argument('--runs', '5'));
const BIG_MIB = Number(argument('--big-mib', '640'));
const HEAP_MIB = Number(argument('--heap-mib', '64'));
const TARGETS = { upload: 0.7, download: 0.8 };
const CSRF = { 'x-ninefold-csrf': '1' };
const BOUNDARY = '----ninefold-bench-files';

const mib = (bytes) => `${(bytes / MiB).toFixed(1)} MiB`;
const verdict = (ok) => (ok ? 'PASS' : 'MISS');

const children = [];
function fail(message) {
  console.error(`\n${message}`);
  for (const child of children) if (child.exitCode === null) child.kill();
  process.exit(1);
}

function startServer(kind, dir, execArgv = []) {
  const child = fork(fileURLToPath(new URL('./serve.js', import.meta.url)), [kind, dir], {
    execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.once('message', (message) => resolve({ kind, child, port: message.port, readyRss: message.rss }));
    child.once('exit', (code) =>
      reject(new Error(`The ${kind} server exited with ${code} before listening.`)),
    );
  });
}

function stopServer(server) {
  return new Promise((resolve) => {
    server.child.on('message', (message) => {
      if (message.type === 'stopped') resolve(message.peakRss);
    });
    server.child.send({ type: 'stop' });
  });
}

/** One HTTP request with a streamed body; resolves with the status, headers and the body's length or text. */
function send(server, { method, path, headers = {}, body, length, keepText = false }) {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: server.port,
        method,
        path,
        headers: { ...headers, ...(length === undefined ? {} : { 'content-length': String(length) }) },
      },
      (res) => {
        let bytes = 0;
        const chunks = [];
        res.on('data', (chunk) => {
          bytes += chunk.length;
          if (keepText) chunks.push(chunk);
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode,
            headers: res.headers,
            bytes,
            text: Buffer.concat(chunks).toString(),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (body === undefined) req.end();
    else if (typeof body === 'string' || Buffer.isBuffer(body)) req.end(body);
    else body.pipe(req);
  });
}

/** A multipart body around a stream of `size` bytes, and its exact length. */
function multipartBody(file, size) {
  const head = Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="bench.bin"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  async function* parts() {
    yield head;
    yield* file;
    yield tail;
  }
  return { body: Readable.from(parts()), length: head.length + size + tail.length };
}

/** `size` bytes made as they are read, 1 MiB of random bytes repeated: nothing held but that MiB. */
async function* generated(size) {
  const block = randomFillSync(Buffer.alloc(MiB));
  for (let sent = 0; sent < size; sent += MiB) yield block.subarray(0, Math.min(MiB, size - sent));
}

async function signIn(server) {
  const response = await send(server, {
    method: 'POST',
    path: '/api/session',
    headers: { ...CSRF, 'content-type': 'application/json' },
    body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
    keepText: true,
  });
  if (response.status !== 200) fail(`Signing in answered ${response.status}: ${response.text}`);
  const cookie = [response.headers['set-cookie']].flat().find((c) => c?.startsWith('ninefold_session='));
  if (cookie === undefined) fail('Signing in set no session cookie.');
  return { cookie: cookie.split(';')[0] };
}

/** The paths and headers of each side. */
function sideOf(server, auth) {
  return server.kind === 'raw'
    ? { server, upload: '/raw/files', download: (id) => `/raw/files/${id}`, headers: {} }
    : { server, upload: '/api/files', download: (id) => `/api/files/${id}`, headers: { ...CSRF, ...auth } };
}

async function upload(side, stream, size) {
  const { body, length } = multipartBody(stream, size);
  const started = performance.now();
  const response = await send(side.server, {
    method: 'POST',
    path: side.upload,
    headers: { ...side.headers, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    body,
    length,
    keepText: true,
  });
  const seconds = (performance.now() - started) / 1000;
  if (response.status !== 201)
    fail(`${side.server.kind} upload answered ${response.status}: ${response.text}`);
  return { id: JSON.parse(response.text).id, mibPerSecond: size / MiB / seconds };
}

async function download(side, id, size) {
  const started = performance.now();
  const response = await send(side.server, { method: 'GET', path: side.download(id), headers: side.headers });
  const seconds = (performance.now() - started) / 1000;
  if (response.status !== 200 || response.bytes !== size) {
    fail(`${side.server.kind} download answered ${response.status} with ${response.bytes} of ${size} bytes`);
  }
  return size / MiB / seconds;
}

// ---------------------------------------------------------------------------------------------
// The run

const dir = mkdtempSync(join(tmpdir(), 'ninefold-bench-files-'));
process.on('exit', () => {
  for (const child of children) if (child.exitCode === null) child.kill();
  rmSync(dir, { recursive: true, force: true });
});
process.on('SIGINT', () => process.exit(130));

const size = SIZE_MIB * MiB;
const source = join(dir, 'source.bin');
writeFileSync(source, Buffer.concat([...Array(SIZE_MIB)].map(() => randomFillSync(Buffer.alloc(MiB)))));
const cpu = cpus()[0]?.model ?? 'unknown CPU';
console.log(
  `Node ${process.version}, ${process.platform} ${process.arch}, ${availableParallelism()} cores (${cpu}); ` +
    `a ${SIZE_MIB} MiB file, ${RUNS} runs per side, alternating\n`,
);

const [ninefold, raw] = await Promise.all([
  startServer('ninefold', join(dir, 'n')),
  startServer('raw', join(dir, 'r')),
]);
const sides = [sideOf(ninefold, await signIn(ninefold)), sideOf(raw)];
// a warm-up of each side
for (const side of sides) await download(side, (await upload(side, createReadStream(source), size)).id, size);
const results = sides.map(() => ({ upload: [], download: [] }));
for (let r = 0; r < RUNS; r++) {
  const order = r % 2 === 0 ? [0, 1] : [1, 0];
  for (const i of order) {
    const { id, mibPerSecond } = await upload(sides[i], createReadStream(source), size);
    results[i].upload.push(mibPerSecond);
    results[i].download.push(await download(sides[i], id, size));
  }
}
const [ninefoldRss, rawRss] = await Promise.all([stopServer(ninefold), stopServer(raw)]);
for (const what of ['upload', 'download']) {
  const mine = median(results[0][what]);
  const theirs = median(results[1][what]);
  // the ratio of each run's pair, measured back to back: steadier than a ratio of medians on a
  // machine whose load drifts
  const ratio = median(results[0][what].map((m, r) => m / results[1][what][r]));
  console.log(
    `${what.padEnd(8)} Ninefold ${mine.toFixed(0).padStart(5)} MiB/s, bare Fastify ${theirs.toFixed(0).padStart(5)} MiB/s: ` +
      `${ratio.toFixed(2)}× (median of the runs' ratios; target ≥ ${TARGETS[what]}×) ${verdict(ratio >= TARGETS[what])}`,
  );
}
console.log(`peak RSS Ninefold ${mib(ninefoldRss)}, bare Fastify ${mib(rawRss)}\n`);

// the memory check: ten times the heap's allowance, through a server held to it
const bigSize = BIG_MIB * MiB;
const held = await startServer('ninefold', join(dir, 'big'), [`--max-old-space-size=${HEAP_MIB}`]);
const heldSide = sideOf(held, await signIn(held));
const big = await upload(heldSide, Readable.from(generated(bigSize)), bigSize);
const heldRss = await stopServer(held);
// bounded: what the upload added to the server's RSS at start is far below the file's size
const growth = heldRss - held.readyRss;
const bounded = growth < bigSize / 5;
console.log(
  `${BIG_MIB} MiB uploaded to a server with --max-old-space-size=${HEAP_MIB}: ${big.mibPerSecond.toFixed(0)} MiB/s, ` +
    `RSS ${mib(held.readyRss)} at start, ${mib(heldRss)} at peak: ${mib(growth)} for the upload ` +
    `(bounded: under a fifth of the file) ${verdict(bounded)}`,
);
