/**
 * The client against the real server, in-process: a spec from examples/, its API on a fresh SQLite
 * database, and a `fetch` that reaches it through `app.inject()` with a cookie jar — so component
 * tests exercise the same HTTP, permissions and rules as the browser does.
 */
import { compile, translationLocale } from '@ninefold/language';
import { MantineProvider } from '@mantine/core';
import { type Field, type FileInfo, type Model, SESSION_COOKIE } from '@ninefold/model';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { useState } from 'react';
import { UNSAFE_createMemoryHistory } from 'react-router';
import { expect } from 'vitest';
import { CSRF, type TestServer, givenUser, login, testServer } from '@ninefold/testkit';
import type { UploadTransport } from '../src/api/upload';
import { App, createAppParts } from '../src/app/App';
import { guardHistory } from '../src/app/history';
import { productTheme } from '../src/app/theme';
import { type I18n } from '../src/i18n/i18n';
import { I18nProvider } from '../src/i18n/I18nProvider';
import { FilterBar, type ParamChanges } from '../src/screens/list/FilterBar';
import { withParams } from '../src/screens/list/list-params';
import { type FakeStreams } from './fake-event-source';
import { formDataBody, multipart } from './multipart';

export { PASSWORD } from '@ninefold/testkit';

// The server sniffs an upload with file-type, which asks `input instanceof Uint8Array` of the global
// one. Under jsdom that global is jsdom's, of another realm, and no Node Buffer is one; the server
// runs in Node, so it gets Node's back here (the app's own code depends on neither).
globalThis.Uint8Array = Object.getPrototypeOf(Buffer.prototype).constructor as Uint8ArrayConstructor;

/** A small PDF to upload, as a claim's receipt: what the server sniffs as `application/pdf`. */
export const SAMPLE_PDF = {
  name: 'receipt.pdf',
  type: 'application/pdf',
  bytes: new TextEncoder().encode('%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n'),
} as const;

/** The compiled model of an example (or of spec text). */
export function modelOf(file: string): Model {
  // jsdom's URL resolves import.meta.url against the page, so the repository root is the anchor
  const dir = join(process.cwd(), 'examples');
  // with its translation files (`expense-claims.fr-FR.yaml`, decision 0068)
  const base = file.replace(/\.(md|ya?ml)$/, '');
  const translations = Object.fromEntries(
    readdirSync(dir)
      .filter((name) => name.startsWith(`${base}.`) && translationLocale(name) !== null)
      .map((name) => [name, readFileSync(join(dir, name), 'utf8')]),
  );
  const result = compile(readFileSync(join(dir, file), 'utf8'), { file, translations });
  if (!result.ok) throw new Error(`examples/${file} does not compile`);
  return result.model;
}

export interface World {
  readonly server: TestServer;
  readonly model: Model;
  /** The ids and session cookies of the users made with `user()`. */
  readonly users: Record<string, { id: string; cookie: string; email: string }>;
  /** Adds a user with roles and signs them in on the server. */
  user(name: string, roles: readonly string[]): Promise<{ id: string; cookie: string; email: string }>;
  /** A request as a user, straight to the API (to arrange data). */
  api(
    name: string,
    method: string,
    url: string,
    payload?: unknown,
    headers?: Record<string, string>,
  ): Promise<{
    status: number;
    body: Record<string, unknown>;
  }>;
  /** Uploads a file as a user (`POST /api/files`), for a record to hold; throws unless stored. */
  upload(name: string, file: { name: string; type: string; bytes: Uint8Array }): Promise<FileInfo>;
}

/** A world of an example of examples/ (by file name), or of a model made by the test. */
export async function world(spec: string | Model): Promise<World> {
  const model = typeof spec === 'string' ? modelOf(spec) : spec;
  const server = await testServer('sqlite', model);
  const users: World['users'] = {};
  return {
    server,
    model,
    users,
    async user(name, roles) {
      const email = `${name}@example.com`;
      const created = await givenUser(server, email, roles);
      const { cookie } = await login(server.app, email);
      if (cookie === undefined) throw new Error(`${name} could not sign in`);
      return (users[name] = { id: created.id, cookie, email });
    },
    async api(name, method, url, payload, headers = {}) {
      const cookie = users[name]?.cookie;
      const response = await server.app.inject({
        method: method as 'GET',
        url,
        headers: { ...CSRF, ...(cookie === undefined ? {} : { cookie }), ...headers },
        ...(payload === undefined ? {} : { payload: payload as object }),
      });
      return {
        status: response.statusCode,
        body: response.body === '' ? {} : (response.json() as Record<string, unknown>),
      };
    },
    async upload(name, file) {
      const cookie = users[name]?.cookie;
      const { body, contentType } = multipart([
        ['file', { filename: file.name, type: file.type, bytes: file.bytes }],
      ]);
      const response = await server.app.inject({
        method: 'POST',
        url: `${model.calls.basePath}/files`,
        headers: { ...CSRF, ...(cookie === undefined ? {} : { cookie }), 'content-type': contentType },
        payload: body,
      });
      if (response.statusCode !== 201)
        throw new Error(`upload refused: ${response.statusCode} ${response.body}`);
      return response.json<FileInfo>();
    },
  };
}

/**
 * A `fetch` that answers from the app in-process, keeping the session cookie like a browser.
 *
 * @example const fetch = injectFetch(server, jar);
 */
