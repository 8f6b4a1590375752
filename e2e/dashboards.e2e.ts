/**
 * Dashboards in real Chromium against the real server (decision 0049): the expense-claims example
 * has a dashboard per role. An employee and a manager each see the figures of the rows they may
 * read — equal to what the list API counts for them — axe-clean as charts and as tables, and a
 * click on a bar opens the list it counts, filtered by the bar's group.
 */
import { type DashboardFigures, type FigureGroup, type WidgetFigure } from '@ninefold/model';
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { recordReadyFor } from './harness/arrange.js';
import { axeProblems } from './harness/axe.js';
import { PHONE, launchBrowser, newContext, settled, signIn, signInOn } from './harness/browser.js';
import { type Example, startExample } from './harness/server.js';

let browser: Browser;
let example: Example;
beforeAll(async () => {
  browser = await launchBrowser();
  example = await startExample('examples/expense-claims.md');
});
afterAll(async () => {
  await example?.close();
  await browser?.close();
});

/** A dashboard's figures as the server computes them for a role. */
async function figuresOf(role: string, screen: string): Promise<DashboardFigures> {
  const answer = await example.api<DashboardFigures>(role, 'GET', `dashboards/${screen}`);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
}

function widgetOf(figures: DashboardFigures, id: string): WidgetFigure {
  const figure = figures.widgets.find((w) => w.id === id);
  if (figure === undefined) throw new Error(`no widget ${id} in ${JSON.stringify(figures)}`);
  return figure;
}

/** How many rows a list screen shows for a role under filters, as the list API counts them. */
async function listTotal(role: string, screen: string, filters: Record<string, string>): Promise<number> {
  const query = new URLSearchParams({ ...filters, screen, total: 'true', limit: '1' });
  const answer = await example.api<{ total: number }>(role, 'GET', `claims?${query}`);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.total;
}

/** A chart's accessible name: its title and every group with its value as the card shows it. */
const chartName = (title: string, groups: readonly FigureGroup[], text: (g: FigureGroup) => string) =>
  `${title}: ${groups.map((g) => `${g.label} ${text(g)}`).join(', ')}`;

async function expectAxeClean(page: Page): Promise<void> {
  expect(await axeProblems(page)).toEqual([]);
}

