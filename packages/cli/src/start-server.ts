/**
 * `ninefold start`: compile the spec, open the file store (`STORAGE_URL`'s S3, else the data
 * directory's `files/`), open the database and migrate it when this is the only instance or when
 * told (`deploy-schema.ts`, decision 0059), optionally seed the demo
 * accounts and data (`@ninefold/demo`), put the API (`@ninefold/server`) and the web app
 * (`@ninefold/web`) on one port, run the product's jobs (`JobRunner`), listen, and drain on SIGTERM
 * or SIGINT: requests first, then the running jobs.
 */
import { readSpecTranslations } from './spec-translations.js';
import { compile } from '@ninefold/language';
import { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { mkdir, readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { type DemoAccount, formatDemoAccounts, seedDemoAccounts, seedDemoData } from '@ninefold/demo';
import { type Model } from '@ninefold/model';
import {
  type CounterStore,
  type Database,
  type FileStore,
  type InstancePresence,
  type JobHandlers,
  JobRunner,
  type TrustProxy,
  acquireStartupLease,
  buildApp,
  mailSettings,
  openDatabase,
  openFileStore,
  productJobHandlers,
  registerInstance,
  memoryCounters,
  openCounterStore,
  resolveWebhooks,
  scheduleFileSweep,
} from '@ninefold/server';
import { webApp } from '@ninefold/web';
import { describePrepared, prepareSchema } from './deploy-schema.js';
import {
  describeUnset,
  type Environment,
  mailLinksProblem,
  unsetVariables,
  withoutUnsetReaders,
} from './environment.js';

export interface StartOptions {
  readonly specPath: string;
  /** Defaults to 127.0.0.1: a server is reachable from elsewhere only when asked to be. */
  readonly host?: string;
  /** Defaults to 3000; 0 picks a free port. */
  readonly port?: number;
  /** Where the SQLite file lives when DATABASE_URL is not set, and the files (`files/`) without STORAGE_URL. */
  readonly dataDir: string;
  /** Create or refresh one account per role and print their credentials. */
  readonly demo?: boolean;
  /** With `demo`: make a few records of every entity when the product has none (default true). */
  readonly demoData?: boolean;
  readonly acceptDataLoss?: boolean;
  /**
   * `--migrate`: migrate the database even while other instances serve from it. Without it, a
   * start on PostgreSQL migrates only when it is the only instance (decision 0059); SQLite always does.
   */
  readonly migrate?: boolean;
  /** PostgreSQL URL; defaults to the DATABASE_URL environment variable. */
  readonly databaseUrl?: string;
  /** Stop on SIGTERM/SIGINT and exit the process (the default). */
  readonly handleSignals?: boolean;
  /** The request log: Fastify's logger option (default: pino at level info). */
  readonly logger?: FastifyServerOptions['logger'];
  /** Where start-up messages go; defaults to the console. */
  readonly print?: (line: string) => void;
  /** Serve the built web app from this folder on the same port (`@ninefold/web`). */
  readonly clientDir?: string;
  /** Job kinds of an embedder, run beside the product's own (`jobs/kinds.ts`) by this process's runner. */
  readonly jobHandlers?: JobHandlers;
  /** The reverse proxies whose X-Forwarded-* headers count (`--trust-proxy`); none by default. */
  readonly trustProxy?: TrustProxy;
  /**
   * Where the spec's `${NAME}` references and the mail settings are read (default: the process's
   * environment). A variable unset there stops the start, or with `demo` turns its webhook or single
   * sign-on off (decisions 0030, 0036).
   */
  readonly env?: Environment;
  /**
   * The model to serve, made from the compiled one: for tests of what the spec's notation does not
   * say yet (a provider of single sign-on, say). Default: as compiled.
   */
  readonly transformModel?: (compiled: Model) => Model;
}

export interface RunningServer {
  readonly app: FastifyInstance;
  readonly database: Database;
  /** Where uploaded files are (`disk:…` or `s3://…`). */
  readonly files: FileStore;
  /** The address it listens on, like http://127.0.0.1:3000. */
  readonly url: string;
  readonly demoAccounts: readonly DemoAccount[];
  /** The runner of the product's jobs, in this process. */
  readonly jobs: JobRunner;
  /** Drains in-flight requests, then running jobs, then closes the database. */
  close(): Promise<void>;
}

/**
 * The model to serve in this environment: as compiled when every variable it reads is set; else,
 * with `demo`, without the webhooks and the single sign-on that read an unset one (each said in a
 * line); else an error naming every unset variable and what reads it.
 */
function modelForEnvironment(model: Model, options: StartOptions, print: (line: string) => void): Model {
  const env = options.env ?? process.env;
  const unset = unsetVariables(model, env);
  if (unset.length === 0) return model;
  if (options.demo !== true) throw new Error(describeUnset(unset));
  const demo = withoutUnsetReaders(model, env);
  for (const line of demo.said) print(line);
  return demo.model;
}

/**
 * Starts the server of a spec.
 *
 * @example
 * const server = await startServer({ specPath: 'examples/expense-claims.md', dataDir: '.ninefold', demo: true });
 */
export async function startServer(options: StartOptions): Promise<RunningServer> {
  const print = options.print ?? ((line: string) => console.log(line));
  const text = await readFile(options.specPath, 'utf8');
  const compiled = compile(text, {
    file: options.specPath,
    translations: readSpecTranslations(options.specPath),
  });
  if (!compiled.ok) {
    const lines = compiled.diagnostics
      .filter((d) => d.severity === 'error')
      .map((d) => `${d.file}:${d.line}:${d.column}  ${d.code}  ${d.message}`);
    throw new Error(
      `The spec has errors; run \`ninefold check ${options.specPath}\` for details.\n${lines.join('\n')}`,
    );
  }
  const model = modelForEnvironment(
    options.transformModel?.(compiled.model) ?? compiled.model,
    options,
    print,
  );
  const env = options.env ?? process.env;
  // a port already taken stops the start before the database is opened, migrated or seeded
  await ensurePortFree(options.host ?? '127.0.0.1', options.port ?? 3000);
  // a webhook whose URL or secret is set but malformed stops the start before anything is opened
  resolveWebhooks(model, env);
  // so do mail settings that are malformed (SMTP_URL…) or would make sign-in links trust a Host header
  mailSettings(env);
  const mailProblem = mailLinksProblem(env);
  if (mailProblem !== null) throw new Error(mailProblem);
  // and so does a STORAGE_URL that cannot be used (StorageUrlError says why, without a secret)
  const files = openFileStore(env, options.dataDir);

  const url = options.databaseUrl ?? process.env['DATABASE_URL'];
  let database: Database;
  if (url !== undefined && url !== '') {
    // LISTEN past a pooler in transaction mode, straight to the primary (docs/deploy.md)
    database = await openDatabase(url, { listenUrl: env['DATABASE_LISTEN_URL'] });
  } else {
    await mkdir(options.dataDir, { recursive: true });
    database = await openDatabase({ sqlite: join(options.dataDir, 'ninefold.sqlite') });
  }

  let presence: InstancePresence | null = null;
  let counters: CounterStore | undefined;
  try {
    // REDIS_URL's Redis when set (a RedisUrlError, without the password, when it cannot be used);
    // else the database's: the ninefold_limits table on PostgreSQL, memory on SQLite (decision 0057)
    counters = await openCounterStore(env, database, { warn: print });
    const handlers = { ...productJobHandlers({ model, database, files, env }), ...options.jobHandlers };
    // on PostgreSQL other instances may serve from the database: this one says it is there too
    if (database.dialect === 'postgres') presence = await registerInstance(database);
    const prepared = await prepareSchema(database, model, {
      migrate: options.migrate === true,
      acceptDataLoss: options.acceptDataLoss ?? false,
      others: presence?.others ?? null,
    });
    for (const line of describePrepared(prepared)) print(line);
    // the daily sweep of bytes no row names, pending from the first start on (decision 0071)
    await scheduleFileSweep(database.db, new Date());
    const demoAccounts =
      options.demo === true
        ? await seedDemo(database, files, model, env, options.demoData !== false, print)
        : [];
    const app = buildApp({
      model,
      database,
      env,
      files,
      counters,
      logger: options.logger ?? { level: 'info' },
      ...(options.trustProxy === undefined ? {} : { trustProxy: options.trustProxy }),
    });
    if (options.clientDir !== undefined) await app.register(webApp, { dir: options.clientDir });
    const address = await app.listen({ host: options.host ?? '127.0.0.1', port: options.port ?? 3000 });
    print(`${model.product.name} is running at ${address}`);
    print(`API description: ${address}/openapi.json, browsable at ${address}/docs`);
    print(`Files are stored in ${files.description}.`);
    print(`Rate limits count in ${counters.description}.`);
    const jobs = new JobRunner({
      database,
      handlers,
      onError: (error) =>
        app.log.error(
          { err: error },
          'The job runner could not claim, settle or prune jobs, or listen for them.',
        ),
    });
    jobs.start();
    if (demoAccounts.length > 0 && model.auth.mfa !== 'optional')
      print(
        'Demo: the spec requires two-step sign-in (auth.mfa): the first person to sign in as such a demo account adds it to their authenticator app, and only its codes open that account afterwards.',
      );
    // the accounts last, below everything else start-up prints, where they stay in sight
    if (demoAccounts.length > 0) print(formatDemoAccounts(demoAccounts));

    let closing: Promise<void> | undefined;
    const close = () =>
      (closing ??= (async () => {
        app.ninefold.draining = true;
        await app.close(); // stops accepting, waits for in-flight requests
        await jobs.stop(); // waits for running jobs, a while; the rest run again elsewhere or later
        await presence?.release();
        await counters?.close();
        await database.close();
      })());
    if (options.handleSignals !== false) {
      const onSignal = (signal: NodeJS.Signals) => {
        print(`${signal}: draining in-flight requests, then stopping.`);
        close().then(
          () => process.exit(0),
          (error: unknown) => {
            console.error(error);
            process.exit(1);
          },
        );
      };
      process.once('SIGTERM', onSignal);
      process.once('SIGINT', onSignal);
    }
    return { app, database, files, url: address, demoAccounts, jobs, close };
  } catch (error) {
    await presence?.release().catch(() => undefined);
    await counters?.close();
    await database.close();
    throw error;
  }
}

/** The port `start` was asked to listen on is taken (or not allowed): nothing was opened. */
export class PortUnavailableError extends Error {}

/**
 * Binds the port for a moment and lets it go, so that a port in use stops the start before the
 * database is touched (decision 0062). Port 0 (any free port) needs no probe. Something may still
 * take the port between the probe and the listen: then the listen's own error stops the start,
 * after the migration, as before.
 */
async function ensurePortFree(host: string, port: number): Promise<void> {
  if (port === 0) return;
  const probe = createServer();
  await new Promise<void>((resolvePromise, reject) => {
    probe.once('error', (error: NodeJS.ErrnoException) => {
      const next = port < 65535 ? port + 1 : port - 1;
      const why =
        error.code === 'EADDRINUSE'
          ? `Port ${port} on ${host} is already in use (another \`ninefold start\`?)`
          : error.code === 'EACCES'
            ? `Port ${port} on ${host} needs privileges this process does not have`
            : error.code === 'EADDRNOTAVAIL'
              ? `${host} is not an address of this machine`
              : `Cannot listen on ${host}:${port} (${error.code ?? error.message})`;
      reject(
        new PortUnavailableError(
          `${why}. Nothing was migrated or seeded. Stop what uses it, or choose another port with --port ${next} (or PORT=${next}).`,
        ),
      );
    });
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolvePromise()));
  });
}

