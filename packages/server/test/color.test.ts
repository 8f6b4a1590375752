/**
 * The `color` field type over HTTP, on each database: written, read back, refused when it is not
 * `#rrggbb`, filtered and described by the OpenAPI document. Every answer is held against that
 * document (`checkedInject`), so a colour the server sends must match the pattern it publishes.
 */
import { describe, expect, it } from 'vitest';
import {
  checkedInject,
  CSRF,
  DIALECTS,
  givenUser,
  login,
  problem,
  specModel,
  testServer,
} from '@ninefold/testkit';

const SPEC = `
product: { name: Labels }
entities:
  Label:
    fields:
      name: { type: string, required: true }
      color: { type: color, required: true }
      background: { type: color, default: '#FFFFFF' }
roles:
  editor: { Label: true }
`;

for (const dialect of DIALECTS) {
  describe(`${dialect}: a color field`, () => {
    it('stores #rrggbb in lower case, refuses anything else with E_FORMAT, and filters by it', async () => {
      const model = specModel(SPEC);
      const server = await testServer(dialect, model);
      await givenUser(server, 'eve@example.com', ['editor']);
      const cookie = (await login(server.app, 'eve@example.com')).cookie ?? '';
      const call = (method: string, url: string, payload?: object, headers: Record<string, string> = {}) =>
        checkedInject(server.app, model, {
          method,
          url,
          headers: { ...CSRF, cookie, ...headers },
          ...(payload === undefined ? {} : { payload }),
        });

      const created = await call('POST', '/api/labels', { name: 'Urgent', color: '#FF4500' });
      expect(created.statusCode, created.body).toBe(201);
      const urgent = created.json<Record<string, unknown>>();
      expect(urgent).toMatchObject({ color: '#ff4500', background: '#ffffff' });
      const url = `/api/labels/${String(urgent['id'])}`;
      expect((await call('GET', url)).json()).toMatchObject({ color: '#ff4500' });

      const refused = problem(await call('POST', '/api/labels', { name: 'Sky', color: 'skyblue' }));
      expect(refused).toMatchObject({ status: 422, code: 'E_VALIDATION' });
      expect(refused.errors).toEqual([
        { field: 'color', code: 'E_FORMAT', message: 'Color must be a colour like #1e90ff.' },
      ]);

      const updated = await call('PATCH', url, { color: '#1E90FF' }, { 'if-match': '"1"' });
      expect(updated.statusCode, updated.body).toBe(200);
      expect(updated.json()).toMatchObject({ color: '#1e90ff', version: 2 });
      expect((await call('POST', '/api/labels', { name: 'Calm', color: '#2e8b57' })).statusCode).toBe(201);

      const names = async (query: string) =>
        (await call('GET', `/api/labels?${query}`))
          .json<{ data: { name: string }[] }>()
          .data.map((r) => r.name);
      expect(await names(`color=${encodeURIComponent('#1e90ff')}`)).toEqual(['Urgent']);
      expect(await names(`color[ne]=${encodeURIComponent('#1e90ff')}&sort=name`)).toEqual(['Calm']);
      expect(await names(`color[in]=${encodeURIComponent('#2e8b57,#1e90ff')}&sort=color`)).toEqual([
        'Urgent',
        'Calm',
      ]);
      for (const query of ['color[contains]=1e', 'color[gt]=%23000000']) {
        expect(problem(await call('GET', `/api/labels?${query}`))).toMatchObject({
          status: 400,
          code: 'E_INVALID_QUERY',
        });
      }
    });
  });
}

describe('the OpenAPI document', () => {
  it('describes a colour in the OpenAPI document by its pattern', async () => {
    const server = await testServer('sqlite', specModel(SPEC));
    const doc = (await server.app.inject({ method: 'GET', url: '/openapi.json' })).json<{
      components: { schemas: Record<string, { properties: Record<string, unknown> }> };
    }>();
    const record = Object.values(doc.components.schemas).find((s) => s.properties?.['color'] !== undefined);
    expect(record?.properties['color']).toMatchObject({
      type: ['string', 'null'],
      pattern: '^#[0-9a-f]{6}$',
    });
  });
});
