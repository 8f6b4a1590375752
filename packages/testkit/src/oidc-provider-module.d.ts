/**
 * The little of `oidc-provider` (9.x, which ships no types) that the test provider uses.
 */
declare module 'oidc-provider' {
  import { type IncomingMessage, type ServerResponse } from 'node:http';

  /** An account as `findAccount` answers it. */
  export interface ProviderAccount {
    readonly accountId: string;
    claims(use: string, scope: string): Promise<Record<string, unknown>>;
  }

  /** A grant of scopes to a client, which `loadExistingGrant` may make on the spot. */
  export interface ProviderGrant {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }

  /** The request context the provider hands to its hooks, as far as they read it. */
  export interface ProviderContext {
    readonly oidc: {
      readonly client?: { readonly clientId: string };
      readonly session?: { readonly accountId?: string; grantIdFor(clientId: string): string | undefined };
      readonly result?: { readonly consent?: { readonly grantId?: string } };
    };
  }

  export default class Provider {
    constructor(issuer: string, configuration?: Record<string, unknown>);
    proxy: boolean;
    readonly Grant: {
      new (properties: { clientId: string; accountId: string }): ProviderGrant;
      find(id: string): Promise<ProviderGrant | undefined>;
    };
    callback(): (request: IncomingMessage, response: ServerResponse) => void;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }
}
