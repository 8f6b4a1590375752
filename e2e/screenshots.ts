/**
 * Screenshots of the key screens, for the docs: sign-in, a list, a detail with its transitions, a
 * form showing a validation error, and the seed's page about unspecified facets — at desktop
 * (1280×800) and phone (390×844) widths, light, and the list and detail also dark; then the help
 * desk in French and, right to left, in Arabic (its spec offers both), as a browser asking for that
 * language first meets it.
 * Not part of the test run: `SCREENSHOTS=1 npx vitest run --config e2e/vitest.config.ts`
 * (after `npm run build`). Written to docs/screenshots/.
 */
/* global document -- in the page */
import { checkFieldValue, formatMessage } from '@ninefold/engine';
import { type Field } from '@ninefold/model';
import { mkdir } from 'node:fs/promises';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { mayOpenScreen, visibleNav } from '@ninefold/engine';
import { readableBy, recordReadyFor, refIdsFor, userContext, writableList } from './harness/arrange';
import { DESKTOP, PHONE, launchBrowser, newContext, settled, signIn, signInOn } from './harness/browser';
import { startExample } from './harness/server';
import { fieldControl, fillField, formFields, pathOf, submitButton, titles } from './harness/ui';
import { generateRecord } from '@ninefold/demo';

const OUT = 'docs/screenshots';
const PRODUCT = process.env['SCREENSHOT_SPEC'] ?? 'examples/expense-claims.md';
const VIEWPORTS = { desktop: DESKTOP, phone: PHONE } as const;

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
  await mkdir(OUT, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
});

async function shoot(page: Page, name: string): Promise<void> {
  await page.waitForTimeout(300); // let transitions and fonts settle
  await page.screenshot({ path: `${OUT}/${name}.png`, fullPage: false });
}

test('screenshots of the key screens', async () => {
  const example = await startExample(PRODUCT);
  const contexts: BrowserContext[] = [];
  try {
    const model = example.model;
    // the first role that may create something and fire a transition: the everyday user
    let chosen: { role: string; detailPath: string } | null = null;
    for (const role of Object.keys(model.roles)) {
      const user = await userContext(example, role);
      for (const [entity, machine] of Object.entries(model.states)) {
        const detail = model.screens.find(
          (s) => s.kind === 'detail' && s.entity === entity && mayOpenScreen(model, user, s),
        );
        if (detail === undefined) continue;
        for (const t of Object.values(machine.transitions)) {
          const record = await recordReadyFor(example, entity, t, role);
          if (record !== null) {
            chosen = { role, detailPath: pathOf(detail.path, record.id) };
            break;
          }
        }
        if (chosen !== null) break;
      }
      if (chosen !== null) break;
    }
    expect(chosen, 'no role may fire a transition').not.toBeNull();
    const { role, detailPath } = chosen!;
    const user = await userContext(example, role);
    const list = visibleNav(model, user).find(({ screen }) => screen.kind === 'list')!.screen;
    const form = model.screens.find((s) => s.kind === 'create' && mayOpenScreen(model, user, s))!;
    const entity = form.entity!;
    const writable = writableList(model, user, entity, 'create', null).filter((n) =>
      formFields(model, form).some((f) => f.name === n),
    );
    const bad: Field | undefined = writable
      .map((n) => model.entities[entity]!.fields[n]!)
      .find((f) => f.type === 'string' && typeof f.minLength?.value === 'number' && f.minLength.value >= 2);

    for (const [width, viewport] of Object.entries(VIEWPORTS)) {
      for (const scheme of ['light', 'dark'] as const) {
        const context = await newContext(browser, example, { viewport, colorScheme: scheme });
        contexts.push(context);
        const page = await context.newPage();
        const suffix = `${width}-${scheme}`;
        if (scheme === 'light') {
          await page.goto('/sign-in');
          await page.getByRole('button', { name: 'Sign in' }).waitFor();
          await shoot(page, `sign-in-${suffix}`);
        }
        await signInOn(page, example, role);
        await page.goto(list.path);
        await settled(page);
        await shoot(page, `list-${suffix}`);
        await page.goto(detailPath);
        await settled(page);
        await shoot(page, `detail-${suffix}`);
        if (scheme === 'dark') continue;
        await page.goto(form.path);
        await settled(page);
        if (bad !== undefined) {
          const { input } = generateRecord(model, entity, user, {
            writable,
            refIds: await refIdsFor(example, role, entity),
          });
          for (const [name, value] of Object.entries(input))
            if (name !== bad.name)
              await fillField(
                page,
                page.getByRole('main'),
                model.entities[entity]!.fields[name]!,
                value,
                titles(example, role),
              );
          await fieldControl(page.getByRole('main'), bad).fill('x');
          await submitButton(page).click();
          const check = checkFieldValue(bad, 'x');
          if (!check.ok)
            await page
              .getByText(formatMessage(model, check.error.code, check.error.params))
              .first()
              .waitFor();
        }
        await shoot(page, `form-error-${suffix}`);
      }
    }
  } finally {
    for (const c of contexts) await c.close();
    await example.close();
  }

  const seed = await startExample('examples/seed.txt');
  try {
    for (const [width, viewport] of Object.entries(VIEWPORTS)) {
      const context = await newContext(browser, seed, { viewport });
      const page = await context.newPage();
      await page.goto('/about');
      await page.getByText('9 of the nine sections are not specified').waitFor();
      await shoot(page, `about-seed-${width}-light`);
      await context.close();
    }
  } finally {
    await seed.close();
  }
});

test('screenshots in a second language, and right to left', async () => {
  const example = await startExample('examples/helpdesk.md');
  try {
    const model = example.model;
    // the role that works the queue: the first whose navigation has a list with a detail page beside it
    let chosen: { role: string; list: string; detail: string } | null = null;
    for (const role of Object.keys(model.roles)) {
      const user = await userContext(example, role);
      for (const { screen } of visibleNav(model, user).filter(({ screen }) => screen.kind === 'list')) {
        const detail = model.screens.find(
          (s) => s.kind === 'detail' && s.entity === screen.entity && mayOpenScreen(model, user, s),
        );
        const record = detail === undefined ? null : await readableBy(example, role, screen.entity!);
        if (detail !== undefined && record !== null) {
          chosen = { role, list: screen.path, detail: pathOf(detail.path, record.id) };
          break;
        }
      }
      if (chosen !== null && chosen.role !== Object.keys(model.roles)[0]) break;
    }
    expect(chosen, 'no role may open a list and a record of it').not.toBeNull();
    const { role, list, detail } = chosen!;
    // signed in once; each language's browser carries the session's cookie
    await signIn(browser, example, role).then((session) => session.context.close());
    const [name = '', value = ''] = (example.cookies.get(role) ?? '').split('=');
    // each language: its list at a desktop's width, a record on a phone
    for (const locale of ['fr-FR', 'ar']) {
      for (const [width, path, shot] of [
        ['desktop', list, 'list'],
        ['phone', detail, 'detail'],
      ] as const) {
        const context = await browser.newContext({
          baseURL: example.url,
          viewport: VIEWPORTS[width],
          locale,
          colorScheme: 'light',
          reducedMotion: 'reduce',
        });
        try {
          await context.addCookies([{ name, value, url: example.url }]);
          const page = await context.newPage();
          await page.goto(path);
          await settled(page);
          expect(await page.evaluate(() => document.documentElement.lang)).toBe(locale);
          await shoot(page, `${shot}-${locale}-${width}-light`);
        } finally {
          await context.close();
        }
      }
    }
  } finally {
    await example.close();
  }
});
