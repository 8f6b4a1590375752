/**
 * The events of section 7: `on: Ticket.answer` or a list of them, naming a change of a record a
 * notification or a webhook listens to. Read here once for both, so that they accept the same
 * events: `Entity.created`, `Entity.updated`, `Entity.deleted` and `Entity.<transition>`.
 */
import { type Entity, type RecordEvent } from '@ninefold/model';
import { type Span } from '../diagnostics/diagnostic.js';
import { suggestion } from '../diagnostics/suggest.js';
import { own } from '../own.js';
import { type YEntry, type YNode } from '../source/yaml.js';
import { type CompileContext } from './context.js';

/** The changes every entity has, besides its transitions. */
export const LIFECYCLE_EVENTS = ['created', 'updated', 'deleted'] as const;

/** `Entity.event`: the two names, each as the notation writes it. */
const EVENT = /^([A-Za-z][A-Za-z0-9]*)\.([A-Za-z][A-Za-z0-9_]*)$/;

/** An event read from the spec, with where it is written for later diagnostics. */
export interface ReadEvent {
  readonly event: RecordEvent;
  readonly span: Span;
}

/**
 * Reads `on:` of a notification or a webhook: one event or a list, at least one, none twice.
 * Reports each event that is malformed or names an unknown entity or transition and leaves it out.
 *
 * @example readEvents(ctx, onEntry, 'notification `ticket-answered`') // [{ event: { entity: 'Ticket', kind: 'transition', … }, span }]
 */
export function readEvents(ctx: CompileContext, entry: YEntry, where: string): ReadEvent[] {
  const { reader, bag } = ctx;
  const names = reader.names(entry.value, `\`on\` of ${where}`);
  if (entry.value.kind === 'seq' && entry.value.items.length === 0) {
    bag.report(
      'NF203',
      entry.value.span,
      `\`on\` of ${where} lists no event.`,
      'name at least one, like `Claim.created` or `Claim.submit`',
    );
  }
  const out: ReadEvent[] = [];
  const seen = new Set<string>();
  for (const { name, span } of names) {
    const node = nodeAt(entry.value, span);
    const event = readEvent(ctx, name, contentStart(node, span), span, where);
    if (event === null) continue;
    if (seen.has(event.name)) {
      bag.report('NF210', span, `\`${event.name}\` is listed twice in \`on\` of ${where}.`, 'remove one');
      continue;
    }
    seen.add(event.name);
    out.push({ event, span });
  }
  return out;
}

/** The entities the events are about, each once, in order. */
export function eventEntities(ctx: CompileContext, events: readonly ReadEvent[]): Entity[] {
  const names = [...new Set(events.map((e) => e.event.entity))];
  return names.map((name) => ctx.entities[name]!);
}

function readEvent(
  ctx: CompileContext,
  text: string,
  start: number,
  span: Span,
  where: string,
): RecordEvent | null {
  const { bag } = ctx;
  const match = EVENT.exec(text);
  if (match === null) {
    bag.report(
      'NF214',
      span,
      `\`${text}\` in \`on\` of ${where} is not an event.`,
      'write `Entity.created`, `Entity.updated`, `Entity.deleted` or `Entity.<transition>`, like `Claim.submit`',
    );
    return null;
  }
  const [, entityName, change] = match as unknown as [string, string, string];
  const entities = Object.values(ctx.entities).filter((e) => !e.builtin);
  const entity = entities.find((e) => e.name === entityName);
  if (entity === undefined) {
    const builtin = own(ctx.entities, entityName)?.builtin === true;
    bag.report(
      'NF301',
      { start, end: start + entityName.length },
      builtin
        ? `\`${entityName}\` is the built-in entity of users; ${where} cannot listen to its changes.`
        : `\`${entityName}\` is not a declared entity, so ${where} cannot listen to its changes.`,
      suggestion(
        entityName,
        entities.map((e) => e.name),
        'entity',
      ),
    );
    return null;
  }
  const name = `${entityName}.${change}`;
  if ((LIFECYCLE_EVENTS as readonly string[]).includes(change)) {
    return { entity: entityName, kind: change as RecordEvent['kind'], transition: null, name };
  }
  const transitions = Object.keys(ctx.states[entityName]?.transitions ?? {});
  if (!transitions.includes(change)) {
    const at = start + entityName.length + 1;
    bag.report(
      'NF307',
      { start: at, end: at + change.length },
      `\`${change}\` is neither \`created\`, \`updated\`, \`deleted\` nor a transition of \`${entityName}\`.`,
      suggestion(change, [...LIFECYCLE_EVENTS, ...transitions], 'event'),
    );
    return null;
  }
  return { entity: entityName, kind: 'transition', transition: change, name };
}

/** The node a name was read from (the value itself, or the list item at that span). */
function nodeAt(value: YNode, span: Span): YNode {
  if (value.kind !== 'seq') return value;
  return value.items.find((item) => item.span.start === span.start) ?? value;
}

/** Where a scalar's text starts: after its opening quote, if it has one. */
export function contentStart(node: YNode, span: Span = node.span): number {
  const raw = node.kind === 'scalar' ? node.raw : '';
  return span.start + (raw.startsWith('"') || raw.startsWith("'") ? 1 : 0);
}
