/**
 * Who may hold personal API tokens, and with which roles: the roles of `auth.tokens` the user
 * holds (decision 0035). The server decides; the app shows the tokens page by the same rule.
 */
import { type Model } from '@ninefold/model';

/**
 * The user's roles a token may act with.
 *
 * @example tokenRoles(model, ['agent', 'integration']) // ['integration'] when auth.tokens is [integration]
 */
export function tokenRoles(model: Model, roles: readonly string[]): string[] {
  return roles.filter((role) => model.auth.tokens.includes(role));
}

/** Whether the user may hold API tokens at all. */
export function mayHoldTokens(model: Model, roles: readonly string[]): boolean {
  return tokenRoles(model, roles).length > 0;
}
