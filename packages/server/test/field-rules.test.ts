/**
 * The field rules of decision 0026 over HTTP, on every database: blank text is no value (refused
 * where one is required, stored as null elsewhere), an explicit null takes no default, a length
 * counts characters (an emoji is one), formats and guards say what they need.
 */
import { describe, expect, it } from 'vitest';
import {
  CSRF,
  DIALECTS,
  checkedInject,
  givenUser,
  login,
  problem,
  specModel,
  testServer,
} from '@ninefold/testkit';

const SPEC = `
product: { name: Desk }
entities:
  Ticket:
    fields:
      title: { type: string, required: true, maxLength: 10 }
      note: { type: text }
      team: { type: string, default: Support }
      channel: { type: enum, values: [email, phone], required: true, default: email }
      website: url
      phone: phone
      priority: { type: enum, values: [low, high], default: low }
      reason: { type: text }
      assignee: { type: ref, to: User }
states:
  Ticket:
    initial: open
    states: { open: {}, closed: {} }
    transitions:
      close: { from: open, to: closed, require: [reason] }
      escalate: { from: open, to: open, when: "priority == 'high'" }
      assign: { from: open, to: open, when: "has(note)", error: E_NOTE_FIRST }
roles:
  agent: { Ticket: true }
errors:
  E_NOTE_FIRST: { status: 409, message: "Write a note on {title} before assigning it." }
`;

const BLANKS = ['   ', '\u200b', '\u00a0\u200c\u200d\ufeff', '\t\u2060\n'];