export function injectFetch(server: TestServer, jar: { cookie: string | undefined }): typeof fetch {
  return async (input, init = {}) => {
    const request = input instanceof Request ? input : null;
    const url = new URL(request?.url ?? String(input), 'http://localhost');
    const signal = init.signal ?? undefined;
    if (signal?.aborted === true) throw signal.reason;
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, key) => (headers[key] = value));
    if (jar.cookie !== undefined) headers['cookie'] = jar.cookie;
    // an upload's FormData, written out as the browser would send it
    const form = init.body instanceof FormData ? await formDataBody(init.body) : null;
    if (form !== null) headers['content-type'] = form.contentType;
    // aborted while its body was being read: sent no further
    if (init.signal?.aborted === true) throw init.signal.reason;
    const response = await server.app.inject({
      method: (init.method ?? 'GET') as 'GET',
      url: `${url.pathname}${url.search}`,
      headers,
      ...(typeof init.body === 'string'
        ? { payload: init.body }
        : form !== null
          ? { payload: form.body }
          : {}),
    });
    const set = response.cookies.find((c) => c.name === SESSION_COOKIE);
    if (set !== undefined)
      jar.cookie = set.value === '' || set.maxAge === 0 ? undefined : `${set.name}=${set.value}`;
    const out = new Headers();
    for (const [key, value] of Object.entries(response.headers)) {
      if (value !== undefined && key !== 'set-cookie')
        out.set(key, Array.isArray(value) ? value.join(', ') : String(value));
    }
    const empty = response.statusCode === 204 || response.statusCode === 304 || response.body === '';
    return new Response(empty ? null : response.body, { status: response.statusCode, headers: out });
  };
}

/**
 * Renders the whole app at a path, signed in as one of the world's users (or signed out).
 *
 * @example const { user, history } = await renderApp(w, { as: 'ann', path: '/my-claims' });
 */
export function renderApp(
  w: World,
  options: {
    as?: string;
    path?: string;
    now?: () => Date;
    /** Puts something between the app and the server, like a network that loses answers. */
    network?: (fetch: typeof globalThis.fetch) => typeof globalThis.fetch;
    /** The model the app starts with, if not the world's (the signed-out one, say). */
    model?: Model;
    /** The live stream's event sources (a fake the test drives); none open without it. */
    streams?: FakeStreams;
    /**
     * The reader's locale (`fr-FR`, `ar`, `en-XA`…); the app offers it even where the spec does not.
     * The spec's default when not given.
     */
    locale?: string;
    /** How long a delete is held for its Undo (the toast's 8 s unless given). */
    undoMs?: number;
    /** How uploads are sent, if not over the test's `fetch` (progress told once, at the end). */
    upload?: UploadTransport;
  } = {},
) {
  const jar = { cookie: options.as === undefined ? undefined : w.users[options.as]?.cookie };
  const fetch = injectFetch(w.server, jar);
  const parts = createAppParts(offering(options.model ?? w.model, options.locale), {
    fetch: options.network === undefined ? fetch : options.network(fetch),
    now: options.now ?? w.server.clock.now,
    ...(options.streams === undefined ? {} : { eventSource: options.streams.open }),
    wanted: options.locale === undefined ? [] : [options.locale],
    ...(options.undoMs === undefined ? {} : { undoMs: options.undoMs }),
    ...(options.upload === undefined ? {} : { upload: options.upload }),
  });
  const history = guardHistory(
    UNSAFE_createMemoryHistory({ initialEntries: [options.path ?? '/'], v5Compat: true }),
  );
  const user = userEvent.setup();
  const rendered = render(<App parts={parts} history={history} />);
  return { ...rendered, user, history, parts, jar };
}

/** A model that offers a locale besides its spec's. */
export function offering(model: Model, locale: string | undefined): Model {
  if (locale === undefined || model.product.locales.includes(locale)) return model;
  return { ...model, product: { ...model.product, locales: [...model.product.locales, locale] } };
}

/**
 * Opens the signed-in user's menu once its code is here (until then its button is marked
 * unavailable, and a click on it opens nothing).
 *
 * @example await openUserMenu(user, 'ada'); await user.click(screen.getByRole('menuitem', { name: 'Jobs' }));
 */
export async function openUserMenu(user: UserEvent, name: string): Promise<void> {
  // the fallback button is replaced by the menu's own: ask for it afresh each time
  await waitFor(() =>
    expect(screen.getByRole('button', { name: `Account: ${name}` })).not.toHaveAttribute('aria-disabled'),
  );
  await user.click(screen.getByRole('button', { name: `Account: ${name}` }));
}

/**
 * A list's filter bar alone, in the app's theme and `i18n`'s language, over the address's query
 * string as the list keeps it: the changes it asked for, and the query string they made.
 *
 * @example const { params, user } = renderFilterBar({ model, entity: 'Claim', fields, i18n }, 'amount[gte]=12.5');
 */
export function renderFilterBar(
  of: { model: Model; entity: string; fields: readonly Field[]; i18n: I18n },
  initial = '',
): { changes: ParamChanges[]; params: () => URLSearchParams; user: UserEvent } {
  const changes: ParamChanges[] = [];
  let current = new URLSearchParams(initial);
  function Host() {
    const [search, setSearch] = useState(current);
    return (
      <FilterBar
        model={of.model}
        entity={of.entity}
        fields={[...of.fields]}
        filters={Object.fromEntries(search)}
        onChange={(change: ParamChanges) => {
          changes.push(change);
          current = withParams(current, change);
          setSearch(current);
        }}
      />
    );
  }
  render(
    <I18nProvider i18n={of.i18n}>
      <MantineProvider theme={productTheme(of.model.product.theme)}>
        <Host />
      </MantineProvider>
    </I18nProvider>,
  );
  return { changes, params: () => current, user: userEvent.setup() };
}
