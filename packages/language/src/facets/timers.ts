/**
 * A transition the clock fires: `after: 7d` (since the record entered a `from` state) or `at: dueAt`
 * (the time a date or datetime field holds). Such a transition belongs to the system, so it names
 * no roles; a person who should also be able to fire it gets a transition of their own.
 */
import { type Entity, type TransitionTimer } from '@ninefold/model';
import { suggestion } from '../diagnostics/suggest.js';
import { own } from '../own.js';
import { type YEntry } from '../source/yaml.js';
import { type CompileContext } from './context.js';
import { capital } from './reader.js';

/** Milliseconds per duration unit: seconds, minutes, hours, days, weeks. */
const UNIT_MS: Readonly<Record<string, number>> = {
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 7 * 86_400_000,
};

/** The longest timer: about a hundred years, far inside a JavaScript date's range. */
const MAX_DURATION_MS = 100 * 365 * 86_400_000;

/**
 * A duration `<number><s|m|h|d|w>` in milliseconds, or null when it is not one (a positive whole
 * number and one unit, nothing else).
 *
 * @example parseDuration('7d') // 604800000
 */
export function parseDuration(text: string): number | null {
  const match = /^([1-9][0-9]{0,11})([smhdw])$/.exec(text);
  if (match === null) return null;
  const ms = Number(match[1]) * UNIT_MS[match[2]!]!;
  return ms <= MAX_DURATION_MS ? ms : null;
}

/** What a transition's entries say about its clock: its `after`, `at` and `roles` entries. */
interface TimerEntries {
  readonly after: YEntry | undefined;
  readonly at: YEntry | undefined;
  readonly roles: YEntry | undefined;
}

/** Reads a transition's `after` or `at`, reporting what is wrong with them; null for no timer. */
export function readTimer(
  ctx: CompileContext,
  entity: Entity,
  where: string,
  entries: TimerEntries,
): TransitionTimer | null {
  const { reader, bag } = ctx;
  const { after, at, roles } = entries;
  if (after === undefined && at === undefined) return null;
  if (after !== undefined && at !== undefined) {
    bag.report(
      'NF213',
      at.keySpan,
      `${capital(where)} has both \`after\` and \`at\`; a timer is one or the other.`,
      'keep `after: 7d` (since the record entered the state) or `at: <date field>`, not both',
    );
    return null;
  }
  if (roles !== undefined) {
    bag.report(
      'NF316',
      roles.keySpan,
      `${capital(where)} is fired by the clock, so no role fires it.`,
      'remove `roles`; to let people fire it too, declare a separate transition with the roles',
    );
  }
  if (after !== undefined) {
    const scalar = reader.scalar(after.value);
    const text = scalar === null || scalar.value === null ? null : String(scalar.value);
    const ms = text === null ? null : parseDuration(text);
    if (ms === null) {
      bag.report(
        'NF212',
        after.value.span,
        `\`after\` of ${where} must be a duration like \`7d\`, found ${text === null ? 'no text' : `\`${text}\``}.`,
        'write a positive whole number and a unit: s, m, h, d or w (`30m`, `7d`)',
      );
      return null;
    }
    return { after: ms };
  }
  const name = reader.string(at!.value, `\`at\` of ${where}`);
  if (name === null) return null;
  const field = own(entity.fields, name);
  if (field === undefined) {
    bag.report(
      'NF302',
      at!.value.span,
      `\`${entity.name}\` has no field \`${name}\` for ${where} to fire at.`,
      suggestion(
        name,
        Object.values(entity.fields)
          .filter((f) => f.type === 'date' || f.type === 'datetime')
          .map((f) => f.name),
        'field',
      ),
    );
    return null;
  }
  if (field.type !== 'date' && field.type !== 'datetime') {
    bag.report(
      'NF313',
      at!.value.span,
      `\`${entity.name}.${name}\` is ${/^[aeiou]/.test(field.type) ? 'an' : 'a'} ${field.type} field; ${where} can fire only at a date or datetime.`,
      'name a field of type date or datetime',
    );
    return null;
  }
  return { at: name };
}
