/**
 * The first rows prerendered into the page (decision 0018): the client's own prerender, run for a
 * signed-in navigation to a list screen, over the app's own API as that user.
 */
import { type LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  CSRF,
  DIALECTS,
  builtClient,
  exampleModel,
  givenUser,
  login,
  type TestServer,
} from '@ninefold/testkit';
import { type PrerenderModule, loadPrerender } from '../src/index.js';
import { webServer } from './web-server.js';

/** The client's prerender, as the web app imports it (the tests run its sources, the e2e tests its build). */
async function clientPrerender(): Promise<PrerenderModule> {
  const module = await loadPrerender();
  if (module === null) throw new Error('@ninefold/client/prerender could not be imported');
  return module;
}

/** The prerender a page carries, and the query cache it came with; nulls when it has none. */
function prerenderOf(page: LightMyRequestResponse): { html: string | null; state: unknown } {
  const html = /<div id="nf-prerender"[^>]*>(.*)<\/div><div id="root"><\/div>/s.exec(page.body)?.[1] ?? null;
  const state = /<script id="ninefold-state" type="application\/json"[^>]*>(.*?)<\/script>/s.exec(
    page.body,
  )?.[1];
  return { html, state: state === undefined ? null : JSON.parse(state) };
}

/** The data of every query a page's prerender was made from, by its key. */
function queries(state: unknown): Map<string, unknown> {
  return new Map((state as { key: unknown; data: unknown }[]).map((q) => [JSON.stringify(q.key), q.data]));
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: a list's first rows prerendered into the page`, () => {
    let server: TestServer;
    let ann: string, bob: string, aud: string;
    const page = (url: string, cookie?: string, method: 'GET' | 'HEAD' = 'GET') =>
      server.app.inject({ method, url, headers: cookie === undefined ? {} : { cookie } });

    beforeAll(async () => {
      const model = exampleModel('expense-claims.md');
      // what a prerender holds is tested here, not its deadline (the last test's): a loaded machine's
      // first render, which compiles the client's modules, may take longer than a served page may wait
      server = await webServer(dialect, model, {
        dir: builtClient(),
        prerender: await clientPrerender(),
        prerenderTimeoutMs: 30_000,
      });
      const cookies: string[] = [];
      for (const [name, roles] of [
        ['ann', ['employee']],
        ['bob', ['employee']],
        ['aud', ['auditor']],
      ] as const) {
        await givenUser(server, `${name}@example.com`, roles);
        const { cookie } = await login(server.app, `${name}@example.com`);
        cookies.push(cookie ?? '');
      }
      [ann, bob, aud] = cookies as [string, string, string];
      const claim = async (cookie: string, title: string, merchant: string) => {
        const response = await server.app.inject({
          method: 'POST',
          url: '/api/claims',
          headers: { ...CSRF, cookie },
          payload: { title, category: 'travel', amount: '12.50', merchant },
        });
        expect(response.statusCode, response.body).toBe(201);
      };
      await claim(ann, 'Lunch with Lyon team', 'Brasserie Ann');
      await claim(ann, "</script><script>alert(1)</script> $& $' $` $1", 'Café');
      await claim(bob, 'Taxi to Bob’s client', 'Cabs Bob');
    });

    it('renders the rows the user may read, from the very answer the app would get', async () => {
      const response = await page('/my-claims', ann);
      expect(response.statusCode).toBe(200);
      expect(response.headers['x-ninefold-prerendered']).toBe('1');
      // one user's records: kept by neither the browser nor its service worker
      expect(response.headers['cache-control']).toBe('no-store');
      const { html, state } = prerenderOf(response);
      // the live stream's cursor of the prerender's read: the app opens its stream from it
      expect(response.body).toMatch(/<script id="ninefold-state"[^>]* data-event-cursor="\d+\.\d+"/);
      expect(html).toContain('Lunch with Lyon team');
      expect(html).toContain('>Draft<'); // its state, as the list's badge shows it
      expect(html).not.toContain('Taxi to Bob'); // bob's claim, which ann may not read
      expect(html).toContain('2 claims');
      // the same answer, the same request: what the app asks for on this screen
      const prerendered = queries(state);
      const listKey = [...prerendered.keys()].find((key) => key.startsWith('["records","Claim","list"'));
      expect(listKey).toBeDefined();
      const api = await server.app.inject({
        method: 'GET',
        url: '/api/claims?screen=my-claims&sort=-spentOn&total=true',
        headers: { cookie: ann },
      });
      expect(prerendered.get(listKey ?? '')).toEqual({ pages: [api.json()], pageParams: [null] });
      const session = await server.app.inject({
        method: 'GET',
        url: '/api/session',
        headers: { cookie: ann },
      });
      expect(prerendered.get('["session"]')).toEqual(session.json<{ user: unknown }>().user);
      // its place over the app's root, asked for before anything else; the model, which only the
      // app's code reads, after it
      expect(response.body).toMatch(/<head><style>#nf-prerender\{position:absolute;/);
      expect(response.body).toMatch(/<div id="root"><\/div><script id="ninefold-model"/);
      // the product's scheme is set on the page the prerender is in, as the app will set it
      expect(response.body).toMatch(/<html lang="en-GB" data-mantine-color-scheme="(light|dark)"/);
    });

    it('is in the reader’s language: saved on the account, else the browser’s, else the spec’s', async () => {
      const mountOf = (response: LightMyRequestResponse) =>
        /<div id="nf-prerender"[^>]* lang="([^"]*)" dir="([^"]*)"/.exec(response.body)?.slice(1);
      const inLanguage = (cookie: string, accept?: string) =>
        server.app.inject({
          method: 'GET',
          url: '/my-claims',
          headers: { cookie, ...(accept === undefined ? {} : { 'accept-language': accept }) },
        });
      // no preference anywhere: the spec's default locale
      const plain = await inLanguage(ann);
      expect(mountOf(plain)).toEqual(['en-GB', 'ltr']);
      expect(prerenderOf(plain).html).toContain('>Draft<');
      // the browser's first language the product offers
      const browser = await inLanguage(ann, 'de-DE, fr;q=0.9, en;q=0.5');
      expect(mountOf(browser)).toEqual(['fr-FR', 'ltr']);
      expect(prerenderOf(browser).html).toContain('>Brouillon<');
      expect(prerenderOf(browser).html).toContain('2 notes de frais');
      // the account's saved language comes before the browser's
      const saved = await server.app.inject({
        method: 'PUT',
        url: '/api/account/locale',
        headers: { ...CSRF, cookie: bob },
        payload: { locale: 'fr-FR' },
      });
      expect(saved.statusCode, saved.body).toBeLessThan(300);
      const bobs = await inLanguage(bob, 'en-GB');
      expect(mountOf(bobs)).toEqual(['fr-FR', 'ltr']);
      expect(prerenderOf(bobs).html).toContain('1 note de frais');
    });

    it('applies the read masks of every answer', async () => {
      const records = (cookie: string, state: unknown) =>
        [...queries(state).entries()]
          .filter(([key]) => key.startsWith('["records","Claim","list"'))
          .flatMap(
            ([, data]) => (data as { pages: { data: Record<string, unknown>[] }[] }).pages[0]?.data ?? [],
          );
      const mine = prerenderOf(await page('/my-claims', ann));
      expect(records(ann, mine.state).map((r) => r['merchant'])).toContain('Brasserie Ann');
      const audited = prerenderOf(await page('/claims', aud));
      expect(audited.html).toContain('Lunch with Lyon team');
      expect(audited.html).toContain('Taxi to Bob');
      // the auditor may not read merchants: in neither the rows nor the data
      const seen = records(aud, audited.state);
      expect(seen).toHaveLength(3);
      for (const record of seen) {
        expect(record).not.toHaveProperty('merchant');
      }
    });

    it('lets no record text out of its element: no script but the page’s own', async () => {
      const response = await page('/my-claims', ann);
      expect(response.body).not.toContain('<script>alert(1)');
      // the model's, the prerender's data and the app's own: nothing the prerender brought can run
      expect(response.body.match(/<script/g)?.length).toBe(3);
      const { html, state } = prerenderOf(response);
      expect(html).toContain('&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; $&amp; $&#x27; $` $1');
      expect(JSON.stringify(state)).toContain("</script><script>alert(1)</script> $& $' $` $1");
    });

    it('prerenders nothing where the app would not show those rows at once', async () => {
      const bare = async (url: string, cookie?: string, method?: 'GET' | 'HEAD') => {
        const response = await page(url, cookie, method);
        expect(response.statusCode, url).toBe(200);
        expect(response.headers['x-ninefold-prerendered'], url).toBeUndefined();
        // the whole model's page is a signed-in browser's own (decision 0027)
        const signedIn = cookie?.includes(ann) === true;
        expect(response.headers['cache-control'], url).toBe(signedIn ? 'private, no-cache' : 'no-cache');
        if (method !== 'HEAD') expect(prerenderOf(response), url).toEqual({ html: null, state: null });
      };
      await bare('/my-claims'); // nobody signed in
      await bare('/my-claims', 'ninefold_session=not-a-session'); // a session that is no more
      await bare('/my-claims', `${ann}; nf-device-settings=1`); // columns or a scheme of its own
      await bare('/my-claims?state=draft', ann); // filters: the app renders those
      await bare('/approvals', ann); // a screen the employee may not open
      await bare('/claims/new', ann); // not a list
      await bare('/', ann);
      await bare('/my-claims', ann, 'HEAD');
    });

    it('sends the page without a prerender when it fails or takes too long', async () => {
      for (const [what, prerender] of [
        ['fails', () => Promise.reject(new Error('the prerender broke'))],
        // never settles: without the server's own limit this request would never be answered
        ['hangs', () => new Promise<never>(() => undefined)],
      ] as const) {
        const other = await webServer(dialect, exampleModel('expense-claims.md'), {
          dir: builtClient(),
          prerender: { prerender },
          prerenderTimeoutMs: 300,
        });
        await givenUser(other, 'eve@example.com', ['employee']);
        const { cookie } = await login(other.app, 'eve@example.com');
        const response = await other.app.inject({ method: 'GET', url: '/my-claims', headers: { cookie } });
        expect(response.statusCode, what).toBe(200);
        expect(response.headers['x-ninefold-prerendered'], what).toBeUndefined();
        expect(response.body, what).toContain('<div id="root"></div>');
      }
    });
  });
}
