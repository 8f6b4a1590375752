/**
 * Every example, every role, in real Chromium against the real server serving the built client.
 * Everything is derived from the compiled model — screens, roles, fields, transitions, messages —
 * so a new spec in examples/ is tested with no new test code.
 */
import { type UserContext, can, checkFieldValue, formatMessage, validateRecord } from '@ninefold/engine';
import { type Field, type Model, type Screen, type Value, FACETS } from '@ninefold/model';
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mayOpenScreen, visibleNav } from '@ninefold/engine';
import {
  type ApiRecord,
  countRecords,
  createRecord,
  getRecord,
  listRecords,
  readableBy,
  recordReadyFor,
  refIdsFor,
  userContext,
  writableList,
} from './harness/arrange';
import { axeProblems } from './harness/axe';
import {
  type RoleSession,
  launchBrowser,
  newContext,
  settled,
  signIn,
  withRequestBudget,
} from './harness/browser';
import { type Example, EXAMPLES, compileExample, startExample } from './harness/server';
import {
  exactly,
  fieldControl,
  fillField,
  formFields,
  heading,
  pathOf,
  submitButton,
  titles,
} from './harness/ui';
import { candidates, generateRecord } from '@ninefold/demo';

const REFUSED = ['Not allowed', 'Not found'];

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const screensOf = (model: Model, entity: string, kind: Screen['kind']) =>
  model.screens.filter((s) => s.entity === entity && s.kind === kind);