/**
 * The demo accounts, and the demo data when the product has none, made by one instance at a time
 * (decision 0023): instances started together on one new database do not both make the accounts
 * (the second would find the email taken) nor both make the records. The second waits for the
 * first, then refreshes the accounts (its passwords are the ones that work) and finds the records made.
 */
async function seedDemo(
  database: Database,
  files: FileStore,
  model: Model,
  env: Environment,
  withData: boolean,
  print: (line: string) => void,
): Promise<DemoAccount[]> {
  const lease = await acquireStartupLease(database, 'demo', {
    onWait: () =>
      print('Another instance is making the demo accounts and data on this database: waiting for it.'),
  });
  try {
    const demoAccounts = await seedDemoAccounts(database, model);
    if (demoAccounts.length === 0 || !withData) return demoAccounts;
    // a quiet twin of the app on the same database: the records are made through every rule of
    // the API without a request log of the seeding; its demo accounts sign in with their passwords
    // alone, as no authenticator app stands behind them (`auth.mfa` holds for the served app)
    const seeder = buildApp({
      model: { ...model, auth: { ...model.auth, mfa: 'optional' } },
      database,
      env,
      files,
      // its requests count apart from the served app's: the demo accounts start with their whole allowance
      counters: memoryCounters(),
      logger: false,
    });
    try {
      const { created } = await seedDemoData(seeder, database, model, demoAccounts, { files });
      const made = Object.entries(created).map(
        ([entity, n]) => `${n} ${model.entities[entity]!.pluralLabel}`,
      );
      if (made.length > 0) print(`Demo data: ${made.join(', ')}, made through the API by the demo accounts.`);
    } finally {
      await seeder.close();
    }
    return demoAccounts;
  } finally {
    // a lease that cannot be given back (the database went away) lapses by itself: the error that
    // matters is the seeding's, if any
    await lease.release().catch(() => undefined);
  }
}
