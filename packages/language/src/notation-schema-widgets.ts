/**
 * The JSON Schema of a dashboard's `widgets:` (decision 0046), for `notation-schema.ts` to put
 * under a screen's `widgets` key. Built from the key list `facets/widgets.ts` accepts, through a
 * table typed `Record<Key, …>`, so a key added to the reader fails the build until it is described.
 *
 * @example widgetsSchema.items.properties.measure // the shape of a widget's `measure`
 */
import { DATE_BUCKETS, WIDGET_CHARTS } from '@ninefold/model';
import { NAME_RULES } from './facets/reader.js';
import type { WIDGET_KEYS } from './facets/widgets.js';
import { type JsonSchema as Schema, text } from './notation-schema-parts.js';

const widgetShapes: Readonly<Record<(typeof WIDGET_KEYS)[number], Schema>> = {
  id: text('The widget’s key in the API. Defaults from the title: `Claims by state` → `claims-by-state`.', {
    pattern: NAME_RULES.screen.pattern.source,
  }),
  title: text('The heading of the figure.', { pattern: '\\S' }),
  entity: text('The entity whose records it measures.', { pattern: NAME_RULES.entity.pattern.source }),
  where: text(
    "A fixed condition on the records it measures; must compile to SQL. A CEL expression over the record's fields, the constants, `user`, `now` and `own`.",
  ),
  measure: text(
    'What it measures: `count` (the default), or `sum(field)`, `avg(field)`, `min(field)`, `max(field)` of an integer, decimal or money field.',
    { pattern: '^\\s*(count|(sum|avg|min|max)\\s*\\(\\s*[A-Za-z_][A-Za-z0-9_]*\\s*\\))\\s*$' },
  ),
  by: text(
    'A field to group by: an enum, `state`, a single ref, a boolean, or a date or datetime (bucketed).',
    { pattern: NAME_RULES.field.pattern.source },
  ),
  bucket: text('How a date groups: by `day`, `week` (from Monday) or `month` (the default).', {
    enum: [...DATE_BUCKETS],
  }),
  chart: text(
    'How it is drawn: `number` (the default without `by`), `bar` (the default with it), `line` (by a date), `pie` or `table`.',
    { enum: [...WIDGET_CHARTS] },
  ),
};

/** A dashboard's widgets: a list of figures, each with a title and an entity. */
export const widgetsSchema = {
  type: 'array',
  description: 'The figures of a `kind: dashboard` screen, in order.',
  items: {
    type: 'object',
    title: 'Widget',
    properties: widgetShapes,
    additionalProperties: false,
    required: ['title', 'entity'],
  },
} as const satisfies Schema;
