/**
 * The environment a spec reads: a webhook's `url` and `secret` are `${NAME}` references, resolved
 * where the server runs. `ninefold check` cannot know that environment; `ninefold start` and
 * `ninefold worker` do, so they refuse to start while a variable is unset, naming every one and the
 * webhook that reads it, rather than fail on the first delivery hours later. `--demo` instead turns
 * such a webhook off for that run (decision 0030): a demo on a fresh machine has nowhere to post to.
 */
import { type Model, resolveEnvText } from '@ninefold/model';

export type Environment = Readonly<Record<string, string | undefined>>;

/** A variable that is unset or empty, and what reads it: `webhook \`accounting\` (url)`. */
export interface UnsetVariable {
  readonly name: string;
  readonly readers: readonly string[];
  /** The webhooks that read it. */
  readonly webhooks: readonly string[];
}

/**
 * Every `${NAME}` of the model's webhooks that `env` leaves unset or empty, in the order the spec
 * reads them.
 *
 * @example unsetVariables(model, {}) // [{ name: 'ACCOUNTING_WEBHOOK_URL', readers: ['webhook `accounting` (url)'], webhooks: ['accounting'] }, …]
 */
export function unsetVariables(model: Model, env: Environment): UnsetVariable[] {
  const byName = new Map<string, { readers: string[]; webhooks: string[] }>();
  for (const webhook of Object.values(model.webhooks)) {
    for (const key of ['url', 'secret'] as const) {
      const resolved = resolveEnvText(webhook[key], env);
      if (resolved.ok) continue;
      for (const name of resolved.missing) {
        const entry = byName.get(name) ?? { readers: [], webhooks: [] };
        entry.readers.push(`webhook \`${webhook.name}\` (${key})`);
        if (!entry.webhooks.includes(webhook.name)) entry.webhooks.push(webhook.name);
        byName.set(name, entry);
      }
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
 * The model without the webhooks that read an unset variable, and the names of those left out.
 *
 * @example withoutUnsetWebhooks(model, {}) // { model: { …, webhooks: {} }, off: ['accounting'] }
 */
export function withoutUnsetWebhooks(model: Model, env: Environment): { model: Model; off: string[] } {
  const off = [...new Set(unsetVariables(model, env).flatMap((v) => v.webhooks))];
  if (off.length === 0) return { model, off };
  const webhooks = Object.fromEntries(Object.entries(model.webhooks).filter(([name]) => !off.includes(name)));
  return { model: { ...model, webhooks }, off };
}
