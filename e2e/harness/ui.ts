/**
 * Driving the app the way a person does, by accessible names only: a field by its label, an option
 * by its text, a button by its name. Nothing here knows a product.
 */
import { type Field, type Model, type Value } from '@ninefold/model';
import { type Locator, type Page } from 'playwright-core';
import { humanize } from '@ninefold/model';
import { type Example } from './server';

export const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
export const exactly = (text: string) => new RegExp(`^\\s*${escapeRegex(text)}\\s*\\*?\\s*$`, 'i');

/** The input of a field, by its label. */
export function fieldControl(scope: Page | Locator, field: Field): Locator {
  return scope.getByLabel(exactly(field.label || humanize(field.name))).first();
}

async function chooseOption(page: Page, control: Locator, text: string): Promise<void> {
  await control.click();
  const search = await control.evaluate((el) => el instanceof HTMLInputElement && !el.readOnly);
  if (search) await control.fill(text);
  const option = page.getByRole('option', { name: new RegExp(escapeRegex(text), 'i') }).first();
  await option.click();
}

/** Labels an option of an enum shows: the value as words. */
export function enumText(value: string): string {
  return humanize(value);
}

/**
 * Puts a value into a field's control, whatever control the field's type gets.
 * `refTitle` gives the title of a referenced record, which a picker lists.
 */
export async function fillField(
  page: Page,
  scope: Page | Locator,
  field: Field,
  value: Value,
  refTitle: (entity: string, id: string) => Promise<string>,
): Promise<void> {
  const control = fieldControl(scope, field);
  switch (field.type) {
    case 'boolean':
      await control.setChecked(value === true, { force: true });
      return;
    case 'enum': {
      const values = Array.isArray(value) ? (value as string[]) : [String(value)];
      if (await isNativeSelect(control)) {
        await control.selectOption(values);
        return;
      }
      for (const v of values) await chooseOption(page, control, enumText(v));
      if (field.many) await page.keyboard.press('Escape');
      return;
    }
    case 'ref': {
      const ids = Array.isArray(value) ? (value as string[]) : [String(value)];
      for (const id of ids) await chooseOption(page, control, await refTitle(field.to!, id));
      if (field.many) await page.keyboard.press('Escape');
      return;
    }
    case 'time':
      await control.fill(String(value).slice(0, 5));
      return;
    case 'datetime': {
      const local = new Date(String(value));
      const pad = (n: number) => String(n).padStart(2, '0');
      await control.fill(
        `${local.getFullYear()}-${pad(local.getMonth() + 1)}-${pad(local.getDate())}T${pad(local.getHours())}:${pad(local.getMinutes())}`,
      );
      return;
    }
    case 'json':
      await control.fill(JSON.stringify(value));
      return;
    case 'integer':
    case 'decimal':
    case 'money':
      // number inputs format as they are typed into: type key by key, as a person does
      await control.fill('');
      await control.pressSequentially(String(value));
      return;
    default:
      await control.fill(String(value));
  }
}

async function isNativeSelect(control: Locator): Promise<boolean> {
  return control.evaluate((el) => el.tagName === 'SELECT');
}

/** The form's submit button: the one `type=submit` in the main region. */
export function submitButton(page: Page): Locator {
  return page.getByRole('main').locator('form button[type=submit]').first();
}

/** The text of the h1 of the page. */
export async function heading(page: Page): Promise<string> {
  const h1 = page.getByRole('heading', { level: 1 }).first();
  await h1.waitFor();
  return (await h1.innerText()).trim();
}

/** The path of a screen for a record. */
export function pathOf(path: string, id?: string): string {
  return id === undefined ? path : path.replace(':id', id);
}

/** A function giving the title a record shows in pickers: its display field. */
export function titles(example: Example, role: string) {
  return async (entity: string, id: string): Promise<string> => {
    const def = example.model.entities[entity]!;
    const answer = await example.api<Record<string, Value>>(role, 'GET', `${def.resource}/${id}`);
    const value = answer.body[def.display];
    return value === null || value === undefined ? id : String(value);
  };
}

export function formFields(
  model: Model,
  screen: { entity: string | null; fields: readonly string[] },
): Field[] {
  const def = model.entities[screen.entity!]!;
  const names =
    screen.fields.length > 0
      ? screen.fields
      : Object.values(def.fields)
          .filter((f) => !f.readonly)
          .map((f) => f.name);
  return names.map((n) => def.fields[n]).filter((f): f is Field => f !== undefined);
}
