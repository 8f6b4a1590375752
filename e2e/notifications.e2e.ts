/**
 * Notifications in real Chromium against the real server and its job runner: the help desk tells a
 * ticket's requester when an agent answers it. The customer is signed in in one browser context,
 * the agent answers in another; the customer's bell shows the notification without a reload, on
 * coming back to the window; opening it goes to the ticket and marks it read.
 */
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createRecord } from './harness/arrange.js';
import { axeProblems } from './harness/axe.js';
import { launchBrowser, settled, signIn } from './harness/browser.js';
import { type Example, startExample } from './harness/server.js';

let browser: Browser;
let example: Example;
beforeAll(async () => {
  browser = await launchBrowser();
  example = await startExample('examples/helpdesk.md');
});
afterAll(async () => {
  await example?.close();
  await browser?.close();
});

/** The bell's unread count, read from its accessible name ("Notifications, 3 unread"). */
async function unread(page: Page): Promise<number> {
  const name = (await page.getByRole('button', { name: /^Notifications/ }).getAttribute('aria-label')) ?? '';
  return Number(/, (\d+) unread$/.exec(name)?.[1] ?? 0);
}

describe('notifications', () => {
  test('an agent’s answer arrives in the signed-in requester’s bell, and opens the ticket', async () => {
    const customer = await signIn(browser, example, 'customer');
    const agent = await signIn(browser, example, 'agent');
    const { record } = await createRecord(example, 'Ticket', { as: 'customer' });
    const subject = String(record['subject']);
    const taken = await example.api(
      'agent',
      'POST',
      `tickets/${record.id}/transitions/take`,
      {},
      {
        'if-match': `"${String(record.version)}"`,
      },
    );
    expect(taken.status, JSON.stringify(taken.body)).toBe(200);

    const page = customer.page;
    await page.getByRole('button', { name: /^Notifications/ }).waitFor();
    const before = await unread(page);

    // the agent answers in their own browser
    const detail = example.model.screens.find((s) => s.entity === 'Ticket' && s.kind === 'detail');
    const ticketPath = detail!.path.replace(':id', record.id);
    await agent.page.goto(ticketPath);
    await settled(agent.page);
    await agent.page.getByRole('button', { name: 'Answer', exact: true }).click();
    await expect
      .poll(async () => (await example.api('agent', 'GET', `tickets/${record.id}/history`)).body.data.length)
      .toBeGreaterThan(2);

    // no reload: coming back to the window asks again (the job runner tells them within its poll)
    await expect
      .poll(
        async () => {
          await page.evaluate(() => window.dispatchEvent(new Event('focus')));
          return unread(page);
        },
        { timeout: 20_000, interval: 500 },
      )
      .toBe(before + 1);

    await page.getByRole('button', { name: /^Notifications, \d+ unread$/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Notifications' });
    const item = dialog.getByRole('link', {
      name: new RegExp(`Your ticket “${escape(subject)}” was answered`),
    });
    expect(await item.textContent()).toContain('Unread:');
    expect(await axeProblems(page)).toEqual([]);
    await item.click();
    await page.waitForURL(`**${ticketPath}`);
    await expect.poll(() => unread(page)).toBe(before);

    // their settings, from the user menu: every notification of the spec, each with a switch
    await page.getByRole('button', { name: /^Account:/ }).click();
    await page.getByRole('menuitem', { name: 'Notification settings' }).click();
    await page.getByRole('switch', { name: /^Ticket answered/ }).waitFor();
    await page.getByRole('menu').waitFor({ state: 'detached' }); // the closed menu, gone
    expect(await axeProblems(page)).toEqual([]);

    await customer.context.close();
    await agent.context.close();
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
