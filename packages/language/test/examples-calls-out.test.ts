/**
 * The examples' section 7 says what happens, and the model does it: the helpdesk tells the
 * requester of an answered ticket, the expense claims tell the managers of a submitted claim and
 * post created and paid claims to the accounting webhook.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compile } from '../src/index.js';

function example(file: string) {
  const result = compile(readFileSync(new URL(`../../../examples/${file}`, import.meta.url), 'utf8'), {
    file,
  });
  if (!result.ok) expect.fail(result.diagnostics.map((d) => `${d.line}:${d.column} ${d.message}`).join('\n'));
  return result.model;
}

describe('the examples’ notifications and webhooks', () => {
  it('helpdesk: the requester (and the contact address) hear of an answer, in the app and by e-mail', () => {
    const model = example('helpdesk.md');
    const answered = model.notifications['ticket-answered']!;
    expect(answered.on.map((e) => e.name)).toEqual(['Ticket.answer']);
    expect(answered.to).toEqual([
      { kind: 'user', field: 'requester' },
      { kind: 'email', field: 'contactEmail' },
    ]);
    expect(answered.channels).toEqual(['app', 'email']);
    expect(model.notifications['ticket-back']!.to).toEqual([{ kind: 'user', field: 'assignee' }]);
    expect(model.facets.calls.specified).toBe(true);
  });

  it('expense claims: managers hear of a submitted claim; accounting gets created and paid claims', () => {
    const model = example('expense-claims.md');
    const submitted = model.notifications['claim-submitted']!;
    expect(submitted.on.map((e) => e.name)).toEqual(['Claim.submit']);
    expect(submitted.to).toEqual([{ kind: 'role', role: 'manager' }]);
    expect(submitted.mandatory).toBe(true);
    expect(model.webhooks['accounting']).toEqual({
      name: 'accounting',
      on: [
        { entity: 'Claim', kind: 'transition', transition: 'pay', name: 'Claim.pay' },
        { entity: 'Claim', kind: 'created', transition: null, name: 'Claim.created' },
      ],
      url: '${ACCOUNTING_WEBHOOK_URL}',
      secret: '${ACCOUNTING_WEBHOOK_SECRET}',
    });
  });
});
