/**
 * The webhook deliveries for admins, on every database: the log filtered and limited, a re-send that
 * sends the same message (same webhook-id and body) as a new delivery, unknown deliveries and
 * non-admins refused. Then what guards the outside world: a URL that resolves to a loopback or
 * private address is refused unless the operator allows it (and the log says why), and a webhook
 * whose URL or secret the environment does not set properly stops the start, naming the webhook.
 */
import { describe, expect, it } from 'vitest';
import { DIALECTS, problem, tempFileStore } from '@ninefold/testkit';
import { WebhookConfigError, addressRange, productJobHandlers, resolveWebhooks } from '../src/index.js';
import { HOUR, hookWorld, hookedModel } from './webhook-world.js';

const PATH = '/api/admin/webhook-deliveries';

for (const dialect of DIALECTS) {
  describe(`${dialect}: webhook deliveries for admins`, () => {
    it('lists the log by state and webhook, re-sends a message with its webhook-id, and refuses others', async () => {
      const world = await hookWorld(dialect, ['created']);
      world.receiver.decide = (request) =>
        request.verified?.data.record['title'] === 'Hotel' ? { status: 500, body: 'no' } : { status: 200 };
      await world.create('Taxi');
      world.server.clock.advance(1000);
      await world.create('Hotel');
      await world.runner.runDue();
      const [hotel, taxi] = await world.deliveries();
      expect([hotel?.['state'], taxi?.['state']]).toEqual(['pending', 'delivered']);

      expect((await world.deliveries('?state=delivered')).map((d) => d['id'])).toEqual([taxi?.['id']]);
      expect((await world.deliveries('?state=pending')).map((d) => d['id'])).toEqual([hotel?.['id']]);
      expect(await world.deliveries('?webhook=crm')).toEqual([]);
      expect(await world.deliveries('?webhook=accounting&limit=1')).toHaveLength(1);
      for (const query of ['?state=done', '?limit=501', '?limit=0', '?limit=x', '?webhook=a&webhook=b']) {
        const bad = await world.call('ada', 'GET', `${PATH}${query}`);
        expect(bad.statusCode, query).toBe(400);
        expect(problem(bad).code).toBe('E_INVALID_QUERY');
      }

      const resent = await world.call('ada', 'POST', `${PATH}/${String(taxi?.['id'])}/resend`, {});
      expect(resent.statusCode, resent.body).toBe(202);
      const again = resent.json<Record<string, unknown>>();
      expect(again).toMatchObject({
        webhook: 'accounting',
        event: 'Claim.created',
        recordId: taxi?.['recordId'],
        state: 'pending',
        attempts: 0,
        lastStatus: null,
      });
      expect(again['id']).not.toBe(taxi?.['id']);
      world.server.clock.advance(HOUR);
      await world.runner.runDue();
      const taxiSends = world.receiver.received.filter((r) => r.verified?.data.record['title'] === 'Taxi');
      expect(taxiSends).toHaveLength(2);
      expect(taxiSends[1]?.headers['webhook-id']).toBe(taxi?.['id']);
      expect(taxiSends[1]?.body).toBe(taxiSends[0]?.body);
      expect(taxiSends[1]?.error).toBeNull();
      expect((await world.deliveries()).find((d) => d['id'] === again['id'])).toMatchObject({
        state: 'delivered',
        attempts: 1,
      });

      const sent = world.receiver.received.length;
      const unknown = await world.call('ada', 'POST', `${PATH}/no-such-delivery/resend`, {});
      expect(unknown.statusCode).toBe(404);
      expect(problem(unknown).code).toBe('E_NOT_FOUND');
      for (const [method, url] of [
        ['GET', PATH],
        ['POST', `${PATH}/${String(taxi?.['id'])}/resend`],
      ] as const) {
        const refused = await world.call('cal', method, url, method === 'POST' ? {} : undefined);
        expect(refused.statusCode, url).toBe(403);
        expect(problem(refused).code).toBe('E_FORBIDDEN');
      }
      expect(world.receiver.received).toHaveLength(sent);
    });

    it('refuses a loopback address unless the operator allows private ones, and says why', async () => {
      const world = await hookWorld(dialect, ['created'], { env: {} });
      await world.create('Taxi');
      await world.runner.runDue();
      expect(world.receiver.received).toEqual([]);
      const [delivery] = await world.deliveries();
      expect(delivery).toMatchObject({ state: 'pending', attempts: 1, lastStatus: null });
      expect(delivery?.['lastAnswer']).toBe(
        'Refused: 127.0.0.1 resolves to 127.0.0.1, a loopback address; webhooks reach only public addresses unless NINEFOLD_WEBHOOKS_ALLOW_PRIVATE=1 is set.',
      );
    });

    it('refuses a name that resolves to a loopback address', async () => {
      const world = await hookWorld(dialect, ['created'], { env: {}, url: 'http://localhost:9/hook' });
      await world.create('Taxi');
      await world.runner.runDue();
      const [delivery] = await world.deliveries();
      expect(delivery?.['lastAnswer']).toMatch(
        /^Refused: localhost resolves to (127\.0\.0\.1|::1), a loopback address;/,
      );
    });
  });
}

