/**
 * Whether a starting process migrates the database, or serves it as the pre-deploy step left it
 * (decision 0059). `ninefold start` and `ninefold worker` migrate when they are the only instance
 * (SQLite always is), on a database never migrated, or when told (`--migrate`); with other instances
 * serving, the migration is `ninefold migrate --apply`'s, run before the deploy, and a start only
 * checks that the database can serve its spec: every table and column it needs is there.
 */
import { type Model } from '@ninefold/model';
import {
  type Database,
  type MigrationOutcome,
  type PlannedMigration,
  compatibilityCheck,
  migrate,
  planMigration,
  recordedSchema,
} from '@ninefold/server';

/** A start that may not migrate, on a database that cannot serve its spec. */
export class SchemaIncompatibleError extends Error {
  readonly code = 'E_SCHEMA_INCOMPATIBLE';
  constructor(
    readonly label: string,
    readonly problems: readonly string[],
    readonly others: number,
  ) {
    super(
      `The ${label} is not migrated to this spec (${named(problems)}), and ${others} other ` +
        `${others === 1 ? 'instance serves' : 'instances serve'} from it: run \`ninefold migrate <spec> --apply\` ` +
        'first, the pre-deploy step (or give --migrate to `ninefold start` or `ninefold worker`).',
    );
    this.name = 'SchemaIncompatibleError';
  }
}

/** The first problems, and how many more: one line however far behind the database is. */
function named(problems: readonly string[]): string {
  const more = problems.length > 3 ? `; and ${problems.length - 3} more` : '';
  return problems.slice(0, 3).join('; ') + more;
}

export interface PrepareOptions {
  /** `--migrate`: migrate even with other instances serving. */
  readonly migrate: boolean;
  readonly acceptDataLoss: boolean;
  /**
   * How many other instances serve from the database (PostgreSQL: `InstancePresence.others`, or
   * `instancesServing` for a command that is no instance); null where there is only ever one (SQLite).
   */
  readonly others: (() => Promise<number>) | null;
}

/** What the start did: migrated (or found nothing to do), or left the schema to the pre-deploy step. */
export type PreparedSchema =
  | { readonly kind: 'migrated'; readonly outcome: MigrationOutcome }
  | { readonly kind: 'served-as-is'; readonly others: number; readonly pending: PlannedMigration };

/**
 * Migrates the database, or checks that it can serve the spec as it is. Throws
 * {@link SchemaIncompatibleError} when it may not migrate and cannot serve, and `DataLossError`
 * from a migration as `migrate` does.
 *
 * @example
 * const prepared = await prepareSchema(database, model, { migrate: false, acceptDataLoss: false, others: presence.others });
 * if (prepared.kind === 'migrated' && prepared.outcome.status === 'applied') print(prepared.outcome.planText);
 */
export async function prepareSchema(
  database: Database,
  model: Model,
  options: PrepareOptions,
): Promise<PreparedSchema> {
  const apply = async (): Promise<PreparedSchema> => ({
    kind: 'migrated',
    outcome: await migrate(database, model, { acceptDataLoss: options.acceptDataLoss }),
  });
  // a database never migrated serves nobody yet: instances started together on it all try, and the
  // migrations' lock lets one apply while the others wait and then find nothing to do
  if (options.migrate || options.others === null || (await recordedSchema(database)) === null) return apply();
  const others = await options.others();
  if (others === 0) return apply();
  const { problems } = await compatibilityCheck(database, model)();
  if (problems.length > 0) throw new SchemaIncompatibleError(database.label, problems, others);
  return { kind: 'served-as-is', others, pending: await planMigration(database, model) };
}

/**
 * What a start says about the schema: the migration it applied, or why it left the schema alone and
 * what the pre-deploy step would still do; nothing when the database already followed the spec.
 *
 * @example for (const line of describePrepared(prepared)) print(line);
 */
export function describePrepared(prepared: PreparedSchema): string[] {
  if (prepared.kind === 'migrated') {
    const { outcome } = prepared;
    return outcome.status === 'applied'
      ? [`Migrated the database (migration ${String(outcome.id)}):\n${outcome.planText}`]
      : [];
  }
  if (prepared.pending.upToDate) return [];
  const others =
    prepared.others === 1 ? '1 other instance serves' : `${prepared.others} other instances serve`;
  return [
    `${others} from this database: not migrating it. It can serve this spec as it is; ` +
      `\`ninefold migrate <spec> --apply\` would still:\n${prepared.pending.planText}`,
  ];
}
