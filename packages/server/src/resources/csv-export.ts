/**
 * A list as CSV: every row the list would show, read page by page along the keyset so that memory
 * stays flat whatever the count. Columns are the fields the user may read; a value a row's mask
 * hides is empty. Cells are in words by default (`csv-labels.ts`), headers and words in the reader's
 * language (`readerLocale`: saved, else Accept-Language, else the spec's default); `format=csv-raw`
 * writes the stored values, with the ids, under the spec's own labels (system columns in English).
 */
import { queryableFields } from '@ninefold/engine';
import { type Value, isFileInfo } from '@ninefold/model';
import { type FastifyReply } from 'fastify';
import { type RawBuilder } from 'kysely';
import { Readable } from 'node:stream';
import { modelIn, readerLocale } from '../http/reader-locale.js';
import { serverWords } from '../http/server-words.js';
import { type Caller } from './caller.js';
import { csvLabeller } from './csv-labels.js';
import { type PageReader } from './list-page.js';
import { type SortKey, cursorCondition, encodeCursor } from './list-query.js';
import { present } from './present.js';
import { type EntityResource } from './resource.js';

/**
 * Streams the rows of `conditions` in `sort` order as a CSV attachment.
 *
 * @example return exportCsv(resource, page, reply, caller, conditions, query.sort);
 */
export function exportCsv(
  resource: EntityResource,
  page: PageReader,
  reply: FastifyReply,
  caller: Caller,
  conditions: readonly RawBuilder<unknown>[],
  sort: readonly SortKey[],
  raw = false,
): FastifyReply {
  const { model, entity, info } = resource;
  const readable = queryableFields(model, caller.user, entity);
  const fields = Object.values(info.entity.fields).filter((f) => readable === null || readable.has(f.name));
  const hasState = model.states[entity] !== undefined;
  // in words, a record is named by its fields; its id is only for the raw values (decision 0065)
  // in words, in the reader's language (decision 0067); the raw values keep the headers a program
  // reading them expects: the spec's own labels, the system columns in English
  const locale = raw ? model.product.locale : readerLocale(model, reply.request);
  const shown = raw ? model : modelIn(model, locale);
  const words = serverWords(raw ? 'en' : locale);
  const labels = raw ? null : csvLabeller(resource, caller, locale);
  const columns = [
    ...(raw ? [{ name: 'id', label: words.id }] : []),
    ...(hasState ? [{ name: 'state', label: words.state }] : []),
    ...fields.map((f) => ({ name: f.name, label: shown.entities[entity]?.fields[f.name]?.label ?? f.label })),
    { name: 'createdAt', label: words.created },
    { name: 'updatedAt', label: words.updated },
  ];
  const pageSize = model.limits.maxPageSize;
  const next = (last: Record<string, Value>) =>
    cursorCondition(info, sort, encodeCursor(sort, last), resource.database.dialect).condition;
  async function* lines(): AsyncGenerator<string> {
    yield `\uFEFF${columns.map((c) => csvCell(c.label)).join(',')}\r\n`;
    let after: RawBuilder<unknown> | null = null;
    for (;;) {
      const { shown, more } = await page(conditions, after, sort, pageSize);
      let chunk = '';
      const rows = shown.map((record) => present(resource, record, caller));
      await labels?.prepare(rows);
      for (const row of rows) {
        const cells = columns.map((c) =>
          csvCell(labels === null ? row[c.name] : labels.cell(c.name, row[c.name])),
        );
        chunk += `${cells.join(',')}\r\n`;
      }
      if (chunk !== '') yield chunk;
      const last = shown.at(-1);
      if (!more || last === undefined) return;
      after = next(last);
    }
  }
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header(
      'content-disposition',
      `attachment; filename="${info.entity.resource}-${caller.today}${raw ? '-raw' : ''}.csv"`,
    )
    .header('cache-control', 'no-store')
    .header('content-language', locale)
    .send(Readable.from(lines()));
}

/**
 * One CSV cell (RFC 4180): quoted when it must be, and a text that a spreadsheet would run as a
 * formula (`=`, `+`, `-`, `@` first) is prefixed with an apostrophe. A file is written as its name.
 */
export function csvCell(value: Value | undefined): string {
  if (value === null || value === undefined) return '';
  // a file is its name (decision 0054); a list of files, their names
  let text = Array.isArray(value)
    ? value.map((item) => (isFileInfo(item) ? item.name : String(item))).join('; ')
    : isFileInfo(value)
      ? value.name
      : typeof value === 'object'
        ? JSON.stringify(value)
        : String(value);
  if (typeof value !== 'number' && typeof value !== 'boolean' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
