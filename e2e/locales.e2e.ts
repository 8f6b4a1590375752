/**
 * Every example in its second language (issue 15), in real Chromium against the real server: the
 * first is `examples.e2e.ts`'s, which works every screen, form and transition in the spec's default
 * locale. Here a browser that asks for the spec's second locale (the seed, which names one, is
 * offered French) opens every screen with a role that may, and finds:
 *
 * - the page marked in that language (`<html lang>`), its screen's title as the spec's translation
 *   file gives it;
 * - no text of the app's own English catalogues that the language translates otherwise (an
 *   untranslated button, heading or empty state);
 * - no serious axe violation (a name left empty by a missing text, say).
 */
/* global document -- in the page */
import { can, mayOpenScreen } from '@ninefold/engine';
import { type Model, localizeModel } from '@ninefold/model';
import { type Browser, type BrowserContext } from 'playwright-core';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { listRecords, readableBy, userContext } from './harness/arrange';
import { axeProblems } from './harness/axe';
import { DESKTOP, launchBrowser, settled, signIn, withRequestBudget } from './harness/browser';
import { type Example, EXAMPLES, startExample } from './harness/server';
import { pathOf } from './harness/ui';

/** The locale offered to a spec that names one only. */
const SECOND = 'fr-FR';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** A shipped catalogue's texts by key (`packages/client/src/i18n/catalogues/<language>`). */
function catalogue(language: string): Record<string, string> {
  const dir = join('packages/client/src/i18n/catalogues', language);
  const out: Record<string, string> = {};
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json')))
    Object.assign(out, JSON.parse(readFileSync(join(dir, file), 'utf8')) as Record<string, string>);
  return out;
}

/**
 * The English texts that betray a missing translation in `language`: plain (no ICU argument), of
 * two words or more (one word is too likely to be the spec's or a record's), and translated
 * otherwise in that language.
 */
function untranslatedTells(language: string): string[] {
  const english = catalogue('en');
  const theirs = catalogue(language);
  return Object.entries(english)
    .filter(([key, text]) => !/[{}<]/.test(text) && /\S\s+\S/.test(text) && theirs[key] !== text)
    .map(([, text]) => text);
}

/** The spec's second locale, offered when it names one only. */
function withSecond(model: Model): Model {
  if (model.product.locales.length > 1) return model;
  return { ...model, product: { ...model.product, locales: [...model.product.locales, SECOND] } };
}

for (const file of EXAMPLES) {
  describe(file, () => {
    let example: Example;
    beforeAll(async () => {
      example = await startExample(file, { transformModel: withSecond });
      for (const role of Object.keys(example.model.roles))
        await signIn(browser, example, role).then((session) => session.context.close());
    });
    afterAll(async () => {
      await example?.close();
    });

    test('opens every screen in its second language: translated, nothing English of the app’s own, no serious axe violation', async () => {
      const model = example.model;
      const locale = model.product.locales[1]!;
      const shown = localizeModel(model, locale);
      const tells = untranslatedTells(locale.split('-')[0]!);
      const problems: string[] = [];
      const contexts = new Map<string, BrowserContext>();
      try {
        for (const screen of model.screens) {
          // a role that may open it, and a record where it needs one (one it may change, to edit)
          let visit: { role: string; path: string } | null = null;
          for (const role of Object.keys(model.roles)) {
            const user = await userContext(example, role);
            if (!mayOpenScreen(model, user, screen)) continue;
            if (!screen.path.includes(':id')) {
              visit = { role, path: screen.path };
              break;
            }
            const entity = screen.entity!;
            const record =
              screen.kind === 'edit'
                ? ((await listRecords(example, role, entity)).find((r) =>
                    can(model, user, 'update', entity, r, { now: new Date() }),
                  ) ?? null)
                : await readableBy(example, role, entity);
            if (record !== null) {
              visit = { role, path: pathOf(screen.path, record.id) };
              break;
            }
          }
          if (visit === null) continue; // a screen no role may open (examples.e2e.ts checks the refusal)
          let context = contexts.get(visit.role);
          if (context === undefined) {
            context = await browser.newContext({
              baseURL: example.url,
              viewport: DESKTOP,
              locale,
              colorScheme: 'light',
              reducedMotion: 'reduce',
            });
            context.setDefaultTimeout(15_000);
            const [name = '', value = ''] = (example.cookies.get(visit.role) ?? '').split('=');
            await context.addCookies([{ name, value, url: example.url }]);
            contexts.set(visit.role, context);
          }
          const page = context.pages()[0] ?? (await context.newPage());
          if (page.url().startsWith('http')) await withRequestBudget(page, example, 20);
          await page.goto(visit.path);
          await settled(page);
          const where = `${visit.path} (${visit.role})`;
          const lang = await page.evaluate(() => document.documentElement.lang);
          if (lang !== locale) problems.push(`${where}: <html lang="${lang}">`);
          const title = shown.screens.find((s) => s.id === screen.id)!.title;
          const h1 = (await page.getByRole('heading', { level: 1 }).first().innerText()).trim();
          // a record's page is headed by the record; the other screens by their translated title
          if (screen.kind !== 'detail' && h1 !== title)
            problems.push(`${where}: headed "${h1}", not "${title}"`);
          const text = await page.evaluate(() => document.body.innerText);
          for (const tell of tells)
            if (text.includes(tell)) problems.push(`${where}: English "${tell}" left untranslated`);
          problems.push(...(await axeProblems(page)).map((p) => `${where}: ${p}`));
        }
      } finally {
        for (const context of contexts.values()) await context.close();
      }
      expect(problems).toEqual([]);
    });
  });
}
