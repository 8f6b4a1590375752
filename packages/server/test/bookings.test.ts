/**
 * The bookings example over HTTP, on every database: an API under `/api/v1` (the session and the
 * model too), a row-level read permission by day with a field mask, and transitions with guards and
 * `set` effects. Every response is checked against /openapi.json.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { checkedInject, DIALECTS, problem } from '@ninefold/testkit';
import { type Client, type Json, type World, body, exampleWorld } from './world.js';

// the test clock starts at 2026-03-01T09:00Z
const TODAY = '2026-03-01';
const TOMORROW = '2026-03-02';

for (const dialect of DIALECTS) {
  describe(`${dialect}: bookings`, () => {
    let world: World;
    let mo: Client, max: Client, rita: Client, fay: Client;
    let room: string;

    beforeAll(async () => {
      world = await exampleWorld(dialect, 'bookings.yaml', {
        mo: ['member'],
        max: ['member'],
        rita: ['reception'],
        fay: ['facilities'],
      });
      ({ mo, max, rita, fay } = world.as as Record<'mo' | 'max' | 'rita' | 'fay', Client>);
      const site = await fay.post('/api/v1/sites', { name: 'Zürich HQ', city: 'Zürich' });
      expect(site.statusCode, site.body).toBe(201);
      const created = await fay.post('/api/v1/resources', {
        name: 'Matterhorn',
        site: body(site)['id'],
        capacity: 8,
        features: ['screen'],
        hourlyRate: '25.00',
      });
      expect(created.statusCode, created.body).toBe(201);
      room = String(body(created)['id']);
    }, 60_000);

    async function booking(by: Client, fields: Json = {}): Promise<Json> {
      const response = await by.post('/api/v1/bookings', {
        resource: room,
        startTime: '09:00',
        endTime: '10:00',
        ...fields,
      });
      expect(response.statusCode, response.body).toBe(201);
      return body(response);
    }

    it('serves the session and the model under its base path, /api/v1', async () => {
      expect(body(await mo.get('/api/v1/session'))['user']).toMatchObject({ id: mo.id });
      expect(body(await mo.get('/api/v1/model'))['calls']).toMatchObject({ basePath: '/api/v1' });
      expect(
        (await checkedInject(world.server.app, world.model, { method: 'GET', url: '/api/session' }))
          .statusCode,
      ).toBe(404);
      expect(
        (await checkedInject(world.server.app, world.model, { method: 'GET', url: '/api/model' })).statusCode,
      ).toBe(404);
      expect(
        (await checkedInject(world.server.app, world.model, { method: 'GET', url: '/health' })).statusCode,
      ).toBe(200);
    });

    it('creates a booking with its defaults and refuses one that ends before it starts', async () => {
      const b = await booking(mo, { attendees: 3, catering: true });
      expect(b).toMatchObject({
        state: 'requested',
        title: 'Meeting',
        day: TODAY,
        bookedBy: mo.id,
        attendees: 3,
        _actions: ['cancel'],
      });
      const p = problem(
        await mo.post('/api/v1/bookings', { resource: room, startTime: '10:00', endTime: '09:00' }),
      );
      expect(p).toMatchObject({ status: 422, code: 'E_END_BEFORE_START' });
      expect(p.message).toBe('The booking must end after it starts.');
      expect(await world.count('bookings')).toBe(1);
    });

    it('lists with the read permission: reception sees today’s bookings only, without what it may not read', async () => {
      const today = await booking(max, { title: 'Stand-up' });
      const tomorrow = await booking(max, { title: 'Planning', day: TOMORROW });
      const all = body(await mo.get('/api/v1/bookings?bookedBy=' + max.id + '&total=true'));
      expect((all['data'] as Json[]).map((b) => b['id'])).toEqual([today['id'], tomorrow['id']]);

      const seen = body(await rita.get('/api/v1/bookings?sort=startTime&limit=100&total=true'));
      const rows = seen['data'] as Json[];
      expect(rows.map((b) => b['id'])).toContain(today['id']);
      expect(rows.map((b) => b['id'])).not.toContain(tomorrow['id']);
      expect(rows.every((b) => b['day'] === TODAY)).toBe(true);
      expect(seen['total']).toBe(rows.length);
      expect(rows[0]).not.toHaveProperty('catering');
      expect(problem(await rita.get(`/api/v1/bookings/${String(tomorrow['id'])}`)).status).toBe(404);
      expect(problem(await rita.get('/api/v1/bookings?catering=true')).code).toBe('E_INVALID_QUERY');
      expect(problem(await rita.get('/api/v1/bookings?sort=cancelReason')).code).toBe('E_INVALID_QUERY');
    });

    it('confirms with the set effect, checks in on the day, and refuses what the rules forbid', async () => {
      const b = await booking(mo, { attendees: 2, catering: true });
      const url = `/api/v1/bookings/${String(b['id'])}`;
      expect(problem(await mo.fire(url, 'confirm', 1))).toMatchObject({ status: 403, code: 'E_FORBIDDEN' });
      const confirmed = await fay.fire(url, 'confirm', 1);
      expect(confirmed.statusCode, confirmed.body).toBe(200);
      expect(body(confirmed)).toMatchObject({ state: 'confirmed', cateringCost: '37.00', version: 2 });
      // cancelling on the day is the facilities' call
      const late = problem(await mo.fire(url, 'cancel', 2, { cancelReason: 'Ill' }));
      expect(late).toMatchObject({ status: 409, code: 'E_TOO_LATE_TO_CANCEL' });
      const checkedIn = await mo.fire(url, 'checkIn', 2);
      expect(checkedIn.statusCode, checkedIn.body).toBe(200);
      expect(body(checkedIn)).toMatchObject({ state: 'checkedIn', checkedInAt: '2026-03-01T09:00:00.000Z' });
      const history = body(await mo.get(`${url}/history`))['data'] as Json[];
      expect(history.map((h) => [h['action'], h['transition'], h['from'], h['to']])).toEqual([
        ['create', null, null, 'requested'],
        ['transition', 'confirm', 'requested', 'confirmed'],
        ['transition', 'checkIn', 'confirmed', 'checkedIn'],
      ]);
    });
  });
}
