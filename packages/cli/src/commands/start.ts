import { parseArgs } from 'node:util';
import { existsSync } from 'node:fs';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import { DataLossError } from '@ninefold/server';
import { installedClient } from '@ninefold/web';
import { PortUnavailableError, type RunningServer, startServer } from '../start-server.js';
import { EXIT, palette, type Io } from '../io.js';
import { chooseLogFormat, prettyLogStream } from '../log-format.js';
import { missingSpecMessage } from '../spec-path.js';

export const START_HELP = `Usage: ninefold start <spec> [options]

Compiles the spec, migrates the database to it when this is the only instance, and serves the
product: the web app and its API on one port.

On SQLite it always migrates. On PostgreSQL it migrates when no other instance serves from the
database (or the database was never migrated); otherwise the pre-deploy step \`ninefold migrate
<spec> --apply\` migrates, and start serves when the database has every table and column the spec
needs, or stops with a line saying what is missing (exit 1).

Options:
  --host <address>     where to listen (default 127.0.0.1: this machine only)
  --port <number>      the port (default: PORT from the environment, else 3000; 0 picks a free
                       one). A port already in use stops the start before the database is opened.
  --data <folder>      where the SQLite database and the uploaded files live (default ./data);
                       DATABASE_URL selects PostgreSQL, STORAGE_URL (s3://bucket/prefix?endpoint=…)
                       S3-compatible storage for the files, with AWS_ACCESS_KEY_ID and
                       AWS_SECRET_ACCESS_KEY
  --demo               create one account per role and print their passwords; into a product
                       with no records yet, also make a few records of every entity through the
                       API as those accounts
  --no-demo-data       with --demo: the accounts only, no records
  --migrate            migrate even while other instances serve from the database
  --accept-data-loss   apply a migration that drops or narrows data (see \`ninefold migrate\`)
  --client <folder>    the built web app to serve (default: Ninefold's own, packages/client/dist)
  --api-only           serve the API without the web app
  --trust-proxy <proxies>
                       behind a reverse proxy: believe X-Forwarded-For and -Proto from these
                       addresses and ranges, comma-separated (127.0.0.1,10.0.0.0/8; also
                       loopback, linklocal, uniquelocal), or from the nearest N hops (1 to 9;
                       only for a server that nothing but its proxies can reach). Sign-in and
                       guest limits then count the client's address, and the session cookie is
                       Secure over HTTPS.
  --quiet              no request log
  --log <pretty|json>  the log's form: one short line per request or event (pretty), or pino's
                       JSON lines; default pretty on a terminal, JSON when stdout is not one

A webhook's and single sign-on's (auth.oidc) \${NAME} references are read from the environment:
start refuses while one is unset, naming each; with --demo, such a webhook or single sign-on is
turned off for that run instead. With SMTP_URL set, NINEFOLD_PUBLIC_URL must be set too: the mails'
sign-in links point at it.

SIGTERM or Ctrl-C drains the requests in flight, then stops.
`;

/**
 * \`ninefold start\`: serves until a signal stops it. An embedder that passes \`io.onStarted\` (a test)
 * receives the running server and owns its lifetime: no signal handlers are installed.
 */
