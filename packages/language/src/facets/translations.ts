/**
 * The spec's translation files (decision 0068): `<spec>.<locale>.yaml` beside the spec, whose YAML
 * mirrors the spec for the words it translates —
 *
 *     entities:
 *       Claim:
 *         label: Note de frais
 *         fields: { amount: { label: Montant } }
 *
 * Each leaf names one of the model's texts (`specTexts`: `entities.Claim.fields.amount.label`). The
 * compiler reads the files it is given (it never opens one itself), reports an unknown key where
 * it is written, checks a translated message's ICU arguments against the source's, and warns of
 * every text a locale leaves untranslated.
 */
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import {
  icuTemplate,
  notationArgumentName,
  specTexts,
  type Model,
  type SpecTranslations,
} from '@ninefold/model';
import { DiagnosticBag, type Diagnostic, type Span } from '../diagnostics/diagnostic.js';
import { suggestion } from '../diagnostics/suggest.js';
import { LineIndex } from '../source/line-index.js';
import { loadYaml, type YNode } from '../source/yaml.js';
import { Reader } from './reader.js';

/** Keys whose text is an ICU message: a translation must parse and use only the source's arguments. */
const ICU_KEY = /^(?:errors\.[^.]+\.message|notifications\.[^.]+\.(?:subject|message))$/;

/**
 * The locale a translation file is for, from its name: `claims.fr-FR.yaml` → `fr-FR`; null when the
 * name carries none.
 *
 * @example translationLocale('examples/helpdesk.ar.yaml') // 'ar'
 */
export function translationLocale(file: string): string | null {
  return /\.([A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*)\.ya?ml$/i.exec(file)?.[1] ?? null;
}

/**
 * The name of the translation file of a spec for a locale: beside it, the spec's name without its
 * extension, then the locale.
 *
 * @example translationFile('examples/helpdesk.md', 'ar') // 'examples/helpdesk.ar.yaml'
 */
export function translationFile(specFile: string, locale: string): string {
  return `${specFile.replace(/\.(?:md|markdown|ya?ml)$/i, '')}.${locale}.yaml`;
}

/**
 * Reads the translation files into `Model.translations`, with their diagnostics: those of each file
 * (unknown keys, bad messages) and the spec's own (NF335 for each untranslated text, at the locale
 * in `product.locales`).
 */
export function readTranslations(
  model: Model,
  files: Readonly<Record<string, string>>,
  specFile: string,
  specBag: DiagnosticBag,
  localeSpans: ReadonlyMap<string, Span>,
): { translations: SpecTranslations; diagnostics: Diagnostic[] } {
  const texts = specTexts(model);
  const keys = Object.keys(texts);
  const [defaultLocale, ...others] = model.product.locales;
  const translations: Record<string, Record<string, string>> = {};
  const diagnostics: Diagnostic[] = [];
  for (const [file, text] of Object.entries(files)) {
    const bag = new DiagnosticBag(file, new LineIndex(text));
    const tag = translationLocale(file);
    const locale = others.find((l) => l.toLowerCase() === tag?.toLowerCase());
    if (locale === undefined) {
      const isDefault = tag !== null && tag.toLowerCase() === defaultLocale?.toLowerCase();
      bag.report(
        'NF337',
        { start: 0, end: Math.min(1, text.length) },
        tag === null
          ? `This file's name does not say which locale it translates into.`
          : isDefault
            ? `\`${tag}\` is the spec's default locale: its words are the spec's own, not translated.`
            : `The spec does not offer \`${tag}\`, so this translation is not used.`,
        isDefault || tag === null
          ? `name a translation \`<spec>.<locale>.yaml\` for a locale of \`product.locales\` after the first`
          : `add \`${tag}\` to \`product.locales\`, or remove the file`,
      );
      diagnostics.push(...bag.items);
      continue;
    }
    const words = (translations[locale] ??= {});
    const root = text.trim() === '' ? null : loadYaml(text, 0, bag);
    if (root !== null) readNode(new Reader(bag), root, '', keys, texts, words);
    diagnostics.push(...bag.items);
  }
  for (const locale of others) {
    const span = localeSpans.get(`locale:${locale}`) ?? { start: 0, end: 0 };
    const words = translations[locale];
    const expected = translationFile(specFile.replace(/^.*[\\/]/, ''), locale);
    if (words === undefined) {
      if (keys.length > 0)
        specBag.report(
          'NF335',
          span,
          `No text of the spec is translated into \`${locale}\`: ${keys.length} ${keys.length === 1 ? 'text stays' : 'texts stay'} in \`${defaultLocale}\`.`,
          `write the translations in \`${expected}\` beside the spec`,
        );
      continue;
    }
    for (const key of keys) {
      if (Object.hasOwn(words, key)) continue;
      specBag.report(
        'NF335',
        span,
        `\`${key}\` is not translated into \`${locale}\`: "${clipped(texts[key]!)}" is shown.`,
        `add it to \`${expected}\``,
      );
    }
  }
  const kept = Object.fromEntries(Object.entries(translations).filter(([, w]) => Object.keys(w).length > 0));
  return { translations: kept, diagnostics };
}

/** Reads one node of a translation file at `path`, each leaf a translated text. */
function readNode(
  reader: Reader,
  node: YNode,
  path: string,
  keys: readonly string[],
  texts: Readonly<Record<string, string>>,
  out: Record<string, string>,
): void {
  if (Object.hasOwn(texts, path)) {
    const text = reader.string(node, `the translation of \`${path}\``);
    if (text !== null && (!ICU_KEY.test(path) || checkArguments(reader, node, path, text, texts[path]!)))
      out[path] = text;
    return;
  }
  const children =
    node.kind === 'map'
      ? node.entries.map((e) => ({ key: e.key, span: e.keySpan, value: e.value }))
      : node.kind === 'seq'
        ? node.items.map((value, i) => ({ key: String(i), span: value.span, value }))
        : null;
  if (children === null) {
    reader.wrongType(node, `${path === '' ? 'A translation file' : `\`${path}\``} must be a mapping`);
    return;
  }
  const prefix = path === '' ? '' : `${path}.`;
  const allowed = [
    ...new Set(keys.filter((k) => k.startsWith(prefix)).map((k) => k.slice(prefix.length).split('.')[0]!)),
  ];
  for (const child of children) {
    if (!allowed.includes(child.key)) {
      reader.bag.report(
        'NF201',
        child.span,
        path === ''
          ? `\`${child.key}\` is not a part of the spec with words to translate.`
          : `\`${child.key}\` is not a translatable text of \`${path}\`.`,
        suggestion(child.key, allowed, 'key'),
      );
      continue;
    }
    readNode(reader, child.value, `${prefix}${child.key}`, keys, texts, out);
  }
}

