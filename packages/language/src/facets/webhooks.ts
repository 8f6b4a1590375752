/**
 * Section 7's `webhooks:`: where changes are posted. A webhook's URL and secret differ per
 * deployment and the secret must never be readable by whoever reads the spec, so both are written
 * as `${NAME}` references to the environment; the server resolves them at start. The compiler keeps
 * the text as written and refuses a secret written in clear.
 */
import { envReferences, type Webhook } from '@ninefold/model';
import { type YEntry } from '../source/yaml.js';
import { type CompileContext } from './context.js';
import { readEvents } from './events.js';
import { checkName } from './reader.js';

export const WEBHOOK_KEYS = ['on', 'url', 'secret'] as const;

/** The whole text is one `${NAME}`: how a secret is written (`auth.oidc.clientSecret` too). */
export const ONE_REFERENCE = /^\$\{[A-Za-z_][A-Za-z0-9_]*\}$/;

/**
 * Reads every webhook; one with a problem is reported and left out.
 *
 * @example readWebhooks(ctx, dict('webhooks')) // { accounting: { name, on, url: '${ACCOUNTING_URL}', secret: '${ACCOUNTING_SECRET}' } }
 */
export function readWebhooks(ctx: CompileContext, entries: readonly YEntry[]): Record<string, Webhook> {
  const out: Record<string, Webhook> = {};
  for (const entry of entries) {
    if (!checkName(ctx.bag, 'webhook', entry)) continue;
    const webhook = readWebhook(ctx, entry);
    if (webhook !== null) out[entry.key] = webhook;
  }
  return out;
}

function readWebhook(ctx: CompileContext, entry: YEntry): Webhook | null {
  const { reader, bag } = ctx;
  const where = `webhook \`${entry.key}\``;
  const m = reader.map(entry.value, where, WEBHOOK_KEYS);
  if (m === null) return null;
  const onEntry = m.get('on');
  const urlEntry = m.get('url');
  const secretEntry = m.get('secret');
  if (onEntry === undefined) reader.missing(entry.keySpan, 'on', where, 'on: [Claim.pay]');
  if (urlEntry === undefined) reader.missing(entry.keySpan, 'url', where, 'url: ${ACCOUNTING_WEBHOOK_URL}');
  if (secretEntry === undefined)
    reader.missing(entry.keySpan, 'secret', where, 'secret: ${ACCOUNTING_WEBHOOK_SECRET}');
  const events = onEntry === undefined ? [] : readEvents(ctx, onEntry, where);

  let url = urlEntry === undefined ? null : reader.string(urlEntry.value, `\`url\` of ${where}`);
  if (url !== null && !isWebhookUrl(url)) {
    bag.report(
      'NF215',
      urlEntry!.value.span,
      `\`url\` of ${where} must be an http(s) URL or a \`\${NAME}\` reference, found \`${url}\`.`,
      'write `url: ${NAME}` and set NAME in the environment, or `https://hooks.example.com/path`',
    );
    url = null;
  }
  let secret = secretEntry === undefined ? null : reader.string(secretEntry.value, `\`secret\` of ${where}`);
  if (secret !== null && !ONE_REFERENCE.test(secret)) {
    bag.report(
      'NF216',
      secretEntry!.value.span,
      `The secret of ${where} is written in the spec; a secret must come from the environment.`,
      `write \`secret: \${${envName(entry.key)}}\` and set ${envName(entry.key)} where the server runs`,
    );
    secret = null;
  }
  if (events.length === 0 || url === null || secret === null) return null;
  return { name: entry.key, on: events.map((e) => e.event), url, secret };
}

/**
 * Whether a webhook's URL is one `${NAME}`, or an http(s) URL once its `${NAME}` parts are read.
 *
 * @example isWebhookUrl('https://${HOST}/hooks') // true
 */
export function isWebhookUrl(text: string): boolean {
  if (ONE_REFERENCE.test(text)) return true;
  let filled = text;
  for (const name of envReferences(text)) filled = filled.split(`\${${name}}`).join('x');
  if (filled.includes('${') || /\s/.test(filled)) return false;
  try {
    const url = new URL(filled);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** A variable name a hint can suggest for a webhook's secret: `accounting` → `ACCOUNTING_WEBHOOK_SECRET`. */
function envName(webhook: string): string {
  return `${webhook.toUpperCase().replace(/-/g, '_')}_WEBHOOK_SECRET`;
}
