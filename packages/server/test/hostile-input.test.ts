/**
 * Hostile input over HTTP, on each database: bodies nested thousands deep, text neither database can
 * store alike (a NUL character, half of a surrogate pair), filter values no field can hold, bodies of
 * tens of thousands of unknown keys, ids that are no ids, and requests Node's parser or Fastify's
 * router refuse. Each is a clean problem with a catalogue code, the same on both databases.
 */
import { type AddressInfo, connect } from 'node:net';
import { MAX_JSON_DEPTH, MAX_PROBLEM_ERRORS, PROBLEM_MEDIA_TYPE } from '@ninefold/model';
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
  type TestServer,
} from '@ninefold/testkit';

const SPEC = `
product: { name: Notes }
entities:
  Note:
    fields:
      title: { type: string, required: true }
      day: { type: date }
      kind: { type: enum, values: [memo, todo] }
      data: { type: json }
roles:
  writer: { Note: true }
limits:
  maxBodyBytes: 2097152
`;

/** A signed-in writer's calls, each checked against the OpenAPI document. */
async function writer(server: TestServer) {
  await givenUser(server, 'wes@example.com', ['writer']);
  const cookie = (await login(server.app, 'wes@example.com')).cookie ?? '';
  const call = (
    method: string,
    url: string,
    payload?: string | object,
    headers: Record<string, string> = {},
  ) =>
    checkedInject(server.app, server.model, {
      method,
      url,
      headers: {
        ...CSRF,
        cookie,
        ...(typeof payload === 'string' ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      ...(payload === undefined ? {} : { payload }),
    });
  const titles = async (query = '') =>
    (await call('GET', `/api/notes${query}`)).json<{ data: { title: string }[] }>().data.map((n) => n.title);
  return { call, titles };
}

/** JSON text of an array nested `depth` deep. */
const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

/** One raw HTTP exchange with a listening server: its status, headers and body. */
async function rawExchange(port: number, request: string) {
  const text = await new Promise<string>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(request));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
  const [head = '', ...rest] = text.split('\r\n\r\n');
  const [statusLine = '', ...headerLines] = head.split('\r\n');
  const headers = Object.fromEntries(
    headerLines.map((line) => [
      line.slice(0, line.indexOf(':')).toLowerCase(),
      line.slice(line.indexOf(':') + 1).trim(),
    ]),
  );
  return { status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') };
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: hostile input`, () => {
    it('refuses a body nested 10,000 deep with E_BAD_REQUEST on a create and a PATCH, and goes on answering', async () => {
      const server = await testServer(dialect, specModel(SPEC));
      const { call, titles } = await writer(server);
      const deep = `{"title":"Deep","data":${nested(10_000)}}`;
      const created = await call('POST', '/api/notes', deep);
      expect(problem(created)).toMatchObject({ status: 400, code: 'E_BAD_REQUEST' });
      expect(problem(created).message).toContain(`deeper than ${MAX_JSON_DEPTH} levels`);
      // deeper still, in a field of another type, and as the body itself
      for (const payload of [`{"title":${nested(100_000)}}`, nested(100_000)]) {
        expect(problem(await call('POST', '/api/notes', payload))).toMatchObject({ code: 'E_BAD_REQUEST' });
      }

      // as deep as the limit allows (the body's own object is the first level) is a body like any
      const deepest = await call(
        'POST',
        '/api/notes',
        `{"title":"Deepest","data":${nested(MAX_JSON_DEPTH - 1)}}`,
      );
      expect(deepest.statusCode, deepest.body).toBe(201);
      const one = await call(
        'POST',
        '/api/notes',
        `{"title":"One too deep","data":${nested(MAX_JSON_DEPTH)}}`,
      );
      expect(problem(one)).toMatchObject({ status: 400, code: 'E_BAD_REQUEST' });

      // the parser behind the depth check is still Fastify's, which refuses a prototype key
      const proto = await call('POST', '/api/notes', '{"title":"Proto","__proto__":{"admin":true}}');
      expect(problem(proto)).toMatchObject({ status: 400, code: 'E_BAD_REQUEST' });

      const id = String(deepest.json<{ id: string }>().id);
      const patched = await call('PATCH', `/api/notes/${id}`, deep, { 'if-match': '"1"' });
      expect(problem(patched)).toMatchObject({ status: 400, code: 'E_BAD_REQUEST' });
      // brackets inside a string are text, not nesting
      const text = await call('PATCH', `/api/notes/${id}`, { title: nested(5_000) }, { 'if-match': '"1"' });
      expect(problem(text).errors?.[0]).toMatchObject({ field: 'title', code: 'E_TOO_LONG' });

      expect(await titles()).toEqual(['Deepest']);
      expect((await call('GET', `/api/notes/${id}`)).json()).toMatchObject({ version: 1 });
    });

    it('refuses half of a surrogate pair or a NUL character in a text field with E_FORMAT, and stores nothing', async () => {
      const server = await testServer(dialect, specModel(SPEC));
      const { call, titles } = await writer(server);
      // the JSON text itself holds the escape: the string it parses to is not well-formed UTF-16
      const lone = await call('POST', '/api/notes', '{"title":"Taxi \\ud800 to the airport"}');
      expect(problem(lone)).toMatchObject({ status: 422, code: 'E_VALIDATION' });
      expect(problem(lone).errors).toEqual([
        {
          field: 'title',
          code: 'E_FORMAT',
          message: 'Title must be well-formed Unicode text (it holds half of a surrogate pair).',
        },
      ]);
      const low = await call('POST', '/api/notes', '{"title":"x","data":{"note":["\\udc00"]}}');
      expect(problem(low).errors).toMatchObject([{ field: 'data', code: 'E_FORMAT' }]);
      const nul = await call('POST', '/api/notes', { title: 'a\u0000b' });
      expect(problem(nul).errors).toEqual([
        {
          field: 'title',
          code: 'E_FORMAT',
          message: 'Title must be text without the NUL character (U+0000).',
        },
      ]);
      // in a field's name, there is no field to put it beside
      const key = await call('POST', '/api/notes', '{"title":"x","ti\\ud800tle":"y"}');
      expect(problem(key)).toMatchObject({ status: 400, code: 'E_BAD_REQUEST' });
      expect(await titles()).toEqual([]);

      // a whole pair is a character like any: an emoji is stored and read back as sent
      const taxi = await call('POST', '/api/notes', '{"title":"Taxi \\ud83d\\ude95"}');
      expect(taxi.statusCode, taxi.body).toBe(201);
      const id = String(taxi.json<{ id: string }>().id);
      const patched = await call('PATCH', `/api/notes/${id}`, '{"title":"\\udfff"}', { 'if-match': '"1"' });
      expect(problem(patched).errors).toMatchObject([{ field: 'title', code: 'E_FORMAT' }]);
      expect(await titles()).toEqual(['Taxi 🚕']);
      expect((await call('GET', `/api/notes/${id}`)).json()).toMatchObject({ title: 'Taxi 🚕', version: 1 });
    });

    it('refuses a filter value its field can never hold with E_INVALID_QUERY naming the filter', async () => {
      const server = await testServer(dialect, specModel(SPEC));
      const { call, titles } = await writer(server);
      const made = await call('POST', '/api/notes', { title: 'Leap', day: '2028-02-29', kind: 'memo' });
      expect(made.statusCode, made.body).toBe(201);

      const day = problem(await call('GET', '/api/notes?day=2026-02-30'));
      expect(day).toMatchObject({
        status: 400,
        code: 'E_INVALID_QUERY',
        message: 'The list query is not valid: `day` must be a date like 2026-01-31.',
      });
      expect(day.errors).toEqual([
        { field: 'day', code: 'E_FORMAT', message: 'Day must be a date like 2026-01-31.' },
      ]);
      const range = problem(await call('GET', '/api/notes?day[gte]=2026-13-01'));
      expect(range.errors).toMatchObject([{ field: 'day[gte]', code: 'E_FORMAT' }]);

      const kind = problem(await call('GET', '/api/notes?kind=nope'));
      expect(kind).toMatchObject({
        status: 400,
        code: 'E_INVALID_QUERY',
        message: 'The list query is not valid: `kind` must be one of: memo, todo.',
      });
      expect(kind.errors).toEqual([
        { field: 'kind', code: 'E_NOT_ONE_OF', message: 'Kind must be one of: memo, todo.' },
      ]);
      const among = problem(await call('GET', '/api/notes?kind[in]=memo,nope'));
      expect(among.errors).toMatchObject([{ field: 'kind[in]', code: 'E_NOT_ONE_OF' }]);

      // values the fields can hold still filter
      expect(await titles('?day=2028-02-29')).toEqual(['Leap']);
      expect(await titles('?day[lt]=2028-02-29')).toEqual([]);
      expect(await titles('?kind[in]=todo,memo')).toEqual(['Leap']);
      expect(await titles('?kind=todo')).toEqual([]);
    });

    it('lists at most 50 field errors of a body with 60,000 unknown keys, and says how many more', async () => {
      const server = await testServer(dialect, specModel(SPEC));
      const { call, titles } = await writer(server);
      const payload: Record<string, unknown> = { title: 'Many' };
      for (let i = 0; i < 60_000; i++) payload[`k${i}`] = i;
      const response = await call('POST', '/api/notes', payload);
      const body = problem(response);
      expect(body).toMatchObject({
        status: 422,
        code: 'E_VALIDATION',
        moreErrors: 60_000 - MAX_PROBLEM_ERRORS,
      });
      expect(body.errors).toHaveLength(MAX_PROBLEM_ERRORS);
      expect(body.errors?.[0]).toMatchObject({ field: 'k0', code: 'E_UNKNOWN_FIELD' });
      expect(body.errors?.every((e) => e.code === 'E_UNKNOWN_FIELD')).toBe(true);
      expect(Buffer.byteLength(response.body)).toBeLessThan(10_000);
      expect(await titles()).toEqual([]);

      // a sign-in with them too
      const signIn = await checkedInject(server.app, server.model, {
        method: 'POST',
        url: '/api/session',
        headers: CSRF,
        payload: { ...payload, email: 'wes@example.com', password: 'x' },
      });
      expect(problem(signIn)).toMatchObject({
        code: 'E_VALIDATION',
        moreErrors: 60_001 - MAX_PROBLEM_ERRORS,
      });
      expect(Buffer.byteLength(signIn.body)).toBeLessThan(10_000);
    });

    it('answers a NUL character as a record id with E_NOT_FOUND, and in a sign-in email with E_FORMAT', async () => {
      const server = await testServer(dialect, specModel(SPEC));
      const { call } = await writer(server);
      for (const [method, url] of [
        ['GET', '/api/notes/%00'],
        ['GET', '/api/notes/%00/history'],
        ['PATCH', '/api/notes/%00'],
        ['DELETE', '/api/notes/%00'],
        ['GET', '/api/notes/not-an-id'],
      ] as const) {
        const response = await call(method, url, method === 'PATCH' ? { title: 'x' } : undefined, {
          'if-match': '"1"',
        });
        expect(problem(response), `${method} ${url}`).toMatchObject({ status: 404, code: 'E_NOT_FOUND' });
      }
      // signed out, the session is asked for first, whatever the id
      const anonymous = await checkedInject(server.app, server.model, {
        method: 'GET',
        url: '/api/notes/%00',
      });
      expect(problem(anonymous)).toMatchObject({ status: 401, code: 'E_UNAUTHENTICATED' });

      for (const email of ['a\u0000@example.com', 'wes@example.com\u0000', 'a\ud800@example.com']) {
        const signIn = await checkedInject(server.app, server.model, {
          method: 'POST',
          url: '/api/session',
          headers: CSRF,
          payload: { email, password: 'correct horse battery' },
        });
        expect(problem(signIn)).toMatchObject({ status: 422, code: 'E_VALIDATION' });
        expect(problem(signIn).errors).toMatchObject([{ field: 'email', code: 'E_FORMAT' }]);
      }
      // and a filter or a search with one
      for (const query of ['title=%00', 'q=a%00', 'title[contains]=%00']) {
        const listed = problem(await call('GET', `/api/notes?${query}`));
        expect(listed, query).toMatchObject({ status: 400, code: 'E_INVALID_QUERY' });
      }
    });

    it('answers a malformed address, a path part too long, and an unknown route with problems', async () => {
      const server = await testServer(dialect, specModel(SPEC));
      const { call } = await writer(server);
      const malformed = await call('GET', '/api/notes/%E0%A4%A');
      expect(problem(malformed)).toMatchObject({ status: 400, code: 'E_BAD_REQUEST' });
      expect(malformed.headers['content-type']).toBe(`${PROBLEM_MEDIA_TYPE}; charset=utf-8`);
      const long = await call('GET', `/api/notes/${'a'.repeat(101)}`);
      expect(problem(long)).toMatchObject({ status: 414, code: 'E_URI_TOO_LONG' });
      const unknown = await call('GET', '/api/nothing/here');
      expect(problem(unknown)).toMatchObject({ status: 404, code: 'E_ROUTE_NOT_FOUND' });
      // a method no route of the path has, or one Fastify does not route at all
      for (const method of ['PUT', 'PROPFIND']) {
        const response = await call(method, '/api/notes');
        expect(problem(response), method).toMatchObject({ status: 404, code: 'E_ROUTE_NOT_FOUND' });
      }
      // a query string that does not decode is refused, not searched for as literal text
      for (const query of ['title=%E0%A4%A', 'q=100%', 'title=%ED%A0%80']) {
        const response = await call('GET', `/api/notes?${query}`);
        expect(problem(response), query).toMatchObject({ status: 400, code: 'E_BAD_REQUEST' });
      }
      expect((await call('GET', '/api/notes?q=caf%C3%A9%20100%25')).statusCode).toBe(200);
    });

    it('answers headers over 16 KB and bytes that are not HTTP with problems, on a listening server', async () => {
      const server = await testServer(dialect, specModel(SPEC));
      await server.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = server.app.server.address() as AddressInfo;

      const large = await rawExchange(
        port,
        `GET /api/notes HTTP/1.1\r\nHost: localhost\r\nCookie: a=${'x'.repeat(20_000)}\r\n\r\n`,
      );
      expect(large.status).toBe(431);
      expect(large.headers['content-type']).toBe(`${PROBLEM_MEDIA_TYPE}; charset=utf-8`);
      expect(JSON.parse(large.body)).toMatchObject({ status: 431, code: 'E_HEADERS_TOO_LARGE' });

      const longUrl = await rawExchange(
        port,
        `GET /api/notes?q=${'x'.repeat(20_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`,
      );
      expect(JSON.parse(longUrl.body)).toMatchObject({ status: 431, code: 'E_HEADERS_TOO_LARGE' });

      const garbage = await rawExchange(port, 'HELLO THERE\r\n\r\n');
      expect(garbage.status).toBe(400);
      expect(JSON.parse(garbage.body)).toMatchObject({ status: 400, code: 'E_BAD_REQUEST' });

      // the server goes on answering
      const health = await fetch(`http://127.0.0.1:${port}/health`);
      expect(health.status).toBe(200);
    });
  });
}
