import { readFileSync } from 'node:fs';
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { describe, expect, it } from 'vitest';
import { BUILTIN_ERRORS, BUILTIN_USER_KEYS, UI_LANGUAGES } from '../src/index.js';

/** The argument names of an ICU message, sorted; it must parse with every plural's `other`. */
function argumentsOf(message: string): string[] {
  const names = new Set<string>();
  const visit = (elements: readonly MessageFormatElement[]) => {
    for (const el of elements) {
      if (el.type === TYPE.literal || el.type === TYPE.pound) continue;
      if (el.type === TYPE.tag) {
        visit(el.children);
        continue;
      }
      names.add(el.value);
      if (el.type === TYPE.plural || el.type === TYPE.select)
        for (const option of Object.values(el.options)) visit(option.value);
    }
  };
  visit(parse(message, { requiresOtherClause: true }));
  return [...names].sort();
}

const translated = UI_LANGUAGES.filter((language) => language !== 'en');

describe('the built-in messages in each shipped language', () => {
  it.each(translated)('%s translates every code, with no argument English has not', (language) => {
    const file = new URL(`../src/catalogue/${language}.json`, import.meta.url);
    const messages = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
    expect(Object.keys(messages).sort()).toEqual(
      [...BUILTIN_ERRORS.map((e) => e.code), ...BUILTIN_USER_KEYS].sort(),
    );
    // the built-in User's words: each one there (a language may spell one as English does: "Name")
    for (const key of BUILTIN_USER_KEYS) expect(messages[key]?.trim(), `${language} ${key}`).toBeTruthy();
    for (const def of BUILTIN_ERRORS) {
      const message = messages[def.code]!;
      expect(message, `${language} ${def.code}`).not.toBe(def.message);
      // a language may leave an argument out (Japanese chooses no noun by number), never add one
      const english = argumentsOf(def.message);
      expect(
        argumentsOf(message).filter((name) => !english.includes(name)),
        `${language} ${def.code}`,
      ).toEqual([]);
    }
  });
});