describe('webhook addresses and settings', () => {
  it('names the ranges a webhook may not reach; only public unicast is allowed', () => {
    expect(
      [
        '127.0.0.1',
        '10.1.2.3',
        '172.16.0.1',
        '192.168.1.1',
        '169.254.169.254',
        '100.64.0.1',
        '0.0.0.0',
        '::1',
        '::',
        'fe80::1',
        'fd12:3456::1',
        '::ffff:127.0.0.1',
        '::ffff:10.0.0.1',
        '93.184.215.14',
        '2606:4700::1111',
      ].map(addressRange),
    ).toEqual([
      'loopback',
      'private',
      'private',
      'private',
      'linkLocal',
      'carrierGradeNat',
      'unspecified',
      'loopback',
      'unspecified',
      'linkLocal',
      'uniqueLocal',
      'loopback',
      'private',
      'unicast',
      'unicast',
    ]);
  });

  it('stops the start with a message naming the webhook when the environment does not set it right', () => {
    const model = hookedModel(['created']);
    const good = { HOOK_URL: 'https://hooks.example/in', HOOK_SECRET: 'whsec_c2VjcmV0IG9mIHRoZSB0ZXN0' };
    expect(resolveWebhooks(model, good).byName.get('accounting')?.url.href).toBe('https://hooks.example/in');
    expect(resolveWebhooks(model, good).allowPrivate).toBe(false);
    const refused = (env: Record<string, string>) => {
      try {
        resolveWebhooks(model, env);
      } catch (error) {
        expect(error).toBeInstanceOf(WebhookConfigError);
        return (error as Error).message;
      }
      throw new Error('not refused');
    };
    expect(refused({ HOOK_SECRET: good.HOOK_SECRET })).toBe(
      'Webhook "accounting": its url reads ${HOOK_URL}, which is not set in the environment.',
    );
    expect(refused({ ...good, HOOK_SECRET: '' })).toBe(
      'Webhook "accounting": its secret reads ${HOOK_SECRET}, which is not set in the environment.',
    );
    expect(refused({ ...good, HOOK_SECRET: 'hunter2' })).toMatch(
      /^Webhook "accounting": its secret must be written whsec_ followed by base64/,
    );
    expect(refused({ ...good, HOOK_SECRET: 'whsec_not base64!' })).toMatch(
      /its secret must be written whsec_/,
    );
    expect(refused({ ...good, HOOK_URL: 'ftp://hooks.example/in' })).toBe(
      'Webhook "accounting": its url must start with https:// or http://, not ftp://.',
    );
    expect(refused({ ...good, HOOK_URL: 'not a url' })).toBe(
      'Webhook "accounting": its url "not a url" is not a URL.',
    );
    expect(refused({ ...good, HOOK_URL: 'https://user:pw@hooks.example/in' })).toBe(
      'Webhook "accounting": its url must not hold a user name or password.',
    );
    // what start and worker build their runners with refuses the same
    expect(() =>
      productJobHandlers({
        model,
        database: undefined as never,
        files: tempFileStore(),
        env: { HOOK_URL: good.HOOK_URL },
      }),
    ).toThrow(WebhookConfigError);
  });
});
