/**
 * The labels of a widget's groups (decision 0046), as a reader sees each key, in their language
 * (decision 0067): an enum value by its label (`enumLabel`, the spec's translation of it), a state
 * by its label, a boolean as yes or no, a date bucket by its first day in the reader's locale
 * (`date-buckets.ts`), and a ref by the referenced record's display field — only when the viewer
 * may read that record and that field (the target's list permission in SQL, `queryableFields`);
 * otherwise by a neutral label, never its id. The groups without a value (`null`) are labelled
 * "(none)" and come last; enum and state groups come in their declared order, refs by label.
 */
import {
  type FigureGroup,
  type FigureValue,
  type Model,
  type Value,
  type Widget,
  enumLabel,
  humanize,
} from '@ninefold/model';
import { type Database } from '../db/open.js';
import { type EntityTable } from '../resources/records.js';
import { modelIn } from '../http/reader-locale.js';
import { serverWords } from '../http/server-words.js';
import { bucketLabel } from './date-buckets.js';
import { refNames } from '../resources/ref-names.js';
import { type Tables, type Viewer } from './readable-rows.js';

/**
 * The groups with their labels, in the `by` field's order.
 *
 * @example await labelGroups(context, widget, info, [{ key: 'travel', value: 3 }], viewer, 'en-GB') // [{ key: 'travel', label: 'Travel', value: 3 }]
 */
export async function labelGroups(
  context: { readonly model: Model; readonly database: Database; readonly tables: Tables },
  widget: Widget,
  info: EntityTable,
  groups: readonly { key: Value; value: FigureValue }[],
  viewer: Viewer,
  locale: string = context.model.product.locale,
): Promise<FigureGroup[]> {
  const { model } = context;
  const shown = modelIn(model, locale);
  const words = serverWords(locale);
  const by = widget.by!;
  const valued = groups.filter((g) => g.key !== null);
  const none = groups.filter((g) => g.key === null).map((g) => ({ ...g, label: words.none }));
  let labelled: FigureGroup[];
  if (by.bucket !== null) {
    const bucket = by.bucket;
    labelled = valued.map((g) => ({ ...g, label: bucketLabel(String(g.key), bucket, locale) }));
  } else if (by.field === 'state') {
    const machine = shown.states[widget.entity];
    const order = Object.keys(machine?.states ?? {});
    labelled = inOrder(
      valued.map((g) => ({ ...g, label: machine?.states[String(g.key)]?.label ?? humanize(String(g.key)) })),
      order,
    );
  } else {
    const field = info.entity.fields[by.field];
    const type = by.field === 'createdBy' ? 'ref' : field?.type;
    if (type === 'boolean') {
      labelled = inOrder(
        valued.map((g) => ({ ...g, label: g.key === true ? words.yes : words.no })),
        [false, true],
      );
    } else if (type === 'ref') {
      const target = by.field === 'createdBy' ? 'User' : (field?.to ?? 'User');
      const titles = await refNames(
        context,
        target,
        valued.map((g) => String(g.key)),
        viewer,
      );
      labelled = valued
        .map((g) => ({ ...g, label: titles.get(String(g.key)) ?? words.hidden }))
        .sort((a, b) => a.label.localeCompare(b.label, locale));
    } else {
      labelled = inOrder(
        valued.map((g) => ({
          ...g,
          // the label the reader's language gives the value (the spec's translation of it)
          label: enumLabel(shown.entities[widget.entity]?.fields[by.field] ?? field, String(g.key)),
        })),
        field?.values ?? [],
      );
    }
  }
  return [...labelled, ...none];
}

/** Groups in the order of their keys in `order`; keys it does not hold after them, as they came. */
function inOrder(groups: FigureGroup[], order: readonly Value[]): FigureGroup[] {
  const rank = (key: Value) => {
    const i = order.indexOf(key);
    return i === -1 ? order.length : i;
  };
  return [...groups].sort((a, b) => rank(a.key) - rank(b.key));
}
