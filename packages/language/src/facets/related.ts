/**
 * A detail screen's `related:` key: the child relations its page shows as sections, in order
 * (decision 0047). `Comment.ticket` names the child entity and its ref field that points at the
 * screen's entity; `[]` shows none; without the key the app shows every single ref that points at
 * the entity (null here).
 */
import { type Entity, type RelatedSection, type ScreenKind } from '@ninefold/model';
import { type Span } from '../diagnostics/diagnostic.js';
import { own } from '../own.js';
import { nearest, suggestion } from '../diagnostics/suggest.js';
import { type YEntry } from '../source/yaml.js';
import { type CompileContext } from './context.js';

/**
 * Reads `related:` of a screen; null when the key is absent (the default) or the screen is not a
 * detail screen (reported). Unknown names are reported and left out.
 *
 * @example readRelated(ctx, entry, 'detail', ticket, 'screen `ticket`') // [{ entity: 'Comment', via: 'ticket' }]
 */
export function readRelated(
  ctx: CompileContext,
  entry: YEntry | undefined,
  kind: ScreenKind,
  entity: Entity | null,
  where: string,
): RelatedSection[] | null {
  if (entry === undefined) return null;
  const { reader, bag } = ctx;
  if (kind !== 'detail') {
    bag.report(
      'NF233',
      entry.keySpan,
      `\`related\` lists the sections of a record's page, but ${where} is a ${kind} screen.`,
      'move `related` to the detail screen of the entity, or remove it',
    );
    return null;
  }
  const items = reader.names(entry.value, `\`related\` of ${where}`);
  if (entity === null) return null;
  const out: RelatedSection[] = [];
  const seen = new Set<string>();
  for (const { name, span } of items) {
    const section = readSection(ctx, name, span, entity, where);
    if (section === null) continue;
    const key = `${section.entity}.${section.via}`;
    if (seen.has(key)) {
      bag.report(
        'NF330',
        span,
        `\`${key}\` is listed twice in \`related\` of ${where}.`,
        'list each section once, in the order the page shows them',
      );
      continue;
    }
    seen.add(key);
    out.push(section);
  }
  return out;
}

function readSection(
  ctx: CompileContext,
  name: string,
  span: Span,
  parent: Entity,
  where: string,
): RelatedSection | null {
  const { bag } = ctx;
  const dot = name.indexOf('.');
  const childName = dot < 0 ? name : name.slice(0, dot);
  const via = dot < 0 ? '' : name.slice(dot + 1);
  const child = own(ctx.entities, childName);
  if (child === undefined) {
    bag.report(
      'NF301',
      span,
      `\`${childName}\` is not a declared entity, so ${where} cannot show its records.`,
      suggestion(childName, Object.keys(ctx.entities), 'entity'),
    );
    return null;
  }
  const refs = refsTo(child, parent.name);
  const field = via === '' ? undefined : own(child.fields, via);
  if (field === undefined) {
    const pointing = refs.map((r) => `\`${child.name}.${r}\``).join(' or ');
    bag.report(
      'NF302',
      span,
      via === ''
        ? `\`${name}\` names no field: write \`Entity.field\`, the child's ref to \`${parent.name}\`.`
        : `\`${child.name}\` has no field \`${via}\`.`,
      via !== '' && nearest(via, Object.keys(child.fields)) !== null
        ? suggestion(via, Object.keys(child.fields), 'field')
        : refs.length > 0
          ? `write ${pointing}`
          : `\`${child.name}\` has no ref to \`${parent.name}\``,
    );
    return null;
  }
  if (field.type !== 'ref' || field.to !== parent.name) {
    bag.report(
      'NF329',
      span,
      `\`${child.name}.${via}\` is ${field.type === 'ref' ? `a ref to \`${field.to}\`` : `a ${field.type} field`}, not a ref to \`${parent.name}\`, so it cannot list the children of ${where}.`,
      refs.length > 0
        ? `use ${refs.map((r) => `\`${child.name}.${r}\``).join(' or ')}`
        : `\`${child.name}\` has no ref to \`${parent.name}\`: add one (\`${lowerFirst(parent.name)}: { type: ref, to: ${parent.name} }\`) or remove the section`,
    );
    return null;
  }
  return { entity: child.name, via };
}

/** The ref fields of an entity that point at another, in declaration order. */
function refsTo(entity: Entity, target: string): string[] {
  return Object.values(entity.fields)
    .filter((f) => f.type === 'ref' && f.to === target)
    .map((f) => f.name);
}

function lowerFirst(s: string): string {
  return s.charAt(0).toLowerCase() + s.slice(1);
}