/** A translated message parses, and names only arguments its source names (NF501, NF502). */
function checkArguments(reader: Reader, node: YNode, key: string, text: string, source: string): boolean {
  const wanted = argumentsOf(source) ?? new Set<string>();
  let used: Set<string> | null;
  try {
    used = argumentsOf(text, true);
  } catch (error) {
    reader.bag.report(
      'NF501',
      node.span,
      `The translation of \`${key}\` is not valid ICU MessageFormat: ${(error as Error).message.toLowerCase().replace(/_/g, ' ')}.`,
      "arguments are written `{name}`; quote a literal brace as `'{'`",
    );
    return false;
  }
  let ok = true;
  for (const name of used ?? []) {
    if (wanted.has(name)) continue;
    ok = false;
    reader.bag.report(
      'NF502',
      node.span,
      `The translation of \`${key}\` uses \`{${name}}\`, which its source text does not.`,
      suggestion(name, [...wanted], 'argument'),
    );
  }
  return ok;
}

/** The argument names of an ICU message; null when it does not parse (unless `strict`: then it throws). */
function argumentsOf(message: string, strict = false): Set<string> | null {
  let ast: MessageFormatElement[];
  try {
    // a notification's `{user.name}` is read as its renderer reads it
    ast = parse(icuTemplate(message), { requiresOtherClause: true });
  } catch (error) {
    if (strict) throw error;
    return null;
  }
  const names = new Set<string>();
  const visit = (elements: readonly MessageFormatElement[]) => {
    for (const el of elements) {
      if (el.type === TYPE.literal || el.type === TYPE.pound) continue;
      if (el.type === TYPE.tag) {
        visit(el.children);
        continue;
      }
      names.add(notationArgumentName(el.value));
      if (el.type === TYPE.plural || el.type === TYPE.select)
        for (const option of Object.values(el.options)) visit(option.value);
    }
  };
  visit(ast);
  return names;
}

function clipped(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 60 ? `${line.slice(0, 57)}…` : line;
}
