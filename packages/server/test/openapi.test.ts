/**
 * The OpenAPI document: valid OpenAPI 3.1 for every example (checked by an independent validator),
 * served at /openapi.json, and browsable offline at /docs.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../src/index.js';
import { testServer } from '@ninefold/testkit';
import { exampleModel } from './world.js';

const EXAMPLES = ['expense-claims.md', 'helpdesk.md', 'library-loans.md', 'bookings.yaml', 'seed.txt'];

describe('OpenAPI', () => {
  it.each(EXAMPLES)('describes %s as a valid OpenAPI 3.1 document', async (file) => {
    const doc = openApiDocument(exampleModel(file));
    const result = await new Validator().validate(doc);
    expect(result.errors ?? [], JSON.stringify(result.errors, null, 2)).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc['openapi']).toBe('3.1.0');
  });

  it('lists every route of the expense claims with its error codes', () => {
    const doc = openApiDocument(exampleModel('expense-claims.md'));
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/claims',
        '/api/claims/{id}',
        '/api/claims/{id}/history',
        '/api/claims/{id}/transitions/approve',
        '/api/departments',
        '/api/users/{id}',
      ]),
    );
    const approve = doc.paths['/api/claims/{id}/transitions/approve']?.['post'] as {
      responses: Record<
        string,
        { content?: Record<string, { schema: { allOf: { properties?: { code?: { enum: string[] } } }[] } }> }
      >;
    };
    const codes = (status: string) =>
      approve.responses[status]?.content?.['application/problem+json']?.schema.allOf[1]?.properties?.code
        ?.enum;
    expect(codes('403')).toEqual(expect.arrayContaining(['E_FORBIDDEN', 'E_OVER_APPROVAL_LIMIT', 'E_CSRF']));
    expect(codes('409')).toEqual(expect.arrayContaining(['E_CONFLICT', 'E_TRANSITION_NOT_ALLOWED']));
    const claim = (doc['components'] as { schemas: Record<string, { properties: Record<string, unknown> }> })
      .schemas['Claim'];
    expect(claim?.properties['amount']).toMatchObject({ type: ['string', 'null'] });
    expect(claim?.properties['submittedAt']).toMatchObject({ format: 'date-time' });
    expect(claim?.properties['category']).toMatchObject({ enum: expect.arrayContaining(['travel', null]) });
  });

  it('describes a user’s notifications, their settings and the admins’ mail outbox, validly', async () => {
    const doc = openApiDocument(exampleModel('bookings.yaml'));
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/notifications',
        '/api/v1/notifications/read',
        '/api/v1/notifications/{id}/read',
        '/api/v1/notifications/settings',
        '/api/v1/admin/mail',
      ]),
    );
    const put = doc.paths['/api/v1/notifications/settings']?.['put'] as {
      responses: Record<
        string,
        { content?: Record<string, { schema: { allOf: { properties?: { code?: { enum: string[] } } }[] } }> }
      >;
    };
    expect(
      put.responses['422']?.content?.['application/problem+json']?.schema.allOf[1]?.properties?.code?.enum,
    ).toEqual(['E_MANDATORY_NOTIFICATION', 'E_UNKNOWN_NOTIFICATION']);
    const schemas = (doc['components'] as { schemas: Record<string, unknown> }).schemas;
    expect(Object.keys(schemas)).toEqual(
      expect.arrayContaining([
        'ninefold.Notification',
        'ninefold.NotificationPage',
        'ninefold.NotificationSetting',
        'ninefold.Mail',
      ]),
    );
    const result = await new Validator().validate(doc);
    expect(result.valid, JSON.stringify(result.errors)).toBe(true);
  });

  it('puts the session and the model under calls.basePath, the probes and the docs at the root', () => {
    const doc = openApiDocument(exampleModel('bookings.yaml'));
    const paths = Object.keys(doc.paths);
    expect(paths).toEqual(
      expect.arrayContaining(['/health', '/ready', '/api/v1/session', '/api/v1/model', '/api/v1/bookings']),
    );
    expect(paths.filter((p) => p.startsWith('/api/') && !p.startsWith('/api/v1/'))).toEqual([]);
    const users = (doc['components'] as { schemas: Record<string, { properties: Record<string, unknown> }> })
      .schemas;
    expect(JSON.stringify([users['User'], users['UserInput']])).not.toContain('password');
  });

  it('describes the webhook delivery log for admins under calls.basePath: its list and its re-send', () => {
    const doc = openApiDocument(exampleModel('bookings.yaml'));
    type Operation = {
      parameters: { name?: string; schema?: { enum?: string[]; maximum?: number } }[];
      responses: Record<
        string,
        { content?: Record<string, { schema: { allOf?: { properties?: { code?: { enum: string[] } } }[] } }> }
      >;
    };
    const list = doc.paths['/api/v1/admin/webhook-deliveries']?.['get'] as Operation;
    const resend = doc.paths['/api/v1/admin/webhook-deliveries/{id}/resend']?.['post'] as Operation;
    const codes = (operation: Operation, status: string) =>
      operation.responses[status]?.content?.['application/problem+json']?.schema.allOf?.[1]?.properties?.code
        ?.enum;
    expect(list.parameters.find((p) => p.name === 'state')?.schema?.enum).toEqual([
      'pending',
      'delivered',
      'failed',
    ]);
    expect(list.parameters.find((p) => p.name === 'limit')?.schema?.maximum).toBe(500);
    expect(codes(list, '403')).toEqual(['E_FORBIDDEN']);
    expect(codes(list, '400')).toEqual(expect.arrayContaining(['E_INVALID_QUERY']));
    expect(Object.keys(resend.responses)).toEqual(expect.arrayContaining(['202', '403', '404']));
    expect(codes(resend, '404')).toEqual(expect.arrayContaining(['E_NOT_FOUND']));
    const schemas = (doc['components'] as { schemas: Record<string, { required: string[] }> }).schemas;
    expect(schemas['WebhookDelivery']?.required).toEqual([
      'id',
      'webhook',
      'event',
      'entity',
      'recordId',
      'state',
      'attempts',
      'lastStatus',
      'lastAnswer',
      'createdAt',
      'updatedAt',
    ]);
  });

  // the document and the page are the same whatever the database: one dialect is enough
  it('serves /openapi.json and a self-contained /docs page', async () => {
    const model = exampleModel('expense-claims.md');
    const server = await testServer('sqlite', model);
    const json = await server.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(json.statusCode).toBe(200);
    expect(json.json()).toEqual(JSON.parse(JSON.stringify(openApiDocument(model))));
    const docs = await server.app.inject({ method: 'GET', url: '/docs' });
    expect(docs.statusCode).toBe(200);
    expect(docs.headers['content-type']).toMatch(/^text\/html/);
    expect(docs.body).toContain('/openapi.json');
    // nothing is loaded from elsewhere: it works offline
    expect(docs.body).not.toMatch(/(src|href)="https?:/);
    expect(docs.body.length).toBeLessThan(10_000);
  });
});

describe('OpenAPI and the routes the server answers', () => {
  it('leaves no way in undocumented: every route of a product with every identity feature is in the document', async () => {
    // ASVS 5.0 6.3.4: no authentication pathway the documentation does not show
    const base = exampleModel('helpdesk.md');
    const model = {
      ...base,
      auth: {
        ...base.auth,
        signUp: 'customer',
        tokens: ['agent'],
        oidc: {
          issuer: 'https://id.example.com',
          clientId: 'ninefold',
          clientSecret: '${OIDC_CLIENT_SECRET}',
          label: 'Acme',
          roles: null,
        },
      },
    };
    const server = await testServer('sqlite', model, { env: { OIDC_CLIENT_SECRET: 'shh' } });
    const routes: string[] = [];
    server.app.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) {
        if (method === 'HEAD') continue;
        routes.push(`${method} ${route.url.replace(/:([A-Za-z]+)/g, '{$1}')}`);
      }
    });
    await server.app.ready();
    const doc = openApiDocument(model);
    const documented = new Set(
      Object.entries(doc.paths).flatMap(([path, operations]) =>
        Object.keys(operations as object).map((method) => `${method.toUpperCase()} ${path}`),
      ),
    );
    // the document describes itself and its page; the probes are in it too
    const undocumented = routes.filter(
      (route) => !documented.has(route) && !['GET /openapi.json', 'GET /docs'].includes(route),
    );
    expect(undocumented).toEqual([]);
    for (const identity of [
      'POST /api/invitations/accept',
      'POST /api/sign-ups',
      'POST /api/password-resets/complete',
      'POST /api/tokens',
      'GET /api/session/oidc/callback',
      'POST /api/session/mfa',
    ])
      expect(routes).toContain(identity);
  });
});
