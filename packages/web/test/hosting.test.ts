/**
 * The web app on the API's port: the page with the model inline for every route of the client,
 * static files, the manifest and icons made from the model; the API's paths left to the API.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { signedOutModel } from '@ninefold/server';
import { builtClient, exampleModel, givenUser, login } from '@ninefold/testkit';
import { webServer } from './web-server.js';

/** The model the page carries inline. */
function inlineModel(body: string): unknown {
  const json = /<script id="ninefold-model" type="application\/json">(.*?)<\/script>/s.exec(body)?.[1];
  return JSON.parse(json ?? 'null');
}

describe('the web app on the API’s port', () => {
  it('serves the page with the model inline, for every address the client routes', async () => {
    const model = exampleModel('expense-claims.md');
    const { app } = await webServer('sqlite', model, { dir: builtClient() });
    for (const url of [
      '/',
      '/claims/01a2083f-4eae-7b1c-9f18-aa1aee947676',
      '/my-claims?state=draft',
      '/sign-in',
    ]) {
      const page = await app.inject({ method: 'GET', url });
      expect(page.statusCode, url).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.headers['cache-control']).toBe('no-cache');
      expect(page.headers['content-security-policy']).toContain("script-src 'self'");
      expect(page.body).toContain('<title>Expense claims</title>');
      expect(page.body).toContain('<html lang="en-GB"');
      expect(page.body).toContain('content="#0b7285"');
      // nobody signed in: the model of the pages before sign-in (decision 0027)
      expect(inlineModel(page.body)).toEqual(JSON.parse(JSON.stringify(signedOutModel(model))));
    }
  });

  it('gives the whole model but its webhooks to a signed-in browser only', async () => {
    const model = exampleModel('expense-claims.md');
    // the webhooks' receivers are the server's business, never a browser's
    expect(Object.keys(model.webhooks)).toEqual(['accounting']);
    const served = { ...model, webhooks: {} };
    const server = await webServer('sqlite', model, { dir: builtClient() });
    await givenUser(server, 'ann@example.com', ['employee']);
    const { cookie } = await login(server.app, 'ann@example.com');
    for (const url of ['/', '/index.html', '/my-claims', '/sign-in']) {
      const signedIn = await server.app.inject({ method: 'GET', url, headers: { cookie: cookie! } });
      expect(signedIn.headers['cache-control'], url).toBe('private, no-cache');
      expect(inlineModel(signedIn.body), url).toEqual(JSON.parse(JSON.stringify(served)));
      const stale = await server.app.inject({
        method: 'GET',
        url,
        headers: { cookie: 'ninefold_session=AAAAAAAAAAAAAAAAAAAAAA' },
      });
      expect(inlineModel(stale.body), url).toMatchObject({ signedOut: true, roles: {}, screens: [] });
    }
  });

  it('never lets spec text close the inline script', async () => {
    const model = exampleModel('expense-claims.md');
    const hostile = {
      ...model,
      product: { ...model.product, summary: '</script><script>alert(1)</script>' },
    };
    const { app } = await webServer('sqlite', hostile, { dir: builtClient() });
    const page = await app.inject({ method: 'GET', url: '/' });
    expect(page.body).not.toContain('<script>alert(1)');
    expect(page.body.match(/<\/script>/g)?.length).toBe(2); // the model's and the app's own
  });

  it('caches hashed assets for good and keeps API, docs and unknown files as 404 problems', async () => {
    const { app } = await webServer('sqlite', exampleModel('expense-claims.md'), { dir: builtClient() });
    const asset = await app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const worker = await app.inject({ method: 'GET', url: '/sw.js' });
    expect(worker.headers['cache-control']).toBe('no-cache');

    for (const url of ['/api/nothing-here', '/api', '/assets/missing.js', '/docs/x']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toMatchObject({ code: 'E_ROUTE_NOT_FOUND' });
    }
    const post = await app.inject({ method: 'POST', url: '/claims', payload: {} });
    expect(post.statusCode).toBe(404);
  });

  it('serves no dotfile of the build folder, and every HTML file under the page’s policy', async () => {
    const dir = builtClient();
    writeFileSync(join(dir, '.env'), 'SECRET=1');
    writeFileSync(join(dir, '.htpasswd'), 'admin:x');
    mkdirSync(join(dir, '.git'));
    writeFileSync(join(dir, '.git', 'config.txt'), '[core]');
    writeFileSync(join(dir, 'offline.html'), '<!doctype html><title>Offline</title>');
    const { app } = await webServer('sqlite', exampleModel('expense-claims.md'), { dir });
    for (const url of ['/.env', '/.htpasswd', '/.git/config.txt', '/assets/../.env']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.body, url).not.toMatch(/SECRET|admin|core/);
    }
    // an encoded dot names no file: the app's page, which routes it
    const encoded = await app.inject({ method: 'GET', url: '/%2eenv' });
    expect(encoded.body).not.toContain('SECRET');
    const other = await app.inject({ method: 'GET', url: '/offline.html' });
    expect(other.statusCode).toBe(200);
    expect(other.body).toContain('<title>Offline</title>');
    const page = await app.inject({ method: 'GET', url: '/' });
    for (const header of ['content-security-policy', 'x-frame-options', 'referrer-policy']) {
      expect(other.headers[header], header).toBe(page.headers[header]);
    }
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['content-security-policy']).not.toMatch(/script-src[^;]*unsafe-inline/);
  });

  it('describes the product as an installable app: manifest and icon', async () => {
    const { app } = await webServer('sqlite', exampleModel('expense-claims.md'), { dir: builtClient() });
    const manifest = await app.inject({ method: 'GET', url: '/manifest.webmanifest' });
    expect(manifest.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect(manifest.json()).toMatchObject({
      name: 'Expense claims',
      short_name: 'Expense',
      start_url: '/',
      display: 'standalone',
      theme_color: '#0b7285',
    });
    for (const icon of manifest.json().icons as { src: string; type: string }[]) {
      const response = await app.inject({ method: 'GET', url: icon.src });
      expect(response.statusCode, icon.src).toBe(200);
      expect(response.headers['content-type']).toContain(icon.type);
      if (icon.type === 'image/png') {
        // a real PNG of the declared size: signature, then IHDR's width and height
        const png = response.rawPayload;
        expect(png.subarray(1, 4).toString('ascii')).toBe('PNG');
        const size = Number(/^(\d+)x/.exec((icon as { sizes?: string }).sizes ?? '')?.[1]);
        expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([size, size]);
        expect([...png.subarray(png.length - 12, png.length - 8)]).toEqual([0, 0, 0, 0]); // IEND
        // of the product's theme colour, #0b7285, to its corners
        const { width, data } = PNG.sync.read(png);
        expect([...data.subarray(0, 4)]).toEqual([0x0b, 0x72, 0x85, 255]);
        expect([...data.subarray(data.length - 4)]).toEqual([0x0b, 0x72, 0x85, 255]);
        expect(width).toBe(size);
      }
    }
  });

  it('refuses to start when the folder holds no built client', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'ninefold-empty-'));
    const { app } = await webServer('sqlite', exampleModel('expense-claims.md'), { dir: empty });
    await expect(app.ready()).rejects.toThrow(/The client is not built/);
  });
});
