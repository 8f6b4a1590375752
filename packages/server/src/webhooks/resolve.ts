/**
 * A spec's webhooks made ready to send: their `${NAME}` URL and secret read from the environment,
 * once, when the server (or worker) that delivers them is built. A deployment mistake — a variable
 * unset, a URL that is not http(s), a secret not written `whsec_<base64>` as the Standard Webhooks
 * specification writes it — stops the start with a message naming the webhook, rather than
 * failing every delivery later.
 */
import { type Model, resolveEnvText } from '@ninefold/model';

/** The environment variable that lets webhooks reach loopback and private addresses (tests, a LAN). */
export const ALLOW_PRIVATE_VARIABLE = 'NINEFOLD_WEBHOOKS_ALLOW_PRIVATE';

/** The environment, as `process.env` is. */
export type Env = Readonly<Record<string, string | undefined>>;

/** A webhook ready to send. */
export interface ResolvedWebhook {
  readonly name: string;
  readonly url: URL;
  /** The secret as written, `whsec_<base64>`. */
  readonly secret: string;
}

/** The webhooks of a spec, ready to send, and whether private addresses may be reached. */
export interface ResolvedWebhooks {
  readonly byName: ReadonlyMap<string, ResolvedWebhook>;
  readonly allowPrivate: boolean;
}

/** A webhook that cannot be sent as the environment sets it; the message says which and why. */
export class WebhookConfigError extends Error {
  override readonly name = 'WebhookConfigError';
  constructor(
    readonly webhook: string,
    reason: string,
  ) {
    super(`Webhook "${webhook}": ${reason}`);
  }
}

/** `whsec_` then standard base64 of at least one byte. */
const SECRET = /^whsec_(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$/;

/**
 * Reads every webhook's URL and secret from `env`; throws a {@link WebhookConfigError} for the first
 * that cannot be sent.
 *
 * @example resolveWebhooks(model, { HOOK_URL: 'https://hooks.example/in', HOOK_SECRET: 'whsec_c2VjcmV0' })
 */
export function resolveWebhooks(model: Model, env: Env): ResolvedWebhooks {
  const byName = new Map<string, ResolvedWebhook>();
  for (const webhook of Object.values(model.webhooks)) {
    const url = resolveEnvText(webhook.url, env);
    if (!url.ok) throw new WebhookConfigError(webhook.name, unsetMessage('url', url.missing));
    const secret = resolveEnvText(webhook.secret, env);
    if (!secret.ok) throw new WebhookConfigError(webhook.name, unsetMessage('secret', secret.missing));
    let parsed: URL;
    try {
      parsed = new URL(url.text);
    } catch {
      throw new WebhookConfigError(webhook.name, `its url "${url.text}" is not a URL.`);
    }
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
      throw new WebhookConfigError(
        webhook.name,
        `its url must start with https:// or http://, not ${parsed.protocol}//.`,
      );
    if (parsed.username !== '' || parsed.password !== '')
      throw new WebhookConfigError(webhook.name, 'its url must not hold a user name or password.');
    if (!SECRET.test(secret.text))
      throw new WebhookConfigError(
        webhook.name,
        'its secret must be written whsec_ followed by base64, as the Standard Webhooks specification writes it (for example whsec_ and 32 random bytes in base64).',
      );
    byName.set(webhook.name, { name: webhook.name, url: parsed, secret: secret.text });
  }
  return { byName, allowPrivate: env[ALLOW_PRIVATE_VARIABLE] === '1' };
}

function unsetMessage(what: string, missing: readonly string[]): string {
  const names = missing.map((name) => `\${${name}}`).join(', ');
  return `its ${what} reads ${names}, which ${missing.length === 1 ? 'is' : 'are'} not set in the environment.`;
}
