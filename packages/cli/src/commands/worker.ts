/**
 * `ninefold worker`: a process that runs only the product's jobs, beside the servers, on the same
 * PostgreSQL database (decision 0028). Several workers and servers share the jobs, each claimed by
 * one. On SQLite there is one process, and `ninefold start` runs the jobs itself: the worker refuses.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  DataLossError,
  type InstancePresence,
  JobRunner,
  openFileStore,
  productJobHandlers,
  registerInstance,
  scheduleFileSweep,
} from '@ninefold/server';
import { describePrepared, prepareSchema, SchemaIncompatibleError } from '../deploy-schema.js';
import { describeUnset, unsetVariables } from '../environment.js';
import { EXIT, type Io } from '../io.js';
import { openSpecDatabase } from './migrate.js';

export const WORKER_HELP = `Usage: ninefold worker <spec> [--data <folder>] [--migrate]

Runs the product's jobs (timers, notifications, webhook deliveries) in a process of its own, against
the PostgreSQL database of DATABASE_URL, until SIGTERM or SIGINT; then it lets the running jobs
finish. Any number of workers and \`ninefold start\` servers share the jobs; each job runs once per
attempt. It migrates the database as \`ninefold start\` does — when it is the only instance, or
with --migrate; else it runs when the database has every table and column the spec needs, and stops
naming \`ninefold migrate <spec> --apply\` when not — and refuses a plan that would lose data.

Options:
  --migrate         migrate even while other instances serve from the database
  --data <folder>   where uploaded files are when STORAGE_URL is not set (default ./data, its
                    files/ folder): the servers' own, as the worker removes the files they expire.
                    With STORAGE_URL (s3://bucket…), the files are in that bucket.

On SQLite (no DATABASE_URL), \`ninefold start\` runs the jobs itself and no worker is needed.
Like \`ninefold start\`, it refuses to run while a \${NAME} that a webhook or single sign-on
(auth.oidc) reads is unset.
`;

/** `ninefold worker`. */
export async function worker(args: readonly string[], io: Io): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      allowPositionals: true,
      options: { data: { type: 'string' }, migrate: { type: 'boolean' } },
    });
  } catch (error) {
    io.stderr.write(`${(error as Error).message}\n\n${WORKER_HELP}`);
    return EXIT.usage;
  }
  const [spec, ...extra] = parsed.positionals;
  if (spec === undefined || extra.length > 0) {
    io.stderr.write(`Give exactly one spec whose jobs to run.\n\n${WORKER_HELP}`);
    return EXIT.usage;
  }
  const url = (io.env ?? {})['DATABASE_URL'] ?? '';
  if (!/^postgres(ql)?:\/\//i.test(url)) {
    io.stderr.write(
      'A worker runs beside servers on one PostgreSQL database: set DATABASE_URL to a postgres:// URL. ' +
        'On SQLite, `ninefold start` runs the jobs itself.\n',
    );
    return EXIT.errors;
  }
  const env = io.env ?? process.env;
  let files;
  try {
    files = openFileStore(env, resolve(io.cwd, parsed.values.data ?? 'data'));
  } catch (error) {
    // a STORAGE_URL that cannot be used: the message says why, never a secret
    io.stderr.write(`Could not start: ${(error as Error).message}\n`);
    return EXIT.errors;
  }
  let opened;
  try {
    opened = await openSpecDatabase(spec, undefined, io);
  } catch (error) {
    io.stderr.write(`Could not open the database: ${(error as Error).message}\n`);
    return EXIT.errors;
  }
  if (opened === null) return EXIT.errors;
  const { model, database } = opened;
  const unset = unsetVariables(model, io.env ?? process.env);
  if (unset.length > 0) {
    await database.close();
    io.stderr.write(`Could not start: ${describeUnset(unset)}\n`);
    return EXIT.errors;
  }
  let presence: InstancePresence | null = null;
  try {
    presence = await registerInstance(database);
    const prepared = await prepareSchema(database, model, {
      migrate: parsed.values.migrate === true,
      acceptDataLoss: false,
      others: presence?.others ?? null,
    });
    for (const line of describePrepared(prepared)) io.stdout.write(`${line}\n`);
  } catch (error) {
    await presence?.release().catch(() => undefined);
    await database.close();
    const message =
      error instanceof DataLossError
        ? error.message
        : error instanceof SchemaIncompatibleError
          ? `Could not start: ${error.message}`
          : `Could not migrate: ${(error as Error).message}`;
    io.stderr.write(`${message}\n`);
    return EXIT.errors;
  }
  let handlers;
  try {
    handlers = productJobHandlers({ model, database, files, env });
    // the daily sweep of bytes no row names, pending from the first start on (decision 0071)
    await scheduleFileSweep(database.db, new Date());
  } catch (error) {
    // a webhook the environment does not set right (WebhookConfigError names it), or the database
    await presence.release().catch(() => undefined);
    await database.close();
    io.stderr.write(`Could not start: ${(error as Error).message}
`);
    return EXIT.errors;
  }
  const runner = new JobRunner({
    database,
    handlers,
    onError: (error) =>
      io.stderr.write(
        `The job runner could not claim, settle or prune jobs, or listen for them: ${String(error)}\n`,
      ),
  });
  runner.start();
  io.stdout.write(`Running the jobs of ${model.product.name} on ${database.label}.\n`);
  io.stdout.write(`Files are stored in ${files.description}.\n`);
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      await runner.stop();
      await presence?.release();
      await database.close();
    })());
  if (io.onStarted !== undefined) {
    // an embedder (a test) owns the worker's lifetime
    io.onStarted({ url: database.label, close });
    return EXIT.ok;
  }
  // the runner's timers do not hold the process open: this does, until a signal
  const keepAlive = setInterval(() => undefined, 60 * 60_000);
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGTERM', resolve);
    process.once('SIGINT', resolve);
  });
  clearInterval(keepAlive);
  io.stdout.write(`${signal}: letting the running jobs finish, then stopping.\n`);
  await close();
  return EXIT.ok;
}
