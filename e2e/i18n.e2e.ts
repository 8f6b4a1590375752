/**
 * Languages in real Chromium (issue 15), the built app against the real server:
 *
 * - pseudo-localisation: every screen of one example, and the account, help and about pages, in
 *   `en-XA` (English made ~40% longer and bracketed), at phone and desktop widths: no text is clipped
 *   (a box that hides overflow and is narrower than its text) unless the design truncates on purpose
 *   with the whole text at hand — in its `title` (a file's name, a long list value) or on focus (a
 *   list cell, which shows whole when its row has focus) — and no two texts overlap in the
 *   navigation, the header or a toolbar;
 * - right to left: the app in Arabic has `dir="rtl"` and its navigation on the right;
 * - French end to end: signed in, a record created through the form, the toast says so in French.
 *
 * A browser asks for a language the way a person's does: the choice this browser remembers
 * (`localStorage` `ninefold.locale`, which `browserWanted()` reads first; `en-XA` is honoured there).
 * The example offers French and Arabic besides its own locales (the served model, not the spec).
 */
/* global document, window, getComputedStyle, Node, NodeFilter, Element, HTMLElement, DOMRect -- in the page */
import { mayOpenScreen } from '@ninefold/engine';
import { type Model, PSEUDO_LOCALE as PSEUDO, type Screen, localizeModel } from '@ninefold/model';
import { generateRecord } from '@ninefold/demo';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { countRecords, readableBy, refIdsFor, userContext, writableList } from './harness/arrange';
import { DESKTOP, PHONE, launchBrowser, settled, signIn, withRequestBudget } from './harness/browser';
import { type Example, startExample } from './harness/server';
import { fillField, formFields, pathOf, submitButton, titles } from './harness/ui';

const FILE = 'examples/expense-claims.md';
/** Where the app remembers this browser's language (`LOCALE_STORAGE_KEY`, packages/client/src/i18n/i18n.ts). */
const LOCALE_STORAGE_KEY = 'ninefold.locale';
const OFFERED = ['fr-FR', 'ar'];

let browser: Browser;
let example: Example;
beforeAll(async () => {
  browser = await launchBrowser();
  example = await startExample(FILE, {
    transformModel: (model: Model) => ({
      ...model,
      product: {
        ...model.product,
        locales: [...model.product.locales, ...OFFERED.filter((l) => !model.product.locales.includes(l))],
      },
    }),
  });
  // each role signs in once (sign-in is rate limited); its cookie opens the other contexts
  for (const role of Object.keys(example.model.roles))
    await signIn(browser, example, role).then((session) => session.context.close());
});
afterAll(async () => {
  await example?.close();
  await browser?.close();
});

/** A context of a role at a width, whose browser remembers `locale` as the reader's choice. */
async function contextIn(
  role: string,
  locale: string,
  viewport: { width: number; height: number },
): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL: example.url,
    viewport,
    colorScheme: 'light',
    reducedMotion: 'reduce',
  });
  context.setDefaultTimeout(15_000);
  const [name = '', value = ''] = (example.cookies.get(role) ?? '').split('=');
  await context.addCookies([{ name, value, url: example.url }]);
  await context.addInitScript(
    ([key, chosen]) => window.localStorage.setItem(key!, chosen!),
    [LOCALE_STORAGE_KEY, locale],
  );
  return context;
}

/** Every screen of the example, each with a role that may open it and a record where it needs one. */
async function screenVisits(): Promise<{ role: string; path: string; screen: Screen | null }[]> {
  const model = example.model;
  const visits: { role: string; path: string; screen: Screen | null }[] = [];
  for (const screen of model.screens) {
    let chosen: { role: string; path: string } | null = null;
    for (const role of Object.keys(model.roles)) {
      if (!mayOpenScreen(model, await userContext(example, role), screen)) continue;
      if (!screen.path.includes(':id')) {
        chosen = { role, path: screen.path };
        break;
      }
      const record = await readableBy(example, role, screen.entity!);
      if (record !== null) {
        chosen = { role, path: pathOf(screen.path, record.id) };
        break;
      }
    }
    expect(chosen, `${screen.path}: no role could open it with a record`).not.toBeNull();
    visits.push({ ...chosen!, screen });
  }
  const someone = Object.keys(model.roles)[0]!;
  for (const path of ['/account', '/help', '/about']) visits.push({ role: someone, path, screen: null });
  return visits;
}