describe('dashboards', () => {
  test('an employee and a manager see the figures of what each may read; a bar opens its filtered list', async () => {
    // a claim the manager may decide on: submitted by someone else in their department
    const approve = example.model.states['Claim']?.transitions['approve'];
    if (approve === undefined) throw new Error('Claim has no approve transition');
    const waiting = await recordReadyFor(example, 'Claim', approve, 'manager');
    expect(waiting, 'a claim waiting for the manager').not.toBeNull();

    // the employee: their own claims by state, each figure what the list of their claims counts
    const employee = await signIn(browser, example, 'employee');
    await employee.page.goto('/my-figures');
    await settled(employee.page);
    const mine = widgetOf(await figuresOf('employee', 'my-figures'), 'my-claims-by-state');
    const mineGroups = mine.groups ?? [];
    expect(mineGroups.length).toBeGreaterThan(0);
    for (const group of mineGroups)
      expect(await listTotal('employee', 'my-claims', { 'state[eq]': String(group.key) })).toBe(group.value);
    await employee.page
      .getByRole('img', { name: chartName('My claims by state', mineGroups, (g) => String(g.value)) })
      .waitFor();
    await expectAxeClean(employee.page);
    // the approvals' dashboard is not the employee's
    await employee.page.goto('/approval-figures');
    await employee.page.getByRole('heading', { name: 'Not allowed', level: 1 }).waitFor();

    // the manager: the claims waiting for them, by department — other figures than the employee's
    const manager = await signIn(browser, example, 'manager');
    const page = manager.page;
    await page.goto('/approval-figures');
    await settled(page);
    const awaiting = widgetOf(
      await figuresOf('manager', 'approval-figures'),
      'awaiting-approval-by-department',
    );
    const groups = awaiting.groups ?? [];
    expect(groups.length).toBeGreaterThan(0);
    for (const group of groups)
      expect(await listTotal('manager', 'approvals', { 'department[eq]': String(group.key) })).toBe(
        group.value,
      );
    const card = page.locator('section[data-widget="awaiting-approval-by-department"]');
    await card
      .getByRole('img', {
        name: chartName('Awaiting approval by department', groups, (g) => String(g.value)),
      })
      .waitFor();
    await expectAxeClean(page);

    // the table view: the same figures, each group a link, axe-clean too
    await card.getByRole('button', { name: 'Awaiting approval by department: table view' }).click();
    const first = groups[0]!;
    await card.getByRole('table').getByRole('link', { name: first.label }).waitFor();
    await expectAxeClean(page);
    await card.getByRole('button', { name: 'Awaiting approval by department: table view' }).click();

    // a click on a bar opens the list it counts: the same screen's condition, the group as a filter
    await card.locator('.recharts-bar-rectangle path').first().click();
    await page.waitForURL((url) => url.pathname === '/approvals');
    const search = new URL(page.url()).searchParams;
    expect(search.get('department[eq]')).toBe(String(first.key));
    await page.getByRole('heading', { name: 'To approve', level: 1 }).waitFor();
    const count = Number(first.value);
    await page.getByText(`${count} ${count === 1 ? 'claim' : 'claims'}`, { exact: true }).waitFor();
    await settled(page);
    await expectAxeClean(page);

    await employee.context.close();
    await manager.context.close();
  });

  test('on a phone, in the dark, the cards stack in one column, and a number opens its list', async () => {
    const context = await newContext(browser, example, { viewport: PHONE, colorScheme: 'dark' });
    const page = await context.newPage();
    await signInOn(page, example, 'finance');
    await page.goto('/finance-figures');
    await settled(page);
    const toPay = page.locator('section[data-widget="claims-to-pay"]');
    const amount = page.locator('section[data-widget="amount-to-pay"]');
    await toPay.waitFor();
    const [a, b] = [await toPay.boundingBox(), await amount.boundingBox()];
    // one column: the second card below the first, as wide
    expect(b!.y).toBeGreaterThan(a!.y + a!.height - 1);
    expect(Math.abs(b!.width - a!.width)).toBeLessThan(2);
    // the line of paid claims drawn in the dark scheme's colours, axe-clean (contrast included)
    await page.locator('section[data-widget="paid-by-month"]').waitFor();
    await expectAxeClean(page);
    const figures = await figuresOf('finance', 'finance-figures');
    const count = widgetOf(figures, 'claims-to-pay').value;
    // a widget whose condition a list repeats (`state == 'approved'`, To pay) opens that list
    await toPay.getByRole('link').first().click();
    await page.waitForURL((url) => url.pathname === '/payments');
    await page.getByRole('heading', { name: 'To pay', level: 1 }).waitFor();
    if (typeof count === 'number' && count > 0)
      await page.getByText(`${count} ${count === 1 ? 'claim' : 'claims'}`, { exact: true }).waitFor();

    // a point of a line opens its month; no list repeats the widget's `state == 'paid'`, so the
    // widest list opens, and the card says so
    const paid = widgetOf(figures, 'paid-by-month').groups ?? [];
    expect(paid.length).toBeGreaterThan(0);
    await page.goto('/finance-figures');
    await settled(page);
    const line = page.locator('section[data-widget="paid-by-month"]');
    await line.getByText('Opens All claims, which shows more than this figure counts.').waitFor();
    await line.locator('circle.nf-line-dot').first().click();
    await page.waitForURL((url) => url.pathname === '/claims');
    const month = new URL(page.url()).searchParams;
    expect(month.get('paidOn[gte]')).toBe(String(paid[0]!.key));
    expect(month.get('paidOn[lt]')).toMatch(/^\d{4}-\d{2}-01$/);
    await page.getByRole('heading', { name: 'All claims', level: 1 }).waitFor();
    await context.close();
  });
});
