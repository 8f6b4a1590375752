import { type MessageFormatElement, TYPE, parse } from '@formatjs/icu-messageformat-parser';
import { simpleMessage } from '@ninefold/engine/message-text';
import { BUILTIN_ERRORS, BUILTIN_USER_WORDS, UI_LANGUAGES } from '@ninefold/model';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AREAS } from '../src/i18n/catalogue';

/**
 * The catalogues hold together (decision 0067): every key of English, the source, in every shipped
 * language and no other; every key named after its area; every template valid ICU with English's
 * argument names, plurals only with the language's own categories; the `first` area plain, so that
 * the first render fills it in without the ICU compiler; no empty text, none left as its key. The
 * same for the translations of the built-in error messages, against `BUILTIN_ERRORS`.
 *
 * Failures name the language, the area and the keys, so a translator knows what to add.
 */

// jsdom resolves import.meta.url against the page: the repository root is the anchor, as in harness.tsx
const CLIENT_CATALOGUES = join(process.cwd(), 'packages/client/src/i18n/catalogues');
const MODEL_CATALOGUES = join(process.cwd(), 'packages/model/src/catalogue');

type Catalogue = Record<string, unknown>;

function readJson(path: string): Catalogue {
  return JSON.parse(readFileSync(path, 'utf8')) as Catalogue;
}

function areaOf(language: string, area: string): Catalogue | null {
  const path = join(CLIENT_CATALOGUES, language, `${area}.json`);
  return existsSync(path) ? readJson(path) : null;
}

/** What went wrong with one template's syntax and arguments, compared with English's; `[]` when nothing. */
function templateProblems(
  key: string,
  template: unknown,
  english: string | undefined,
  language: string,
): string[] {
  if (typeof template !== 'string') return [`${key}: not a text (${typeof template})`];
  if (template.trim() === '') return [`${key}: empty`];
  if (template.trim() === key) return [`${key}: the key itself, not a text`];
  let elements: MessageFormatElement[];
  try {
    elements = parse(template);
  } catch (error) {
    return [`${key}: not ICU MessageFormat (${(error as Error).message}): ${template}`];
  }
  const problems = pluralProblems(elements, language).map((p) => `${key}: ${p}`);
  if (english !== undefined) {
    // a language may leave an argument out (Japanese has no plural forms to choose a noun by),
    // never use one the text is not given
    const wanted = [...argumentsOf(parse(english))].sort();
    const found = [...argumentsOf(elements)].sort();
    if (found.some((name) => !wanted.includes(name)))
      problems.push(`${key}: arguments {${found.join(', ')}}, English has {${wanted.join(', ')}}`);
  }
  return problems;
}

/** The argument names of a parsed template, in its plurals, selects and tags too. */
function argumentsOf(elements: readonly MessageFormatElement[], into = new Set<string>()): Set<string> {
  for (const element of elements) {
    switch (element.type) {
      case TYPE.argument:
      case TYPE.number:
      case TYPE.date:
      case TYPE.time:
        into.add(element.value);
        break;
      case TYPE.plural:
      case TYPE.select:
        into.add(element.value);
        for (const option of Object.values(element.options)) argumentsOf(option.value, into);
        break;
      case TYPE.tag:
        into.add(element.value);
        argumentsOf(element.children, into);
        break;
      default:
        break;
    }
  }
  return into;
}

/** Plurals whose branches are not categories of the language (`=2` is always fine), or lack `other`. */
function pluralProblems(elements: readonly MessageFormatElement[], language: string): string[] {
  const categories = new Set<string>(new Intl.PluralRules(language).resolvedOptions().pluralCategories);
  const ordinals = new Set<string>(
    new Intl.PluralRules(language, { type: 'ordinal' }).resolvedOptions().pluralCategories,
  );
  const problems: string[] = [];
  const walk = (list: readonly MessageFormatElement[]) => {
    for (const element of list) {
      if (element.type === TYPE.plural) {
        const allowed = element.pluralType === 'ordinal' ? ordinals : categories;
        const branches = Object.keys(element.options);
        const foreign = branches.filter((b) => !b.startsWith('=') && !allowed.has(b));
        if (foreign.length > 0)
          problems.push(
            `{${element.value}, plural} has ${foreign.join(', ')}, not a plural category of ${language} (${[...allowed].join(', ')})`,
          );
        if (!branches.includes('other')) problems.push(`{${element.value}, plural} has no "other"`);
      }
      if (element.type === TYPE.plural || element.type === TYPE.select) {
        if (element.type === TYPE.select && !('other' in element.options))
          problems.push(`{${element.value}, select} has no "other"`);
        for (const option of Object.values(element.options)) walk(option.value);
      }
      if (element.type === TYPE.tag) walk(element.children);
    }
  };
  walk(elements);
  return problems;
}

