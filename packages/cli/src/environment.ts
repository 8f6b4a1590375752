/**
 * The environment a spec reads: a webhook's `url` and `secret`, and single sign-on's `issuer`,
 * `clientId` and `clientSecret` (`auth.oidc`), are `${NAME}` references, resolved where the server
 * runs. `ninefold check` cannot know that environment; `ninefold start` and `ninefold worker` do, so
 * they refuse to start while a variable is unset, naming every one and what reads it, rather than
 * fail on the first delivery or sign-in hours later. `--demo` instead turns such a webhook, or single
 * sign-on, off for that run (decisions 0030, 0036): a demo on a fresh machine has nowhere to post to
 * and no provider to sign in with.
 *
 * It also holds the mail settings `ninefold start` refuses (decision 0036): identity's mails carry
 * sign-in links, which must point at the product's public address, never at a request's Host.
 */
import { type Model, resolveEnvText } from '@ninefold/model';

export type Environment = Readonly<Record<string, string | undefined>>;

/** A variable that is unset or empty, and what reads it: `webhook \`accounting\` (url)`. */
export interface UnsetVariable {
  readonly name: string;
  readonly readers: readonly string[];
  /** The webhooks that read it. */
  readonly webhooks: readonly string[];
  /** Whether single sign-on (`auth.oidc`) reads it. */
  readonly singleSignOn: boolean;
}

/** How a message names single sign-on: the words and the spec's key. */
const SINGLE_SIGN_ON = 'single sign-on (auth.oidc)';

/**
 * Every `${NAME}` of the model's webhooks and single sign-on that `env` leaves unset or empty, in
 * the order the spec reads them (webhooks first).
 *
 * @example unsetVariables(model, {}) // [{ name: 'ACCOUNTING_WEBHOOK_URL', readers: ['webhook `accounting` (url)'], webhooks: ['accounting'], singleSignOn: false }, …]
 */
export function unsetVariables(model: Model, env: Environment): UnsetVariable[] {
  const byName = new Map<string, { readers: string[]; webhooks: string[]; singleSignOn: boolean }>();
  const unset = (text: string, reader: string): string[] => {
    const resolved = resolveEnvText(text, env);
    if (resolved.ok) return [];
    for (const name of resolved.missing) {
      const entry = byName.get(name) ?? { readers: [], webhooks: [], singleSignOn: false };
      entry.readers.push(reader);
      byName.set(name, entry);
    }
    return [...resolved.missing];
  };
  for (const webhook of Object.values(model.webhooks)) {
    for (const key of ['url', 'secret'] as const) {
      for (const name of unset(webhook[key], `webhook \`${webhook.name}\` (${key})`)) {
        const entry = byName.get(name)!;
        if (!entry.webhooks.includes(webhook.name)) entry.webhooks.push(webhook.name);
      }
    }
  }
  const oidc = model.auth.oidc;
  if (oidc !== null) {
    for (const key of ['issuer', 'clientId', 'clientSecret'] as const) {
      for (const name of unset(oidc[key], `${SINGLE_SIGN_ON} as \`${key}\``))
        byName.get(name)!.singleSignOn = true;
    }
  }
  return [...byName].map(([name, entry]) => ({ name, ...entry }));
}

/**
 * Why the server will not start, for a person: one line per unset variable.
 *
 * @example describeUnset(unsetVariables(model, {}))
 * // 'The spec reads environment variables that are not set:\n  ACCOUNTING_WEBHOOK_URL, read by webhook `accounting` (url)\n…'
 */
export function describeUnset(unset: readonly UnsetVariable[]): string {
  const lines = unset.map((v) => `  ${v.name}, read by ${v.readers.join(' and ')}`);
  return [
    'The spec reads environment variables that are not set:',
    ...lines,
    'Set them where the server runs (an empty value counts as unset), then start again.',
  ].join('\n');
}

/**
 * The model without what reads an unset variable — those webhooks, and single sign-on — with one
 * line per thing turned off, for `--demo` to print.
 *
 * @example withoutUnsetReaders(model, {}).said // ['Demo: webhook `accounting` is off, as ACCOUNTING_WEBHOOK_URL is not set.']
 */
export function withoutUnsetReaders(model: Model, env: Environment): { model: Model; said: string[] } {
  const unset = unsetVariables(model, env);
  const said: string[] = [];
  let out = model;
  const off = [...new Set(unset.flatMap((v) => v.webhooks))];
  if (off.length > 0) {
    const webhooks = Object.fromEntries(
      Object.entries(model.webhooks).filter(([name]) => !off.includes(name)),
    );
    out = { ...out, webhooks };
    const names = unset.filter((v) => v.webhooks.length > 0).map((v) => v.name);
    said.push(
      `Demo: ${off.length === 1 ? 'webhook' : 'webhooks'} ${off.map((n) => `\`${n}\``).join(', ')} ${off.length === 1 ? 'is' : 'are'} off, as ${names.join(', ')} ${names.length === 1 ? 'is' : 'are'} not set.`,
    );
  }
  const signOn = unset.filter((v) => v.singleSignOn).map((v) => v.name);
  if (signOn.length > 0) {
    out = { ...out, auth: { ...out.auth, oidc: null } };
    said.push(
      `Demo: ${SINGLE_SIGN_ON} is off, as ${signOn.join(', ')} ${signOn.length === 1 ? 'is' : 'are'} not set.`,
    );
  }
  return { model: out, said };
}

/**
 * Why the server will not start with these mail settings, or null. Mail sent by SMTP carries
 * sign-in links (an invitation, a sign-up's verification, a password reset); without
 * `NINEFOLD_PUBLIC_URL` the only address they could point at is the Host header of the request
 * that caused them, which whoever sends the request chooses.
 *
 * @example mailLinksProblem({ SMTP_URL: 'smtp://mail.example.com' }) // 'SMTP_URL is set, but NINEFOLD_PUBLIC_URL is not: …'
 */
export function mailLinksProblem(env: Environment): string | null {
  const set = (name: string) => (env[name] ?? '').trim() !== '';
  if (!set('SMTP_URL') || set('NINEFOLD_PUBLIC_URL')) return null;
  return [
    'SMTP_URL is set, but NINEFOLD_PUBLIC_URL is not: the mails sent (invitations, sign-up and password',
    'reset links) must link to the product at its public address, never at the address a request names.',
    'Set NINEFOLD_PUBLIC_URL to it, like https://help.example.com, then start again.',
  ].join('\n');
}