/** Runs in the page: texts clipped by their box, and texts that overlap in the nav, header and toolbars. */
function layoutProblems(toolbars: string): { clipped: string[]; overlapping: string[]; boxes: number } {
  const visible = (element: Element) =>
    element.checkVisibility({ visibilityProperty: true, opacityProperty: true });
  const ownText = (element: Element) =>
    [...element.childNodes]
      .filter((n) => n.nodeType === Node.TEXT_NODE)
      .map((n) => n.textContent ?? '')
      .join('')
      .trim();
  const fold = (text: string) => text.replace(/\s+/g, ' ').trim();
  const clipped: string[] = [];
  for (const element of document.body.querySelectorAll<HTMLElement>('*')) {
    if (!visible(element) || element.closest('[aria-hidden="true"]') !== null) continue;
    if (['INPUT', 'TEXTAREA', 'SELECT', 'svg'].includes(element.tagName)) continue;
    const style = getComputedStyle(element);
    const hides =
      ['hidden', 'clip'].includes(style.overflowX) ||
      ['hidden', 'clip'].includes(style.overflowY) ||
      style.textOverflow === 'ellipsis';
    if (!hides) continue;
    // visually hidden texts (for assistive technology) are clipped to a pixel on purpose
    if (element.clientWidth <= 1 || element.clientHeight <= 1) continue;
    const text = fold(element.innerText ?? '');
    if (!/\p{L}/u.test(text)) continue;
    const wide = element.scrollWidth > element.clientWidth + 1 && style.overflowX !== 'visible';
    const tall = element.scrollHeight > element.clientHeight + 1 && style.overflowY !== 'visible';
    if (!wide && !tall) continue;
    // truncated on purpose with the whole text at hand: in a title, or a list cell (whole on focus)
    // (compared without case: a badge shows its title's text in capitals)
    const titled = element.closest('[title]')?.getAttribute('title');
    if (
      titled !== undefined &&
      titled !== null &&
      fold(titled).toLowerCase().includes(text.replace(/…$/, '').toLowerCase())
    )
      continue;
    if (element.closest('.nf-cell') !== null) continue;
    // a box whose text is not its own but its children's is reported by the child that overflows
    if (ownText(element) === '' && element.querySelector('*') !== null) {
      const overflowingChild = [...element.querySelectorAll<HTMLElement>('*')].some(
        (child) => child.scrollWidth > child.clientWidth + 1,
      );
      if (overflowingChild) continue;
    }
    clipped.push(
      `"${text.slice(0, 60)}" in ${element.tagName.toLowerCase()}.${String(element.className).split(' ')[0]} (${element.scrollWidth}×${element.scrollHeight} in ${element.clientWidth}×${element.clientHeight})`,
    );
  }

  const texts = new Set<Node>();
  for (const region of document.querySelectorAll(toolbars)) {
    if (!visible(region)) continue;
    const walker = document.createTreeWalker(region, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) texts.add(node);
  }
  const boxes: { text: string; rect: DOMRect }[] = [];
  for (const node of texts) {
    const text = (node.textContent ?? '').trim();
    if (text === '' || node.parentElement === null || !visible(node.parentElement)) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const rect of range.getClientRects())
      if (rect.width > 0 && rect.height > 0) boxes.push({ text, rect });
  }
  const overlapping: string[] = [];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i]!.rect;
      const b = boxes[j]!.rect;
      const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (x > 1 && y > 1) overlapping.push(`"${boxes[i]!.text}" and "${boxes[j]!.text}"`);
    }
  }
  return { clipped, overlapping: [...new Set(overlapping)], boxes: boxes.length };
}

/**
 * The regions whose texts must not overlap: the navigation, the header and the toolbars (a row of
 * buttons: a Mantine group holding buttons or links, as the list's and the detail page's actions
 * are). With a phone's navigation open over the page, only the navigation and the header: the page
 * beneath is covered on purpose.
 */
const TOOLBARS = 'nav, header, [role="toolbar"], [role="group"], main .mantine-Group-root:has(> button, > a)';
const OPEN_NAV = 'nav, header';

