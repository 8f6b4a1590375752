/**
 * A record's related sections in real Chromium against the real server (decision 0047): the help
 * desk's ticket page shows its conversation. The agent sees every comment, internal notes too; the
 * customer only what they may read; a comment added from the ticket's page lands in its section.
 * Every page passes axe.
 */
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createRecord } from './harness/arrange.js';
import { axeProblems } from './harness/axe.js';
import { launchBrowser, settled, signIn } from './harness/browser.js';
import { type Example, startExample } from './harness/server.js';

let browser: Browser;
let example: Example;
let ticket: { id: string; subject: string; organization: string };

beforeAll(async () => {
  browser = await launchBrowser();
  example = await startExample('examples/helpdesk.md');
  const { record } = await createRecord(example, 'Ticket', { as: 'customer' });
  ticket = {
    id: record.id,
    subject: String(record['subject']),
    organization: String(record['organization']),
  };
  // the agent writes to the customer, and leaves a note the customer never sees
  for (const [body, internal] of [
    ['We are looking into it.', false],
    ['Probably the SSO cache again.', true],
  ] as const) {
    const answer = await example.api('agent', 'POST', 'comments', {
      ticket: ticket.id,
      organization: ticket.organization,
      body,
      internal,
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  }
});
afterAll(async () => {
  await example?.close();
  await browser?.close();
});

/** The ticket's page, once its conversation has loaded. */
async function openTicket(page: Page): Promise<ReturnType<Page['getByRole']>> {
  await page.goto(`/tickets/${ticket.id}`);
  await page.getByRole('heading', { name: ticket.subject, level: 1 }).waitFor();
  const comments = page.getByRole('region', { name: 'Comments' });
  await comments.getByRole('table', { name: 'Comments' }).waitFor();
  await settled(page);
  return comments;
}

describe('related sections', () => {
  test('an agent sees the whole conversation on the ticket’s page', async () => {
    const { page, context } = await signIn(browser, example, 'agent');
    const comments = await openTicket(page);
    await expect.poll(() => comments.getByRole('row').count()).toBe(3); // a header and two comments
    expect(await comments.textContent()).toContain('Probably the SSO cache again.');
    // the ticket is every row's: no column repeats it
    expect(await comments.getByRole('columnheader', { name: 'Ticket' }).count()).toBe(0);
    expect(await comments.getByTestId('related-count').textContent()).toBe('2 comments');
    expect(await axeProblems(page)).toEqual([]);
    await context.close();
  });

  test('a customer sees only what they may read, and adds a comment from the ticket’s page', async () => {
    const { page, context } = await signIn(browser, example, 'customer');
    const comments = await openTicket(page);
    await expect.poll(() => comments.getByRole('row').count()).toBe(2);
    expect(await comments.textContent()).toContain('We are looking into it.');
    expect(await comments.textContent()).not.toContain('Probably the SSO cache again.');
    expect(await axeProblems(page)).toEqual([]);

    await comments.getByRole('link', { name: 'Add comment' }).click();
    await page.getByRole('heading', { name: 'New comment', level: 1 }).waitFor();
    // the ticket is already set: the form shows it by its title
    await expect
      .poll(() =>
        page
          .getByLabel(/^Ticket/)
          .first()
          .inputValue(),
      )
      .toBe(ticket.subject);
    const organization = page.getByLabel(/^Organi[sz]ation/).first();
    await organization.click();
    await page.getByRole('option').first().click();
    await page.getByLabel(/^Body/).first().fill('Thanks, it works again.');
    expect(await axeProblems(page)).toEqual([]);
    await page.getByRole('main').locator('form button[type=submit]').first().click();

    // back on the ticket's page, the new comment in its section
    await page.waitForURL(`**/tickets/${ticket.id}`);
    await expect.poll(() => comments.getByRole('row').count()).toBe(3);
    expect(await comments.textContent()).toContain('Thanks, it works again.');
    expect(await axeProblems(page)).toEqual([]);
    await context.close();
  });

  test('a lead’s See all opens the comments of this ticket alone, a link that survives a reload', async () => {
    const other = await example.api('lead', 'POST', 'comments', {
      ticket: (await createRecord(example, 'Ticket', { as: 'customer' })).record.id,
      organization: ticket.organization,
      body: 'On another ticket.',
    });
    expect(other.status, JSON.stringify(other.body)).toBe(201);
    const { page, context } = await signIn(browser, example, 'lead');
    const comments = await openTicket(page);
    await comments.getByRole('link', { name: 'See all comments' }).click();
    await page.getByRole('heading', { name: 'Comments', level: 1 }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Comments', level: 1 }).waitFor();
    await settled(page);
    await expect.poll(() => page.getByTestId('list-count').textContent()).toMatch(/^\d+ comments?$/);
    const listed = await page.getByRole('main').textContent();
    expect(listed).toContain('We are looking into it.');
    expect(listed).not.toContain('On another ticket.');
    expect(await axeProblems(page)).toEqual([]);
    const back = page.getByRole('navigation', { name: 'Parent' }).getByRole('link', { name: ticket.subject });
    await back.click();
    await page.waitForURL(`**/tickets/${ticket.id}`);
    await context.close();
  });
});
