/**
 * The cells of a CSV export as the app shows them (decision 0065): a state by its label, an enum
 * value and a boolean in words, a ref by the referenced record's name (or "(hidden)"), money with
 * its currency and dates in the reader's locale (decision 0067: the spec's translated state labels,
 * the server's words in its language). The raw export (`format=csv-raw`) skips this.
 */
import {
  type Entity,
  type Field,
  type Model,
  type Value,
  enumLabel,
  humanize,
  isFileInfo,
} from '@ninefold/model';
import { entityTables } from '../dashboards/readable-rows.js';
import { modelIn } from '../http/reader-locale.js';
import { serverWords } from '../http/server-words.js';
import { type Caller } from './caller.js';
import { refNames } from './ref-names.js';
import { type EntityResource } from './resource.js';

/** Writes one page of rows' cells in words; `prepare` first reads the names of the page's refs. */
export interface CsvLabeller {
  prepare(rows: readonly Record<string, Value>[]): Promise<void>;
  cell(column: string, value: Value | undefined): Value | undefined;
}

/**
 * The labeller of one export.
 *
 * @example const labels = csvLabeller(resource, caller); await labels.prepare(rows); labels.cell('state', 'draft') // 'Draft'
 */
export function csvLabeller(
  resource: EntityResource,
  caller: Caller,
  locale: string = resource.model.product.locale,
): CsvLabeller {
  const { model, database } = resource;
  const entity = resource.info.entity;
  const shown = modelIn(model, locale);
  const words = serverWords(locale);
  const context = { model, database, tables: entityTables(model) };
  const viewer = { user: caller.user, now: caller.now };
  const refs = refTargets(entity);
  let names = new Map<string, Map<string, string>>();
  const money = new Map<string, Intl.NumberFormat>();
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' });
  const instant = new Intl.DateTimeFormat(locale, {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: 'UTC',
  });

  const one = (field: Field, value: Value): Value => {
    switch (field.type) {
      case 'enum':
        // in the reader's language: the spec's translation of the value's label
        return enumLabel(shown.entities[entity.name]?.fields[field.name] ?? field, String(value));
      case 'boolean':
        return value === true ? words.yes : words.no;
      case 'money': {
        const key = `${field.currency ?? ''}|${field.scale ?? ''}`;
        let format = money.get(key);
        if (format === undefined) money.set(key, (format = moneyFormat(locale, field.currency, field.scale)));
        // a decimal string formats exactly: Intl reads it as a decimal, not through a double
        return format.format(String(value) as unknown as number);
      }
      case 'date':
        return date.format(new Date(`${String(value)}T00:00:00.000Z`));
      case 'datetime':
        return instant.format(new Date(String(value)));
      case 'ref':
        return field.to === null ? String(value) : (names.get(field.to)?.get(String(value)) ?? words.hidden);
      default:
        return isFileInfo(value) ? value.name : value;
    }
  };

  return {
    async prepare(rows) {
      const wanted = new Map<string, Set<string>>();
      for (const row of rows)
        for (const [name, target] of refs)
          for (const id of idsOf(row[name])) {
            let ids = wanted.get(target);
            if (ids === undefined) wanted.set(target, (ids = new Set()));
            ids.add(id);
          }
      names = new Map();
      for (const [target, ids] of wanted)
        names.set(target, await refNames(context, target, [...ids], viewer));
    },
    cell(column, value) {
      if (value === null || value === undefined) return value;
      if (column === 'state') return stateLabel(shown, entity, String(value));
      const field =
        column === 'createdAt' || column === 'updatedAt'
          ? ({ type: 'datetime' } as Field)
          : entity.fields[column];
      if (field === undefined) return value;
      if (Array.isArray(value)) return value.map((item) => String(one(field, item))).join('; ');
      return one(field, value);
    },
  };
}

function moneyFormat(locale: string, currency: string | null, scale: number | null): Intl.NumberFormat {
  const digits = scale ?? 2;
  return new Intl.NumberFormat(locale, {
    ...(currency === null ? {} : { style: 'currency', currency }),
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
}

function stateLabel(model: Model, entity: Entity, state: string): string {
  return model.states[entity.name]?.states[state]?.label ?? humanize(state);
}

/** The ref fields of an entity, by name, with the entity each points at. */
function refTargets(entity: Entity): [string, string][] {
  return Object.values(entity.fields).flatMap((f) =>
    f.type === 'ref' && f.to !== null ? [[f.name, f.to]] : [],
  );
}

function idsOf(value: Value | undefined): string[] {
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