for (const dialect of DIALECTS) {
  describe(`${dialect}: field rules`, () => {
    async function desk() {
      const model = specModel(SPEC);
      const server = await testServer(dialect, model);
      await givenUser(server, 'ada@example.com', ['agent']);
      const cookie = (await login(server.app, 'ada@example.com')).cookie ?? '';
      const call = (method: string, url: string, payload?: object, headers: Record<string, string> = {}) =>
        checkedInject(server.app, model, {
          method,
          url,
          headers: { ...CSRF, cookie, ...headers },
          ...(payload === undefined ? {} : { payload }),
        });
      const create = async (fields: object) => {
        const response = await call('POST', '/api/tickets', fields);
        expect(response.statusCode, response.body).toBe(201);
        return response.json<Record<string, unknown>>();
      };
      return { server, call, create };
    }

    it('refuses blank text where a value is required: on create, on update and for a transition', async () => {
      const { call, create } = await desk();
      for (const blank of BLANKS) {
        const refused = problem(await call('POST', '/api/tickets', { title: blank }));
        expect(refused).toMatchObject({ status: 422, code: 'E_VALIDATION' });
        expect(refused.errors).toEqual([
          { field: 'title', code: 'E_REQUIRED', message: 'Title is required.' },
        ]);
      }
      const ticket = await create({ title: 'Jam' });
      const url = `/api/tickets/${String(ticket['id'])}`;
      for (const blank of BLANKS) {
        const update = problem(await call('PATCH', url, { title: blank }, { 'if-match': '"1"' }));
        expect(update.errors).toEqual([
          { field: 'title', code: 'E_REQUIRED', message: 'Title is required.' },
        ]);
        const close = problem(
          await call('POST', `${url}/transitions/close`, { reason: blank }, { 'if-match': '"1"' }),
        );
        expect(close).toMatchObject({ status: 422, code: 'E_VALIDATION' });
        expect(close.errors).toEqual([
          { field: 'reason', code: 'E_REQUIRED', message: 'Reason is required.' },
        ]);
      }
      const stored = (await call('GET', url)).json<Record<string, unknown>>();
      expect(stored).toMatchObject({ title: 'Jam', state: 'open', version: 1 });
    });

    it('stores blank text where no value is required as no value (null)', async () => {
      const { call, create } = await desk();
      const ticket = await create({ title: 'Jam', note: ' \u200b ', assignee: '\u00a0' });
      expect(ticket).toMatchObject({ note: null, assignee: null });
      const url = `/api/tickets/${String(ticket['id'])}`;
      const noted = await call('PATCH', url, { note: 'Tray 2' }, { 'if-match': '"1"' });
      expect(noted.json()).toMatchObject({ note: 'Tray 2', version: 2 });
      const cleared = await call('PATCH', url, { note: '\u2060\u00a0' }, { 'if-match': '"2"' });
      expect(cleared.json()).toMatchObject({ note: null, version: 3 });
      const closed = await call(
        'POST',
        `${url}/transitions/close`,
        { reason: 'Fixed', note: '\ufeff' },
        { 'if-match': '"3"' },
      );
      expect(closed.statusCode, closed.body).toBe(200);
      expect((await call('GET', url)).json()).toMatchObject({ state: 'closed', reason: 'Fixed', note: null });
      // a list filter for "no note" finds it: what is stored is null, not the blank text
      const none = (await call('GET', '/api/tickets?note[isNull]=true')).json<{ data: { id: string }[] }>();
      expect(none.data.map((t) => t.id)).toEqual([ticket['id']]);
    });

    it('gives an omitted field its default, and an explicit null (or blank) no value', async () => {
      const { call, create } = await desk();
      expect(await create({ title: 'Omitted' })).toMatchObject({ team: 'Support', channel: 'email' });
      expect(await create({ title: 'Null', team: null })).toMatchObject({ team: null, channel: 'email' });
      expect(await create({ title: 'Blank', team: '  ' })).toMatchObject({ team: null });
      // a required field with a default: null is no value, so it is refused, not defaulted
      const refused = problem(await call('POST', '/api/tickets', { title: 'Null', channel: null }));
      expect(refused.errors).toEqual([
        { field: 'channel', code: 'E_REQUIRED', message: 'Channel is required.' },
      ]);
    });

    it('counts an emoji as one character: ten fit a maxLength of 10, eleven are refused saying so', async () => {
      const { call, create } = await desk();
      expect((await create({ title: '😀'.repeat(10) }))['title']).toBe('😀'.repeat(10));
      expect((await create({ title: '👍🏽'.repeat(5) }))['title']).toBe('👍🏽'.repeat(5)); // two code points each
      const refused = problem(await call('POST', '/api/tickets', { title: '😀'.repeat(11) }));
      expect(refused.errors).toEqual([
        { field: 'title', code: 'E_TOO_LONG', message: 'Title must be at most 10 characters long.' },
      ]);
    });

    it('takes http:// and https:// web addresses, and phone numbers of five digits, saying so', async () => {
      const { call, create } = await desk();
      expect(await create({ title: 'Web', website: 'http://example.com' })).toMatchObject({
        website: 'http://example.com',
      });
      expect(await create({ title: 'Phone', phone: '(020) 7946 0958' })).toMatchObject({
        phone: '(020) 7946 0958',
      });
      const refused = problem(
        await call('POST', '/api/tickets', { title: 'Bad', website: 'ftp://example.com', phone: '1234' }),
      );
      expect(refused.errors).toEqual([
        {
          field: 'website',
          code: 'E_FORMAT',
          message: 'Website must be a web address starting with http:// or https://.',
        },
        {
          field: 'phone',
          code: 'E_FORMAT',
          message: 'Phone must be a phone number of at least 5 digits, like +44 20 7946 0958.',
        },
      ]);
    });

    it('answers a guard that does not hold in its own words, and the wrong state with the state', async () => {
      const { call, create } = await desk();
      const ticket = await create({ title: 'Jam' });
      const url = `/api/tickets/${String(ticket['id'])}`;
      expect(
        problem(await call('POST', `${url}/transitions/escalate`, {}, { 'if-match': '"1"' })),
      ).toMatchObject({
        status: 409,
        code: 'E_TRANSITION_GUARD',
        message: "Escalate is not possible now: it needs priority == 'high'.",
      });
      // a guard with an error of its own answers that, with the record's values
      expect(
        problem(await call('POST', `${url}/transitions/assign`, {}, { 'if-match': '"1"' })),
      ).toMatchObject({
        status: 409,
        code: 'E_NOTE_FIRST',
        message: 'Write a note on Jam before assigning it.',
      });
      await call('POST', `${url}/transitions/close`, { reason: 'Fixed' }, { 'if-match': '"1"' });
      expect(
        problem(await call('POST', `${url}/transitions/escalate`, {}, { 'if-match': '"2"' })),
      ).toMatchObject({
        status: 409,
        code: 'E_TRANSITION_NOT_ALLOWED',
        message: 'Escalate is not possible while the record is Closed.',
      });
    });
  });
}
