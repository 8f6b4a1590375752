import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { type Span } from '../diagnostics/diagnostic.js';
import { suggestion } from '../diagnostics/suggest.js';
import { BUILTIN_ARGUMENTS, BUILTIN_ERRORS, type ErrorDef, specErrorCode } from '@ninefold/model';
import { type YEntry } from '../source/yaml.js';
import { type CompileContext } from './context.js';
import { checkName } from './reader.js';

export const ERROR_KEYS = ['status', 'message', 'field', 'description'] as const;

/** The catalogue: the built-in codes, then the spec's, which may override a built-in message. */
export function readErrors(ctx: CompileContext, entries: readonly YEntry[]): Record<string, ErrorDef> {
  const { reader, bag } = ctx;
  const out: Record<string, ErrorDef> = {};
  for (const def of BUILTIN_ERRORS) out[def.code] = def;
  const fieldNames = new Set(Object.values(ctx.entities).flatMap((e) => Object.keys(e.fields)));
  const argumentNames = [...BUILTIN_ARGUMENTS, ...Object.keys(ctx.constants), ...fieldNames];

  for (const entry of entries) {
    if (!checkName(bag, 'error', entry)) continue;
    const code = entry.key;
    const base = out[code];
    // shorthand: `E_X: "message"`
    const m =
      entry.value.kind === 'scalar' && typeof entry.value.value === 'string'
        ? new Map([['message', { key: 'message', keySpan: entry.keySpan, value: entry.value }]])
        : reader.map(entry.value, `error \`${code}\``, ERROR_KEYS);
    if (m === null) continue;
    ctx.spans.set(`error:${code}`, entry.keySpan);

    let status = base?.status ?? 422;
    const statusEntry = m.get('status');
    if (statusEntry) {
      const v = statusEntry.value;
      if (
        v.kind === 'scalar' &&
        typeof v.value === 'number' &&
        Number.isInteger(v.value) &&
        v.value >= 400 &&
        v.value <= 599
      ) {
        status = v.value;
      } else {
        bag.report(
          'NF503',
          v.span,
          `The status of \`${code}\` must be an HTTP error status from 400 to 599, found ${v.kind === 'scalar' ? String(v.value) : v.kind}.`,
          'use 422 for a broken rule, 409 for a conflict, 403 for a refusal',
        );
      }
    }
    let message = base?.message ?? '';
    const messageEntry = m.get('message');
    if (messageEntry === undefined && base === undefined) {
      reader.missing(
        entry.keySpan,
        'message',
        `error \`${code}\``,
        `message: "Explain what went wrong and how to fix it."`,
      );
    } else if (messageEntry) {
      const text = reader.string(messageEntry.value, `the message of \`${code}\``);
      if (
        text !== null &&
        checkMessage(ctx, text, messageEntry.value.span, messageEntry.value.raw, argumentNames)
      )
        message = text;
    }
    let field = base?.field ?? null;
    const fieldEntry = m.get('field');
    if (fieldEntry) {
      const f = reader.string(fieldEntry.value, `the field of \`${code}\``);
      if (f !== null && !fieldNames.has(f)) {
        bag.report(
          'NF302',
          fieldEntry.value.span,
          `No entity has a field \`${f}\` for \`${code}\` to be shown beside.`,
          suggestion(f, [...fieldNames], 'field'),
        );
      } else field = f;
    }
    const description = m.get('description');
    out[code] = {
      code: base?.code ?? specErrorCode(code),
      status,
      message,
      field,
      description: description
        ? (reader.string(description.value, `the description of \`${code}\``) ?? '')
        : (base?.description ?? ''),
      builtin: base !== undefined,
      ...(base !== undefined && message !== base.message ? { reworded: true as const } : {}),
    };
  }
  return out;
}

/** Parses an ICU message and checks that it uses only arguments that are supplied. */
function checkMessage(
  ctx: CompileContext,
  text: string,
  span: Span,
  raw: string,
  allowed: readonly string[],
): boolean {
  const quote = raw.startsWith('"') || raw.startsWith("'") ? 1 : 0;
  let ast: MessageFormatElement[];
  try {
    ast = parse(text, { requiresOtherClause: true, shouldParseSkeletons: true });
  } catch (error) {
    const e = error as { message: string; location?: { start: { offset: number } } };
    const at = span.start + quote + (e.location?.start.offset ?? 0);
    ctx.bag.report(
      'NF501',
      { start: at, end: at + 1 },
      `This message is not valid ICU MessageFormat: ${e.message.toLowerCase().replace(/_/g, ' ')}.`,
      "arguments are written `{name}`, `{name, number}` or `{count, plural, one {# item} other {# items}}`; quote a literal brace as `'{'`",
    );
    return false;
  }
  let ok = true;
  const visit = (elements: readonly MessageFormatElement[]) => {
    for (const el of elements) {
      if (el.type === TYPE.literal || el.type === TYPE.pound) continue;
      if (el.type === TYPE.tag) {
        visit(el.children);
        continue;
      }
      if (!allowed.includes(el.value)) {
        ok = false;
        const offset = text.indexOf(`{${el.value}`);
        const at = span.start + quote + Math.max(0, offset + 1);
        ctx.bag.report(
          'NF502',
          { start: at, end: at + el.value.length },
          `The message uses \`{${el.value}}\`, which no error supplies.`,
          suggestion(el.value, allowed, 'argument'),
        );
      }
      if (el.type === TYPE.plural || el.type === TYPE.select) {
        for (const option of Object.values(el.options)) visit(option.value);
      }
    }
  };
  visit(ast);
  return ok;
}