describe(`${FILE} in ${PSEUDO}`, () => {
  for (const [width, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    test(`${width}: no text clipped on any screen, none overlapping in the navigation and toolbars`, async () => {
      const problems: string[] = [];
      const contexts = new Map<string, { context: BrowserContext; page: Page }>();
      try {
        for (const { role, path } of await screenVisits()) {
          let open = contexts.get(role);
          if (open === undefined) {
            const context = await contextIn(role, PSEUDO, viewport);
            open = { context, page: await context.newPage() };
            contexts.set(role, open);
          }
          const { page } = open;
          // a role that has opened many screens may be near its minute's budget (decision 0021's limits)
          if (page.url().startsWith('http')) await withRequestBudget(page, example, 20);
          await page.goto(path);
          await settled(page);
          // the pseudo-locale is what the page shows: its texts bracketed, its <html> so marked
          expect(await page.evaluate(() => document.documentElement.lang), path).toBe(PSEUDO);
          const report = (found: Awaited<ReturnType<typeof layoutProblems>>) => {
            problems.push(...found.clipped.map((p) => `${path} (${role}): clipped ${p}`));
            problems.push(...found.overlapping.map((p) => `${path} (${role}): overlapping ${p}`));
          };
          // on a phone, the navigation is behind the burger: the page first, then the navigation open
          let navOpen = false;
          if (width === 'phone') {
            const burger = page.locator('header button[aria-controls="nf-nav"], header .mantine-Burger-root');
            if ((await burger.count()) > 0 && (await burger.first().isVisible())) {
              report(await page.evaluate(layoutProblems, TOOLBARS));
              await burger.first().click();
              await page.waitForTimeout(300);
              navOpen = true;
            }
          }
          const found = await page.evaluate(layoutProblems, navOpen ? OPEN_NAV : TOOLBARS);
          // the overlap check saw the navigation's and header's texts (it would pass on none)
          if (found.boxes < 3)
            problems.push(`${path} (${role}): only ${found.boxes} texts in the nav and toolbars`);
          report(found);
        }
      } finally {
        for (const { context } of contexts.values()) await context.close();
      }
      expect([...new Set(problems)]).toEqual([]);
    });
  }
});

describe(`${FILE} in Arabic`, () => {
  test('is right to left, its navigation on the right', async () => {
    const role = Object.keys(example.model.roles)[0]!;
    const context = await contextIn(role, 'ar', DESKTOP);
    try {
      const page = await context.newPage();
      const first = (await screenVisits()).find((v) => v.role === role && v.screen?.kind === 'list');
      await page.goto(first?.path ?? '/');
      await settled(page);
      expect(
        await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir]),
      ).toEqual(['ar', 'rtl']);
      const nav = page.locator('#nf-nav');
      const navBox = (await nav.boundingBox())!;
      const heading = (await page.getByRole('heading', { level: 1 }).first().boundingBox())!;
      // mirrored: the navigation at the window's right edge, the page's heading left of it
      expect(navBox.x, 'the navigation is on the right half').toBeGreaterThan(DESKTOP.width / 2);
      expect(navBox.x + navBox.width, 'the navigation reaches the right edge').toBeGreaterThan(
        DESKTOP.width - 2,
      );
      expect(heading.x + heading.width, 'the heading is left of the navigation').toBeLessThanOrEqual(
        navBox.x + 1,
      );
      // nothing pushed out to the left (an element parked off-screen at `left: -10000px` scrolls an RTL page)
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        DESKTOP.width,
      );
      // and what the navigation says is in Arabic script, not English
      expect(await nav.innerText()).toMatch(/\p{Script=Arabic}/u);
    } finally {
      await context.close();
    }
  });
});

describe(`${FILE} in French`, () => {
  test('signed in, a record created through the form: the toast says so in French', async () => {
    const model = example.model;
    const user = await userContext(example, 'employee');
    const screen = model.screens.find((s) => s.kind === 'create' && mayOpenScreen(model, user, s))!;
    const entity = screen.entity!;
    // the spec's words as a French reader meets them (its translations, where it has them)
    const shown = localizeModel(model, 'fr-FR');
    const fields = formFields(model, screen).map((f) => f.name);
    const writable = writableList(model, user, entity, 'create', null).filter((n) => fields.includes(n));
    const refIds = await refIdsFor(example, 'employee', entity);
    const { input } = generateRecord(model, entity, user, { writable, refIds });
    const before = await countRecords(example, 'employee', entity);

    const context = await contextIn('employee', 'fr-FR', DESKTOP);
    try {
      const page = await context.newPage();
      await page.goto(screen.path);
      await settled(page);
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('fr-FR');
      for (const [name, value] of Object.entries(input))
        await fillField(
          page,
          page.getByRole('main'),
          shown.entities[entity]!.fields[name]!,
          value,
          titles(example, 'employee'),
        );
      await submitButton(page).click();
      await expect.poll(() => countRecords(example, 'employee', entity)).toBe(before + 1);

      const toast = page
        .locator('.nf-toasts [role="status"], .nf-toasts [role="alert"], .nf-toasts > *')
        .first();
      await toast.waitFor();
      const said = (await toast.innerText()).replace(/\s+/g, ' ').trim();
      const french = catalogueTemplates('fr');
      const english = catalogueTemplates('en');
      // a French template of the catalogues says it (and not the English one of the same key)
      const matches = Object.entries(french).filter(
        ([key, template]) => saysIt(template, said) && !saysIt(english[key] ?? '', said),
      );
      expect(
        matches.map(([key]) => key),
        `the toast says "${said}"`,
      ).not.toEqual([]);
    } finally {
      await context.close();
    }
  });
});

/** The plain templates (text and `{name}` arguments) of a language's catalogues. */
function catalogueTemplates(language: string): Record<string, string> {
  const dir = join('packages/client/src/i18n/catalogues', language);
  const out: Record<string, string> = {};
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json')))
    for (const [key, template] of Object.entries(
      JSON.parse(readFileSync(join(dir, file), 'utf8')) as Record<string, string>,
    ))
      if (/^[^{}]*(\{\s*\w+\s*\}[^{}]*)+$/.test(template)) out[key] = template;
  return out;
}

/** Whether a text is a template filled in (its words around the arguments, in order). */
function saysIt(template: string, text: string): boolean {
  if (template === '') return false;
  const pattern = template
    .split(/\{\s*\w+\s*\}/)
    .map((part) =>
      part
        .replace(/\s+/g, ' ')
        .trim()
        .replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('.+');
  return new RegExp(pattern).test(text);
}
