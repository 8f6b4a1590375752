/**
 * The names a notification's subject and message may use, and how a dotted name reaches ICU.
 * A notification speaks of the record (`{subject}`) and of the person who changed it
 * (`{user.name}`). ICU MessageFormat does not allow a dot in an argument name, so the compiler,
 * which checks the texts, and the engine, which renders them, both read a text through
 * `icuTemplate`: one rewrite, so that what the check accepts is what the renderer fills in.
 */

/** The actor's fields a notification's text may use: the person who made the change. */
export const ACTOR_ARGUMENTS = ['user.id', 'user.name', 'user.email'] as const;

/** The system fields a notification's text may use besides the record's own fields. */
export const NOTIFICATION_SYSTEM_ARGUMENTS = ['id', 'createdAt', 'updatedAt', 'state'] as const;

/** What a dot becomes in an ICU argument name: field names are camelCase, so it never clashes. */
const DOT = '__';

/** `{` then a dotted name, up to the `,` or `}` that ends the name. */
const DOTTED_ARGUMENT = /^\{(\s*)([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+)(?=\s*[,}])/;

/** Characters after an apostrophe that open a quoted literal, where a brace is text. */
const QUOTE_OPENERS = new Set(['{', '}', '<']);

/**
 * The ICU argument name a notation name is filled in under.
 *
 * @example icuArgumentName('user.name') // 'user__name'
 */
export function icuArgumentName(name: string): string {
  return name.split('.').join(DOT);
}

/**
 * The notation name of an ICU argument name, for messages: the inverse of `icuArgumentName`.
 *
 * @example notationArgumentName('user__name') // 'user.name'
 */
export function notationArgumentName(name: string): string {
  return name.split(DOT).join('.');
}

/**
 * A notification text made ready for an ICU parser: each dotted argument name (`{user.name}`,
 * `{user.name, select, …}`) becomes an ICU name (`{user__name}`). Text in an ICU quote
 * (`'{user.name}'`) stays as written, as ICU shows it literally.
 *
 * @example icuTemplate('{user.name} answered: {lastReply}') // '{user__name} answered: {lastReply}'
 */
export function icuTemplate(template: string): string {
  let out = '';
  let i = 0;
  while (i < template.length) {
    const c = template[i]!;
    if (c === "'") {
      const end = quotedEnd(template, i);
      out += template.slice(i, end);
      i = end;
      continue;
    }
    if (c === '{') {
      const match = DOTTED_ARGUMENT.exec(template.slice(i));
      if (match !== null) {
        out += `{${match[1]}${icuArgumentName(match[2]!)}`;
        i += match[0].length;
        continue;
      }
    }
    out += c;
    i++;
  }
  return out;
}

/**
 * Where the apostrophe at `start` stops having effect: after `''` (one literal apostrophe), after
 * a quoted literal `'{…}'` (up to its closing apostrophe, `''` inside it being one apostrophe),
 * or right after itself when it quotes nothing.
 */
function quotedEnd(template: string, start: number): number {
  const next = template[start + 1];
  if (next === "'") return start + 2;
  if (next === undefined || !QUOTE_OPENERS.has(next)) return start + 1;
  let j = start + 2;
  while (j < template.length) {
    if (template[j] === "'") {
      if (template[j + 1] === "'") j += 2;
      else return j + 1;
    } else j++;
  }
  return template.length;
}
