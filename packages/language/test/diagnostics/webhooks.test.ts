/**
 * Section 7's webhooks, and the API paths no entity may take: the model they compile to, and every
 * mistake `ninefold check` reports, at its line and column, with its hint.
 */
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/index.js';
import { isWebhookUrl } from '../../src/facets/webhooks.js';
import { expectDiagnostic, listed, spec } from './expect-diagnostic.js';
import { helpdesk } from './helpdesk-spec.js';

describe('webhooks compile', () => {
  it('to the model, the `${NAME}` texts kept as written', () => {
    const result = compile(
      helpdesk(
        'webhooks:',
        '  accounting:',
        '    on: [Ticket.answer, Ticket.created]',
        '    url: ${ACCOUNTING_WEBHOOK_URL}',
        '    secret: ${ACCOUNTING_WEBHOOK_SECRET}',
        '  crm: { on: Ticket.deleted, url: "https://crm.example.com/hooks/${CRM_TOKEN}", secret: "${CRM_SECRET}" }',
      ),
      { file: 'spec.yaml' },
    );
    if (!result.ok) expect.fail(listed(result.diagnostics));
    expect(result.model.webhooks).toEqual({
      accounting: {
        name: 'accounting',
        on: [
          { entity: 'Ticket', kind: 'transition', transition: 'answer', name: 'Ticket.answer' },
          { entity: 'Ticket', kind: 'created', transition: null, name: 'Ticket.created' },
        ],
        url: '${ACCOUNTING_WEBHOOK_URL}',
        secret: '${ACCOUNTING_WEBHOOK_SECRET}',
      },
      crm: {
        name: 'crm',
        on: [{ entity: 'Ticket', kind: 'deleted', transition: null, name: 'Ticket.deleted' }],
        url: 'https://crm.example.com/hooks/${CRM_TOKEN}',
        secret: '${CRM_SECRET}',
      },
    });
  });

  it('NF203: a webhook without url or secret', () => {
    expectDiagnostic(helpdesk('webhooks:', '  accounting: { on: Ticket.created, secret: "${S}" }'), {
      code: 'NF203',
      line: 20,
      column: 3,
      message: /Webhook `accounting` needs `url`/,
    });
    expectDiagnostic(helpdesk('webhooks:', '  accounting: { on: Ticket.created, url: "${U}" }'), {
      code: 'NF203',
      line: 20,
      column: 3,
      message: /needs `secret`/,
      hint: /secret: \$\{ACCOUNTING_WEBHOOK_SECRET\}/,
    });
  });

  it('NF215: a url that is neither http(s) nor `${NAME}`', () => {
    expectDiagnostic(
      helpdesk('webhooks:', '  a: { on: Ticket.created, url: ftp://x.example, secret: "${S}" }'),
      {
        code: 'NF215',
        line: 20,
        column: 33,
        message:
          /`url` of webhook `a` must be an http\(s\) URL or a `\$\{NAME\}` reference, found `ftp:\/\/x.example`/,
      },
    );
    for (const url of ['ftp://x', '$URL', '${URL', 'x${URL}', '${URL} ${PATH}', 'https://a b', '${1X}'])
      expect(isWebhookUrl(url), url).toBe(false);
    for (const url of ['${URL}', 'http://x.example', 'https://${HOST}/hook', 'https://h.example/${TOKEN}'])
      expect(isWebhookUrl(url), url).toBe(true);
  });

  it('NF216: a secret written in clear, even in part', () => {
    expectDiagnostic(
      helpdesk('webhooks:', '  a: { on: Ticket.created, url: "${U}", secret: whsec_c2VjcmV0 }'),
      {
        code: 'NF216',
        line: 20,
        column: 49,
        message: /The secret of webhook `a` is written in the spec; a secret must come from the environment/,
        hint: /secret: \$\{A_WEBHOOK_SECRET\}/,
      },
    );
    expectDiagnostic(
      helpdesk('webhooks:', '  a: { on: Ticket.created, url: "${U}", secret: "whsec_${S}" }'),
      {
        code: 'NF216',
        line: 20,
        column: 49,
      },
    );
  });

  it('NF307: a webhook on an unknown transition', () => {
    expectDiagnostic(helpdesk('webhooks:', '  a: { on: [Ticket.pay], url: "${U}", secret: "${S}" }'), {
      code: 'NF307',
      line: 20,
      column: 20,
      hint: /expected one of `created`, `updated`, `deleted`, `answer`/,
    });
  });
});

describe('resources and the API’s own paths', () => {
  it('NF317: an entity served at a path the API keeps for itself', () => {
    expectDiagnostic(
      spec`
        entities:
          Notification: { fields: { title: string } }
      `,
      {
        code: 'NF317',
        line: 2,
        column: 3,
        message: /`Notification` would be served at `\/notifications`, which the API keeps for itself/,
        hint: /`\/session`, `\/model`, `\/admin`, `\/notifications`/,
      },
    );
  });
});