/** Keys of one catalogue missing from, or not in, another: by name. */
function keyDifference(english: Catalogue, other: Catalogue): { missing: string[]; extra: string[] } {
  return {
    missing: Object.keys(english).filter((k) => !Object.hasOwn(other, k)),
    extra: Object.keys(other).filter((k) => !Object.hasOwn(english, k)),
  };
}

describe('the app’s catalogues', () => {
  it('ships every area for every language, and no file of another name', () => {
    const problems: string[] = [];
    for (const language of UI_LANGUAGES) {
      const dir = join(CLIENT_CATALOGUES, language);
      const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.json')) : [];
      const areas = files.map((f) => f.replace(/\.json$/, ''));
      for (const area of AREAS)
        if (!areas.includes(area)) problems.push(`${language}/${area}.json is missing`);
      for (const area of areas)
        if (!(AREAS as readonly string[]).includes(area))
          problems.push(`${language}/${area}.json is no area of catalogue.ts`);
    }
    expect(problems).toEqual([]);
  });

  it('names every English key after its area, once across the areas', () => {
    const problems: string[] = [];
    const seen = new Map<string, string>();
    for (const area of AREAS) {
      for (const key of Object.keys(areaOf('en', area) ?? {})) {
        if (!key.startsWith(`${area}.`) || key.length === area.length + 1)
          problems.push(`en/${area}.json: ${key} does not start with "${area}."`);
        if (seen.has(key)) problems.push(`${key} is in both ${seen.get(key)} and ${area}`);
        seen.set(key, area);
      }
    }
    expect(problems).toEqual([]);
  });

  for (const language of UI_LANGUAGES) {
    describe(language, () => {
      for (const area of AREAS) {
        it(`${area}: English's keys, no other, each a valid template with English's arguments`, () => {
          const english = areaOf('en', area) ?? {};
          const catalogue = areaOf(language, area);
          expect(catalogue, `${language}/${area}.json`).not.toBeNull();
          const difference = keyDifference(english, catalogue!);
          const problems: string[] = [];
          for (const [key, template] of Object.entries(catalogue!)) {
            if (!key.startsWith(`${area}.`)) problems.push(`${key}: does not start with "${area}."`);
            const source = english[key];
            problems.push(
              ...templateProblems(key, template, typeof source === 'string' ? source : undefined, language),
            );
            // the first render has no ICU compiler: `simpleMessage` must fill every `first` template
            if (area === 'first' && typeof template === 'string') {
              const values = Object.fromEntries(
                [...argumentsOf(safeParse(template))].map((name) => [name, 'x']),
              );
              let filled: string | undefined;
              try {
                filled = simpleMessage(template, values);
              } catch {
                filled = undefined;
              }
              if (filled === undefined)
                problems.push(`${key}: not plain text and {name} arguments (first is shown without ICU)`);
            }
          }
          expect({ ...difference, problems }).toEqual({ missing: [], extra: [], problems: [] });
        });
      }
    });
  }
});

function safeParse(template: string): MessageFormatElement[] {
  try {
    return parse(template);
  } catch {
    return [];
  }
}

describe('the built-in error messages’ translations', () => {
  // and the built-in User's words, which the same files translate
  const english: Catalogue = {
    ...Object.fromEntries(BUILTIN_ERRORS.map((def) => [def.code, def.message])),
    ...BUILTIN_USER_WORDS,
  };

  it('are valid ICU templates in English, the source', () => {
    const problems = Object.entries(english).flatMap(([code, message]) =>
      templateProblems(code, message, undefined, 'en'),
    );
    expect(problems).toEqual([]);
  });

  for (const language of UI_LANGUAGES.filter((l) => l !== 'en')) {
    it(`${language}: every built-in code, no other, each a valid template with English's arguments`, () => {
      const path = join(MODEL_CATALOGUES, `${language}.json`);
      expect(existsSync(path), `packages/model/src/catalogue/${language}.json`).toBe(true);
      const catalogue = readJson(path);
      const difference = keyDifference(english, catalogue);
      const problems = Object.entries(catalogue).flatMap(([code, template]) =>
        templateProblems(code, template, english[code] as string | undefined, language),
      );
      expect({ ...difference, problems }).toEqual({ missing: [], extra: [], problems: [] });
    });
  }
});
