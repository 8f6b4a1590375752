/**
 * A list's filters over a list of refs (decision 0044): each an EXISTS over its join table, so the
 * database answers it by the table's keys.
 *
 * | filter                 | rows whose list…              |
 * | ---------------------- | ----------------------------- |
 * | `tags=ID`, `tags[contains]=ID` | holds ID              |
 * | `tags[ne]=ID`          | does not hold ID (or is empty) |
 * | `tags[in]=a,b`         | holds a or b                  |
 * | `tags[isNull]=true`    | is empty                      |
 * | `tags[isNull]=false`   | holds some id                 |
 */
import { JOIN_COLUMNS } from '@ninefold/engine';
import { type FilterOperator } from '@ninefold/model';
import { type RawBuilder, sql } from 'kysely';
import { ApiError } from '../http/errors.js';

function invalid(reason: string): ApiError {
  return new ApiError('E_INVALID_QUERY', { reason });
}

/**
 * The condition of one filter on a list of refs. `ids` checks and returns the ids of the filter's
 * value (E_INVALID_QUERY for one that is no id).
 *
 * @example listFilter('projects__members', 'projects', 'members', 'eq', id, check, 100)
 */
export function listFilter(
  table: string,
  holderTable: string,
  name: string,
  op: FilterOperator,
  text: string,
  ids: (items: readonly string[]) => string[],
  maxItems: number,
): RawBuilder<unknown> {
  const rows = sql`select 1 from ${sql.table(table)} where ${sql.ref(`${table}.${JOIN_COLUMNS.holder}`)} = ${sql.ref(`${holderTable}.id`)}`;
  const target = sql.ref(`${table}.${JOIN_COLUMNS.target}`);
  switch (op) {
    case 'isNull':
      if (text !== 'true' && text !== 'false') throw invalid(`\`${name}[isNull]\` must be true or false`);
      return text === 'true' ? sql`not exists (${rows})` : sql`exists (${rows})`;
    case 'eq':
    case 'contains':
      return sql`exists (${rows} and ${target} = ${ids([text])[0]})`;
    case 'ne':
      return sql`not exists (${rows} and ${target} = ${ids([text])[0]})`;
    case 'in': {
      const items = text.split(',');
      if (items.length > maxItems) throw invalid(`\`${name}[in]\` takes at most ${maxItems} values`);
      return sql`exists (${rows} and ${target} in (${sql.join(ids(items).map((id) => sql.val(id)))}))`;
    }
    default:
      throw invalid(
        `${name} is a list: filter it with \`${name}\`, \`${name}[in]\`, \`${name}[ne]\` or \`${name}[isNull]\``,
      );
  }
}
