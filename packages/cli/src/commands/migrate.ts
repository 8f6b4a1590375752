/**
 * `ninefold migrate`: the plan that would bring the database to a spec, and with `--apply` the
 * pre-deploy step that applies it (decision 0059). Also where the other commands open a spec's
 * database (`openSpecDatabase`).
 */
import { parseArgs } from 'node:util';
import { mkdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { readSpecTranslations } from '../spec-translations.js';
import { compile } from '@ninefold/language';
import { type Model } from '@ninefold/model';
import { type Database, DataLossError, migrate, openDatabase, planMigration } from '@ninefold/server';
import { EXIT, type Io } from '../io.js';
import { missingSpecMessage } from '../spec-path.js';

export const MIGRATE_HELP = `Usage: ninefold migrate <spec> --apply [options]

Prints the plan that brings the database to the schema the spec asks for; with --apply, applies it.
Run \`ninefold migrate <spec> --apply\` with the new spec before a deploy (the pre-deploy step): the
instances still serving the old spec stay ready while it adds fields, tables and indexes, and the
new ones start on a database that can serve them.

Without --apply nothing changes, and it exits 1 while there is a plan to apply (0 when the database
already follows the spec): a script written when migrate applied by itself stops there instead of
deploying onto a database that was not migrated.

A plan that would lose data (a dropped field or entity, a narrowed type, a field made required
without a default) is refused, printed, and exits 1 unless --accept-data-loss is given.

Options:
  --apply              apply the plan
  --accept-data-loss   with --apply: apply a lossy plan
  --data <folder>      where the SQLite database lives (default ./data); DATABASE_URL selects PostgreSQL
`;

/** `ninefold migrate`. */
export async function migrateCommand(args: readonly string[], io: Io): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      allowPositionals: true,
      options: {
        data: { type: 'string' },
        apply: { type: 'boolean' },
        'accept-data-loss': { type: 'boolean' },
      },
    });
  } catch (error) {
    io.stderr.write(`${(error as Error).message}\n\n${MIGRATE_HELP}`);
    return EXIT.usage;
  }
  const [spec, ...extra] = parsed.positionals;
  if (spec === undefined || extra.length > 0) {
    io.stderr.write(`Give exactly one spec to migrate to.\n\n${MIGRATE_HELP}`);
    return EXIT.usage;
  }
  const opened = await openSpecDatabase(spec, parsed.values.data, io);
  if (opened === null) return EXIT.errors;
  const { model, database } = opened;
  try {
    if (parsed.values.apply !== true) return await printPlan(database, model, spec, io);
    const outcome = await migrate(database, model, {
      acceptDataLoss: parsed.values['accept-data-loss'] === true,
    });
    if (outcome.status === 'up-to-date') io.stdout.write('The database already follows the spec.\n');
    else io.stdout.write(`Applied migration ${String(outcome.id)}:\n${outcome.planText}\n`);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof DataLossError) {
      io.stderr.write(`${error.message}\n`);
      return EXIT.errors;
    }
    io.stderr.write(`Could not migrate: ${(error as Error).message}\n`);
    return EXIT.errors;
  } finally {
    await database.close();
  }
}

/** `migrate` without `--apply`: the plan, and how to apply it; nothing changes. */
async function printPlan(database: Database, model: Model, spec: string, io: Io): Promise<number> {
  const planned = await planMigration(database, model);
  if (planned.upToDate) {
    io.stdout.write('The database already follows the spec.\n');
    return EXIT.ok;
  }
  const lossy = planned.plan.lossy ? ' --accept-data-loss' : '';
  io.stdout.write(`The plan${planned.plan.lossy ? ' (lossy steps marked !)' : ''}:\n${planned.planText}\n`);
  io.stderr.write(
    `Nothing was applied: run \`ninefold migrate ${spec} --apply${lossy}\` to apply the plan.\n`,
  );
  return EXIT.errors;
}

/**
 * Compiles a spec and opens its database: DATABASE_URL when set, else the SQLite file in the data
 * folder. Reports a spec with errors and returns null.
 */
export async function openSpecDatabase(
  spec: string,
  data: string | undefined,
  io: Io,
): Promise<{ model: Model; database: Database } | null> {
  const missing = missingSpecMessage(io.cwd, spec);
  if (missing !== null) {
    io.stderr.write(`Cannot read the spec: ${missing}\n`);
    return null;
  }
  const path = resolve(io.cwd, spec);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    io.stderr.write(`Cannot read the spec ${spec}.\n`);
    return null;
  }
  const compiled = compile(text, { file: spec, translations: readSpecTranslations(path) });
  if (!compiled.ok) {
    io.stderr.write(`The spec has errors; run \`ninefold check ${spec}\` for details.\n`);
    return null;
  }
  const url = (io.env ?? {})['DATABASE_URL'];
  if (url !== undefined && url !== '') {
    const listenUrl = (io.env ?? {})['DATABASE_LISTEN_URL'];
    return { model: compiled.model, database: await openDatabase(url, { listenUrl }) };
  }
  const dir = resolve(io.cwd, data ?? 'data');
  await mkdir(dir, { recursive: true });
  return { model: compiled.model, database: await openDatabase({ sqlite: join(dir, 'ninefold.sqlite') }) };
}