for (const file of EXAMPLES) {
  const model = await compileExample(file);
  const roleNames = Object.keys(model.roles);

  describe(file, () => {
    let example: Example;
    const sessions = new Map<string, RoleSession>();
    const fired = new Set<string>();

    beforeAll(async () => {
      example = await startExample(file);
    });
    afterAll(async () => {
      for (const s of sessions.values()) await s.context.close();
      await example?.close();
    });

    const session = async (role: string): Promise<RoleSession> => {
      const known = sessions.get(role);
      if (known !== undefined) return known;
      const made = await signIn(browser, example, role);
      sessions.set(role, made);
      return made;
    };

    /** A record of the entity the role may read, arranged when there is none. */
    const readableRecord = (role: string, entity: string) => readableBy(example, role, entity);

    // axe runs once per screen (and once on the refusal page): the screen's markup, not the role's data, is checked
    const audited = new Set<string>();
    const audit = async (page: Page, key: string): Promise<string[]> => {
      if (audited.has(key)) return [];
      audited.add(key);
      return axeProblems(page);
    };

    /** A record the role may update, arranged (by the role itself when it may create) when none. */
    const updatableRecord = async (
      role: string,
      entity: string,
      user: UserContext,
    ): Promise<ApiRecord | null> => {
      const mayUpdate = (r: ApiRecord) => can(model, user, 'update', entity, r, { now: new Date() });
      const found = (await listRecords(example, role, entity)).find(mayUpdate);
      if (found !== undefined) return found;
      const made = await createRecord(example, entity, { as: role }).catch(() => null);
      if (made === null) return null;
      const mine = await getRecord(example, role, entity, made.record.id);
      return mine !== null && mayUpdate(mine) ? mine : null;
    };

    /**
     * The first edit screen some role may open with a record it may update and a plain text field
     * it may write there (no pattern, not unique), or null; null is right only when no role may open
     * any edit screen (the seed), which it checks. Roles are tried by their request budget, largest
     * first: the form tests come right after every role has opened every screen it may, and a role
     * of 120 requests a minute (the help desk's customer) could then be refused for the minute —
     * a 429 the spec means, but not what these tests are about.
     */
    const editableText = async (): Promise<{
      role: string;
      edit: Screen;
      entity: string;
      record: ApiRecord;
      text: Field;
    } | null> => {
      const openable: string[] = [];
      const budget = (role: string) =>
        model.limits.requestsPerMinute[role] ?? model.limits.requestsPerMinute['default'] ?? 600;
      for (const role of [...roleNames].sort((a, b) => budget(b) - budget(a))) {
        const user = await userContext(example, role);
        for (const edit of model.screens.filter((s) => s.kind === 'edit' && mayOpenScreen(model, user, s))) {
          openable.push(`${role}: ${edit.id}`);
          const entity = edit.entity!;
          const record = await updatableRecord(role, entity, user);
          if (record === null) continue;
          const text = writableList(model, user, entity, 'update', record)
            .filter((n) => formFields(model, edit).some((f) => f.name === n))
            .map((n) => model.entities[entity]!.fields[n]!)
            .find((f) => (f.type === 'string' || f.type === 'text') && f.pattern === null && !f.unique);
          if (text !== undefined) return { role, edit, entity, record, text };
        }
      }
      expect(openable, 'an edit screen a role may open, yet no record and text field to edit on it').toEqual(
        [],
      );
      return null;
    };

    for (const role of roleNames) {
      test(`${role}: opens every screen it may, without serious axe violations; is refused the others`, async () => {
        const { page } = await session(role);
        const user = await userContext(example, role);
        const violations: string[] = [];
        const failures: string[] = [];

        // the navigation offers exactly the screens the role may open
        const nav = page.getByRole('navigation', { name: 'Main' });
        const visible = new Set(visibleNav(model, user).map(({ screen }) => screen.id));
        for (const item of model.nav) {
          const screen = model.screens.find((s) => s.id === item.screen)!;
          const count = await nav.getByRole('link', { name: exactly(item.label) }).count();
          if (visible.has(screen.id) !== count > 0)
            failures.push(`nav "${item.label}" ${count > 0 ? 'shown' : 'missing'} for ${role}`);
        }

        for (const screen of model.screens) {
          let id: string | undefined;
          const allowed = mayOpenScreen(model, user, screen);
          if (screen.path.includes(':id')) {
            const record =
              screen.kind === 'edit' && allowed
                ? await updatableRecord(role, screen.entity!, user)
                : await readableRecord(role, screen.entity!);
            if (record === null) {
              // a forbidden detail is refused whatever the id
              if (!allowed) id = '00000000-0000-7000-8000-000000000000';
              else {
                failures.push(
                  `${screen.path}: no ${screen.entity} ${role} may ${screen.kind === 'edit' ? 'update' : 'read'} could be arranged`,
                );
                continue;
              }
            } else id = record.id;
            if (screen.kind === 'edit' && allowed && record === null) continue;
          }
          const path = pathOf(screen.path, id);
          await page.goto(path);
          await settled(page);
          const h1 = await heading(page);
          if (allowed && REFUSED.includes(h1))
            failures.push(`${path}: ${role} may open it, the app shows "${h1}"`);
          if (!allowed && h1 !== 'Not allowed')
            failures.push(`${path}: ${role} may not open it, the app shows "${h1}"`);
          violations.push(...(await audit(page, allowed ? screen.id : 'refused')));

          if (allowed && screen.kind === 'list' && screen.actions.includes('create')) {
            const creatable =
              can(model, user, 'create', screen.entity!, null, { now: new Date() }) &&
              screensOf(model, screen.entity!, 'create').length > 0;
            const label = model.entities[screen.entity!]!.label;
            const count = await page
              .getByRole('main')
              .getByRole('link', { name: exactly(`New ${label}`) })
              .or(page.getByRole('main').getByRole('button', { name: exactly(`New ${label}`) }))
              .count();
            if (creatable !== count > 0)
              failures.push(`${path}: "New ${label}" ${count > 0 ? 'offered to' : 'missing for'} ${role}`);
          }
        }

        // the API refuses what the role may not read
        for (const [name, entity] of Object.entries(model.entities)) {
          if (can(model, user, 'read', name, null, { now: new Date() })) continue;
          const answer = await example.api(role, 'GET', entity.resource);
          if (answer.status !== 403)
            failures.push(`GET ${entity.resource} as ${role} answered ${answer.status}, not 403`);
        }

        expect(failures).toEqual([]);
        expect(violations).toEqual([]);
      });

      test(`${role}: creates a record through each form it may use, and edits it`, async () => {
        const user = await userContext(example, role);
        const creates = model.screens.filter((s) => s.kind === 'create' && mayOpenScreen(model, user, s));
        if (creates.length === 0) return; // nothing to create: the refusals are checked above
        const { page } = await session(role);
        const violations: string[] = [];
        for (const screen of creates) {
          const entity = screen.entity!;
          const fields = formFields(model, screen).map((f) => f.name);
          const writable = writableList(model, user, entity, 'create', null).filter((n) =>
            fields.includes(n),
          );
          const refIds = await refIdsFor(example, role, entity);
          const { input, record } = generateRecord(model, entity, user, { writable, refIds });
          const before = await countRecords(example, role, entity);

          // the screens test may have spent most of a small budget's minute (the help desk's
          // customer, 120 a minute): without this wait its edit page never showed its heading
          // in a full run, though a page load no longer reads again when its stream opens
          await withRequestBudget(page, example, 30);
          await page.goto(screen.path);
          await settled(page);
          for (const [name, value] of Object.entries(input)) {
            await fillField(
              page,
              page.getByRole('main'),
              model.entities[entity]!.fields[name]!,
              value,
              titles(example, role),
            );
          }
          violations.push(...(await audit(page, `${screen.id} filled`)));
          await submitButton(page).click();
          await expect
            .poll(() => countRecords(example, role, entity), {
              message: `${screen.path}: the record was not saved`,
            })
            .toBe(before + 1)
            .catch(async (error: unknown) => {
              const shown = await page.getByRole('main').innerText();
              throw new Error(
                `${(error as Error).message}\nfilled ${JSON.stringify(input)}\nthe page shows:\n${shown}`,
              );
            });
          // a new user's invitation shows once, in a dialog, before the app goes on (decision 0040)
          if (model.entities[entity]!.builtin)
            await page.getByRole('dialog').getByRole('button', { name: 'Done' }).click();
          await expect.poll(() => new URL(page.url()).pathname).not.toBe(screen.path);
          const saved = (await listRecords(example, role, entity, '&sort=-createdAt'))[0]!;
          for (const name of Object.keys(input))
            expect(saved[name], `${entity}.${name}`).toEqual(record[name]);

          // edit it: change the first free-text field the role may write on it
          const edit = screensOf(model, entity, 'edit').find((s) => mayOpenScreen(model, user, s));
          if (edit === undefined || !can(model, user, 'update', entity, saved, { now: new Date() })) continue;
          const editable = writableList(model, user, entity, 'update', saved).filter((n) =>
            formFields(model, edit).some((f) => f.name === n),
          );
          const text = editable
            .map((n) => model.entities[entity]!.fields[n]!)
            .find((f) => (f.type === 'string' || f.type === 'text') && f.pattern === null);
          if (text === undefined) continue;
          const value = candidates(text, new Date(), refIds).find((v) => v !== saved[text.name]) as string;
          await withRequestBudget(page, example, 30);
          await page.goto(pathOf(edit.path, saved.id));
          await settled(page);
          await fieldControl(page.getByRole('main'), text).fill(value);
          await submitButton(page).click();
          await expect
            .poll(async () => (await getRecord(example, role, entity, saved.id))?.[text.name], {
              message: `${edit.path}: the edit was not saved`,
            })
            .toBe(value);
        }
        expect(violations).toEqual([]);
      });

      test(`${role}: fires each transition the server offers it, and sees no other`, async () => {
        const user = await userContext(example, role);
        const failures: string[] = [];
        for (const [entity, machine] of Object.entries(model.states)) {
          const detail = screensOf(model, entity, 'detail').find((s) => mayOpenScreen(model, user, s));
          if (detail === undefined) continue;
          const inherited = new Set([role, ...(model.roles[role]?.inherits ?? [])]);
          for (const t of Object.values(machine.transitions)) {
            // a timed transition is fired by the clock, not through the app (server/test/timers.test.ts)
            if (t.timer !== null) continue;
            if (t.roles !== null && !t.roles.some((r) => inherited.has(r))) continue;
            const record = await recordReadyFor(example, entity, t, role);
            if (record === null) continue; // no arrangement reaches it for this role: counted below
            const { page } = await session(role);
            // the screens test may have spent a small budget's minute (a ticket's page and its
            // conversation, a transition and its dialog take a dozen requests)
            await withRequestBudget(page, example, 30);
            await page.goto(pathOf(detail.path, record.id));
            await settled(page);
            const main = page.getByRole('main');
            // only the transitions the server offers now, among the screen's actions
            for (const other of Object.values(machine.transitions)) {
              const offered =
                (record._actions ?? []).includes(other.name) && detail.actions.includes(other.name);
              const count = await main.getByRole('button', { name: exactly(other.label) }).count();
              if (offered !== count > 0)
                failures.push(
                  `${detail.path} (${record.state}): "${other.label}" ${count > 0 ? 'shown to' : 'missing for'} ${role}`,
                );
            }
            if (!detail.actions.includes(t.name)) continue;
            const outcome = await fireInUi(page, example, role, entity, record, t.name);
            failures.push(...outcome.problems);
            if (!outcome.fired) continue;
            const after = await getRecord(example, role, entity, record.id);
            if (after !== null) {
              const label = machine.states[t.to]?.label ?? t.to;
              await main.getByText(label, { exact: true }).first().waitFor();
            }
            fired.add(`${entity}.${t.name}`);
          }
        }
        expect(failures).toEqual([]);
      });
    }

    if (Object.keys(model.states).length > 0) {
      test('every transition of the spec a person fires was fired through the app by some role', () => {
        // but the timed ones, which the clock fires
        const all = Object.entries(model.states).flatMap(([entity, m]) =>
          Object.values(m.transitions)
            .filter((t) => t.timer === null)
            .map((t) => `${entity}.${t.name}`),
        );
        expect(all.filter((t) => !fired.has(t))).toEqual([]);
      });
    }

    test('invalid input shows its catalogue message and saves nothing', async () => {
      const pickInvalid = (field: Field): string | null => {
        if (
          (field.type === 'string' || field.type === 'text') &&
          typeof field.minLength?.value === 'number' &&
          field.minLength.value >= 2
        )
          return 'x';
        if (field.type === 'string' && field.pattern !== null) return 'not valid!';
        if (field.type === 'email') return 'not-an-email';
        return null;
      };
      for (const role of roleNames) {
        const user = await userContext(example, role);
        for (const screen of model.screens.filter(
          (s) => s.kind === 'create' && mayOpenScreen(model, user, s),
        )) {
          const entity = screen.entity!;
          const writable = writableList(model, user, entity, 'create', null).filter((n) =>
            formFields(model, screen).some((f) => f.name === n),
          );
          const field = writable
            .map((n) => model.entities[entity]!.fields[n]!)
            .find((f) => pickInvalid(f) !== null);
          if (field === undefined) continue;
          const bad = pickInvalid(field)!;
          const check = checkFieldValue(field, bad);
          if (check.ok) continue;
          const expected = formatMessage(model, check.error.code, check.error.params);
          const { input } = generateRecord(model, entity, user, {
            writable,
            refIds: await refIdsFor(example, role, entity),
          });
          const before = await countRecords(example, role, entity);
          const { page } = await session(role);
          await page.goto(screen.path);
          await settled(page);
          for (const [name, value] of Object.entries(input)) {
            if (name !== field.name)
              await fillField(
                page,
                page.getByRole('main'),
                model.entities[entity]!.fields[name]!,
                value,
                titles(example, role),
              );
          }
          await fieldControl(page.getByRole('main'), field).fill(bad);
          await submitButton(page).click();
          await page.getByRole('main').getByText(expected, { exact: true }).first().waitFor();
          expect(await axeProblems(page)).toEqual([]);
          expect(new URL(page.url()).pathname).toBe(screen.path);
          expect(await countRecords(example, role, entity)).toBe(before);
          return;
        }
      }
    });

    test('a conflicting edit is shown as such, and nothing is overwritten', async () => {
      const found = await editableText();
      if (found === null) return;
      const { role, edit, entity, record, text } = found;
      const { page } = await session(role);
      await page.goto(pathOf(edit.path, record.id));
      await settled(page);
      await fieldControl(page.getByRole('main'), text).fill('Changed in the browser');
      const theirs = await example.api(
        role,
        'PATCH',
        `${model.entities[entity]!.resource}/${record.id}`,
        { [text.name]: 'Changed by someone else' },
        { 'if-match': `"${record.version}"` },
      );
      expect(theirs.status).toBe(200);
      await submitButton(page).click();
      await page
        .getByText(formatMessage(model, 'E_CONFLICT', {}), { exact: true })
        .first()
        .waitFor();
      expect(await axeProblems(page)).toEqual([]);
      expect((await getRecord(example, role, entity, record.id))?.[text.name]).toBe(
        'Changed by someone else',
      );
    });

    test('back and forward ask before unsaved changes are lost, and staying keeps them', async () => {
      const found = await editableText();
      if (found === null) return;
      const { role, edit, entity, record, text } = found;
      const { page } = await session(role);
      const here = pathOf(edit.path, record.id);
      await page.goto(here);
      await settled(page);
      // an entry of the app ahead of the form, to go forward to
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link').first().click();
      await page.waitForURL((url) => url.pathname !== here);
      const ahead = new URL(page.url()).pathname;
      await page.goBack();
      await page.waitForURL((url) => url.pathname === here);
      const control = fieldControl(page.getByRole('main'), text);
      await control.fill('Not saved yet');

      await page.goForward({ waitUntil: 'commit' });
      const dialog = page.getByRole('dialog', { name: 'Leave without saving?' });
      await dialog.waitFor();
      await page.waitForURL((url) => url.pathname === here);
      expect(await axeProblems(page)).toEqual([]);
      await dialog.getByRole('button', { name: 'Stay on this page' }).click();
      await dialog.waitFor({ state: 'hidden' });
      expect(new URL(page.url()).pathname).toBe(here);
      expect(await control.inputValue()).toBe('Not saved yet');

      await page.goForward({ waitUntil: 'commit' });
      await dialog.getByRole('button', { name: 'Leave without saving' }).click();
      await page.waitForURL((url) => url.pathname === ahead);
      expect(await getRecord(example, role, entity, record.id)).toMatchObject({
        [text.name]: record[text.name] ?? null,
      });
    });

    test('the about page says which of the nine facets are unspecified', async () => {
      const context = await newContext(browser, example);
      const page = await context.newPage();
      await page.goto('/about');
      await settled(page);
      const unspecified = FACETS.filter((f) => !model.facets[f].specified);
      if (unspecified.length > 1) {
        await page.getByText(`${unspecified.length} of the nine sections are not specified`).waitFor();
      }
      for (const key of unspecified) {
        const facet = model.facets[key];
        await page.getByRole('heading', { name: `${facet.section}. ${facet.title}` }).waitFor();
      }
      expect(await axeProblems(page)).toEqual([]);
      await context.close();
    });
  });
}