export async function start(args: readonly string[], io: Io): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      allowPositionals: true,
      options: {
        host: { type: 'string' },
        port: { type: 'string' },
        data: { type: 'string' },
        demo: { type: 'boolean' },
        'no-demo-data': { type: 'boolean' },
        'accept-data-loss': { type: 'boolean' },
        migrate: { type: 'boolean' },
        quiet: { type: 'boolean' },
        log: { type: 'string' },
        client: { type: 'string' },
        'api-only': { type: 'boolean' },
        'trust-proxy': { type: 'string' },
      },
    });
  } catch (error) {
    io.stderr.write(`${(error as Error).message}\n\n${START_HELP}`);
    return EXIT.usage;
  }
  const { values, positionals } = parsed;
  const [spec, ...extra] = positionals;
  if (spec === undefined || extra.length > 0) {
    io.stderr.write(`Give exactly one spec to start.\n\n${START_HELP}`);
    return EXIT.usage;
  }
  // the flag wins over PORT, which wins over 3000
  const envPort = (io.env ?? {})['PORT'];
  const portSource =
    values.port !== undefined ? '--port' : envPort !== undefined && envPort !== '' ? 'PORT' : null;
  const portText = portSource === '--port' ? values.port! : portSource === 'PORT' ? envPort! : '3000';
  const port = /^\d+$/.test(portText.trim()) ? Number(portText) : NaN;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    io.stderr.write(`${portSource ?? '--port'} must be a whole number from 0 to 65535, not "${portText}".\n`);
    return EXIT.usage;
  }
  const logFormat = chooseLogFormat(io.stdout.isTTY, values.log);
  if (logFormat === null) {
    io.stderr.write(`--log is pretty or json, not "${values.log ?? ''}".\n`);
    return EXIT.usage;
  }
  const trustProxy = values['trust-proxy'] === undefined ? undefined : parseTrustProxy(values['trust-proxy']);
  if (trustProxy === null) {
    io.stderr.write(
      `--trust-proxy takes the proxies' addresses and ranges, comma-separated (127.0.0.1,10.0.0.0/8), or a number of hops from 1 to 9, not "${values['trust-proxy'] ?? ''}".\n`,
    );
    return EXIT.usage;
  }
  // every usage error first (exit 2); then a spec that is not there (exit 1)
  const missing = missingSpecMessage(io.cwd, spec);
  if (missing !== null) {
    io.stderr.write(`Could not start: ${missing}\n`);
    return EXIT.errors;
  }
  const databaseUrl = (io.env ?? {})['DATABASE_URL'];
  let clientDir: string | undefined;
  if (values['api-only'] !== true) {
    clientDir = values.client === undefined ? installedClient() : resolve(io.cwd, values.client);
    if (clientDir === undefined || !existsSync(join(clientDir, 'index.html'))) {
      if (values.client !== undefined) {
        io.stderr.write(`--client: ${clientDir ?? values.client} holds no built web app (index.html).\n`);
        return EXIT.usage;
      }
      io.stdout.write('The web app is not built (run `npm run build`): serving the API only.\n');
      clientDir = undefined;
    }
  }
  let server: RunningServer;
  try {
    server = await startServer({
      specPath: resolve(io.cwd, spec),
      dataDir: resolve(io.cwd, values.data ?? 'data'),
      host: values.host ?? '127.0.0.1',
      port,
      demo: values.demo === true,
      demoData: values['no-demo-data'] !== true,
      acceptDataLoss: values['accept-data-loss'] === true,
      migrate: values.migrate === true,
      ...(databaseUrl === undefined || databaseUrl === '' ? {} : { databaseUrl }),
      handleSignals: io.onStarted === undefined,
      logger:
        values.quiet === true
          ? false
          : logFormat === 'json'
            ? // through the same stream as the lines `start` prints, in the order they are written
              // (pino's own destination buffers: the listen line came after the demo accounts)
              { level: 'info', stream: { write: (line: string) => io.stdout.write(line) } }
            : {
                level: 'info',
                stream: prettyLogStream((text) => io.stdout.write(text), palette(io.stdout, io.env)),
              },
      print: (line) => io.stdout.write(`${line}\n`),
      ...(clientDir === undefined ? {} : { clientDir }),
      ...(trustProxy === undefined ? {} : { trustProxy }),
      env: io.env ?? process.env,
    });
  } catch (error) {
    if (error instanceof DataLossError || error instanceof PortUnavailableError) {
      io.stderr.write(`${error.message}\n`);
      return EXIT.errors;
    }
    io.stderr.write(`Could not start: ${(error as Error).message}\n`);
    return EXIT.errors;
  }
  io.onStarted?.(server);
  return EXIT.ok;
}

/** The names proxy-addr (Fastify's) knows for ranges of private addresses. */
const ADDRESS_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * `--trust-proxy`'s value: the proxies' addresses and CIDR ranges, or the number of proxies in
 * front of the server (1 to 9 hops, for a server only they can reach); null when it is neither.
 * "Trust everyone" is not offered: it would let any client that reaches the server directly pick
 * the address its sign-in attempts count against.
 *
 * @example parseTrustProxy('127.0.0.1, 10.0.0.0/8') // ['127.0.0.1', '10.0.0.0/8']
 * @example parseTrustProxy('1') // 1
 */
export function parseTrustProxy(text: string): string[] | number | null {
  if (/^[1-9]$/.test(text.trim())) return Number(text);
  const entries = text.split(',').map((entry) => entry.trim());
  return entries.every(isProxyAddress) ? entries : null;
}

function isProxyAddress(entry: string): boolean {
  if (ADDRESS_RANGES.includes(entry)) return true;
  const [address = '', bits, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  return /^\d+$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}
