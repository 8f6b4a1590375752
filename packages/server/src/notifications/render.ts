/**
 * Rendering a notification's subject and message for one recipient: ICU messages (the engine's
 * intl-messageformat support) over the record's fields, the spec's constants and `user.*` (the
 * person who made the change). Only the values the recipient may read are given: every other
 * argument renders as empty text, so a masked field can never reach a notification.
 *
 * It is kept in this one module so that a renderer the engine exports later can replace it.
 */
import { compileMessage } from '@ninefold/engine/messages';
import { messageValues } from '@ninefold/engine/message-text';
import { type Model, type Value } from '@ninefold/model';

/** The values a recipient may read: the record's fields, and the actor's `id`, `name`, `email`. */
export interface RenderValues {
  readonly record: Readonly<Record<string, Value | undefined>>;
  readonly user: Readonly<Record<string, Value | undefined>>;
}

/** `{user.name}` is not an ICU argument name; it is renamed to this prefix and the field before compiling. */
const USER_PREFIX = '__user_';
const USER_ARGUMENT = /\{(\s*)user\.([A-Za-z_][A-Za-z0-9_]*)/g;

/** An argument element of the ICU parser's tree: it has a `value` (the name) and maybe children. */
interface AstElement {
  readonly type: number;
  readonly value?: unknown;
  readonly options?: Readonly<Record<string, { readonly value: readonly AstElement[] }>>;
  readonly children?: readonly AstElement[];
}

/** ICU element types that name an argument (argument, number, date, time, select, plural). */
const ARGUMENT_TYPES = new Set([1, 2, 3, 4, 5, 6]);

/**
 * Renders an ICU template in the product's locale with the recipient's values and the spec's
 * constants. An argument without a value (a
 * field they may not read, an empty field, a name the record does not have) renders as empty text;
 * a template that cannot be rendered at all comes back as written, never with a value in it.
 *
 * @example renderTemplate(model, '{user.name} answered {subject}', { record: { subject: 'Printer' }, user: { name: 'Ann' } }) // 'Ann answered Printer'
 */
export function renderTemplate(model: Model, template: string, values: RenderValues): string {
  const source = template.replace(USER_ARGUMENT, (_, space: string, name: string) => {
    return `{${space}${USER_PREFIX}${name}`;
  });
  const format = compileMessage(source, model.product.locale);
  if (format === null) return template;
  const params: Record<string, Value | undefined> = { ...values.record };
  for (const [name, value] of Object.entries(values.user)) params[`${USER_PREFIX}${name}`] = value;
  const given = messageValues(model, params);
  const ast = (format as unknown as { getAst(): readonly AstElement[] }).getAst();
  for (const name of argumentNames(ast)) if (!Object.hasOwn(given, name)) given[name] = '';
  try {
    const out = format.format(given);
    return typeof out === 'string' ? out : Array.isArray(out) ? out.join('') : String(out);
  } catch {
    return template;
  }
}

/** The names of the arguments a parsed template uses, nested ones included. */
function argumentNames(elements: readonly AstElement[]): Set<string> {
  const names = new Set<string>();
  const visit = (list: readonly AstElement[]) => {
    for (const element of list) {
      if (ARGUMENT_TYPES.has(element.type) && typeof element.value === 'string') names.add(element.value);
      for (const option of Object.values(element.options ?? {})) visit(option.value);
      if (element.children !== undefined) visit(element.children);
    }
  };
  visit(elements);
  return names;
}
