/**
 * The `/docs` page: fetches `/openapi.json` and lists every operation with its parameters, request
 * body, responses and the error codes it can return. Plain HTML, its style and a few lines of
 * script, which its policy names by their hashes (no 'unsafe-inline'): a spec's text written into
 * the page can never run as script, and the page cannot be framed.
 */
import { createHash } from 'node:crypto';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const STYLE = `body { font: 15px/1.5 system-ui, sans-serif; margin: 0 auto; max-width: 60rem; padding: 1rem; color: #1b1b1b; }
h2 { margin-top: 2rem; border-bottom: 1px solid #ddd; }
details { border: 1px solid #ddd; border-radius: 6px; margin: .4rem 0; padding: .3rem .6rem; }
summary { cursor: pointer; }
.m { display: inline-block; min-width: 4.5rem; font-weight: 600; font-family: ui-monospace, monospace; }
.get { color: #0b7285; } .post { color: #2b8a3e; } .patch { color: #e67700; } .delete { color: #c92a2a; }
code, pre { font-family: ui-monospace, monospace; font-size: 13px; }
pre { background: #f6f8fa; padding: .5rem; overflow: auto; }
@media (prefers-color-scheme: dark) { body { background: #111; color: #eee; } pre { background: #222; } }
`;

const SCRIPT = `(async () => {
  const main = document.getElementById('ops');
  const el = (tag, text, cls) => { const e = document.createElement(tag); if (text) e.textContent = text; if (cls) e.className = cls; return e; };
  try {
    const doc = await (await fetch('/openapi.json')).json();
    const resolve = (s) => s && s.$ref ? doc.components.schemas[s.$ref.split('/').pop()] : s;
    const byTag = new Map();
    for (const [path, item] of Object.entries(doc.paths)) for (const [method, op] of Object.entries(item)) {
      const tag = (op.tags && op.tags[0]) || 'other';
      if (!byTag.has(tag)) byTag.set(tag, []);
      byTag.get(tag).push([method, path, op]);
    }
    main.textContent = '';
    for (const [tag, ops] of byTag) {
      main.append(el('h2', tag));
      for (const [method, path, op] of ops) {
        const d = el('details'); const s = el('summary');
        s.append(el('span', method.toUpperCase(), 'm ' + method), el('code', path), document.createTextNode(' — ' + (op.summary || '')));
        d.append(s);
        const params = (op.parameters || []).map((p) => p.$ref ? doc.components.parameters[p.$ref.split('/').pop()] : p);
        if (params.length) { d.append(el('h4', 'Parameters')); const ul = el('ul'); for (const p of params) ul.append(el('li', p.in + ' ' + p.name + (p.required ? ' (required)' : '') + (p.description ? ': ' + p.description : ''))); d.append(ul); }
        const body = op.requestBody && op.requestBody.content && op.requestBody.content['application/json'];
        if (body) { d.append(el('h4', 'Body')); d.append(el('pre', JSON.stringify(resolve(body.schema), null, 2))); }
        d.append(el('h4', 'Responses')); const ul = el('ul');
        for (const [status, r] of Object.entries(op.responses)) ul.append(el('li', status + ': ' + r.description));
        d.append(ul); main.append(d);
      }
    }
  } catch (e) { main.textContent = 'Could not load /openapi.json: ' + e; }
})();
`;

/** A CSP source naming an inline element's exact text. */
const hashOf = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/**
 * The page's Content-Security-Policy: its own style and script by hash, requests to this origin
 * only, no framing, no forms, no base URL.
 */
export const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `script-src ${hashOf(SCRIPT)}`,
  `style-src ${hashOf(STYLE)}`,
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/**
 * @example reply.type('text/html').header('content-security-policy', DOCS_CONTENT_SECURITY_POLICY).send(docsPage('Expense claims'));
 */
export function docsPage(title: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} — API</title>
<style>${STYLE}</style>
</head>
<body>
<h1>${escapeHtml(title)} — API</h1>
<p>Generated from the spec. The machine-readable description is <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1).</p>
<main id="ops">Loading…</main>
<script>${SCRIPT}</script>
</body>
</html>
`;
}