/**
 * Fires a transition through its button, answering its dialog (required fields, confirmation).
 * Returns the axe problems of the dialog. When no value of the required fields satisfies the
 * rules (a rule on a field the transition cannot change), the rule's catalogue message must show
 * and the record must stay as it was.
 */
async function fireInUi(
  page: Page,
  example: Example,
  role: string,
  entity: string,
  record: ApiRecord,
  name: string,
): Promise<{ fired: boolean; problems: string[] }> {
  const model = example.model;
  const t = model.states[entity]!.transitions[name]!;
  const problems: string[] = [];
  let refusal: string | null = null;
  await page
    .getByRole('main')
    .getByRole('button', { name: exactly(t.label) })
    .first()
    .click();
  if (t.require.length > 0 || t.confirm !== null) {
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    if (t.require.length > 0) {
      const user = await userContext(example, role);
      const refIds = await refIdsFor(example, role, entity);
      const options = {
        writable: [...t.require],
        refIds,
        operation: { transition: t.name },
        old: record,
        need: t.require,
      };
      let input: Record<string, Value>;
      try {
        input = generateRecord(model, entity, user, options).input;
      } catch {
        const def = model.entities[entity]!;
        input = Object.fromEntries(
          t.require.map((n) => [n, candidates(def.fields[n]!, new Date(), refIds)[0] ?? null]),
        );
        const checked = validateRecord(model, entity, input, {
          operation: { transition: t.name },
          user,
          old: record,
          now: new Date(),
        });
        const first = checked.ok ? undefined : checked.errors[0];
        refusal =
          first === undefined ? null : formatMessage(model, first.code, { ...record, ...first.params });
      }
      for (const [field, value] of Object.entries(input)) {
        await fillField(page, dialog, model.entities[entity]!.fields[field]!, value, titles(example, role));
      }
    }
    problems.push(...(await axeProblems(page)));
    const confirm = dialog.getByRole('button', { name: exactly(t.label) });
    await (
      (await confirm.count()) > 0 ? confirm.first() : dialog.locator('button[type=submit]').first()
    ).click();
  }
  if (refusal !== null) {
    await page.getByText(refusal).first().waitFor();
    expect((await getRecord(example, role, entity, record.id))?.version).toBe(record.version);
    return { fired: false, problems };
  }
  await expect
    .poll(async () => (await getRecord(example, role, entity, record.id))?.version ?? record.version, {
      message: `${entity}.${name} was not fired`,
    })
    .toBeGreaterThan(record.version);
  const after = await getRecord(example, role, entity, record.id);
  if (after !== null) expect(after.state).toBe(t.to);
  return { fired: true, problems };
}
