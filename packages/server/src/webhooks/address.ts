/**
 * Where a webhook may connect: a spec's URL comes from the environment, but a URL that resolves to
 * the server's own machine or network (loopback, private, link-local, unique-local, carrier-grade
 * NAT, unspecified, or any other range that is not public unicast) would let a spec reach what only
 * the server can — server-side request forgery. Such an address is refused unless the operator
 * allows private addresses (`NINEFOLD_WEBHOOKS_ALLOW_PRIVATE=1`).
 *
 * The host is resolved once, here, and the connection is made to the address checked (not resolved
 * again), so a name cannot resolve to a public address for the check and a private one for the
 * connection (DNS rebinding).
 */
import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

/** An address to connect to. */
export interface CheckedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** The address a URL may be sent to, or why not. */
export type AddressCheck =
  { readonly ok: true; readonly address: CheckedAddress } | { readonly ok: false; readonly reason: string };

/**
 * Resolves a URL's host and checks every address it has; the first is the one to connect to.
 *
 * @example await checkAddress(new URL('https://hooks.example/in'), false) // { ok: true, address: { address: '93.184.215.14', family: 4 } }
 */
export async function checkAddress(url: URL, allowPrivate: boolean): Promise<AddressCheck> {
  // URL keeps an IPv6 literal in brackets
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: { address: string; family: number }[];
  try {
    addresses = ipaddr.isValid(host)
      ? [{ address: host, family: ipaddr.parse(host).kind() === 'ipv6' ? 6 : 4 }]
      : await lookup(host, { all: true, verbatim: true });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return { ok: false, reason: `The host ${host} could not be resolved (${String(code ?? error)}).` };
  }
  const first = addresses[0];
  if (first === undefined) return { ok: false, reason: `The host ${host} has no address.` };
  if (!allowPrivate) {
    for (const { address } of addresses) {
      const range = addressRange(address);
      if (range !== 'unicast')
        return {
          ok: false,
          reason: `Refused: ${host} resolves to ${address}, a ${range} address; webhooks reach only public addresses unless NINEFOLD_WEBHOOKS_ALLOW_PRIVATE=1 is set.`,
        };
    }
  }
  return { ok: true, address: { address: first.address, family: first.family === 6 ? 6 : 4 } };
}

/**
 * The range of an address as ipaddr.js names it; `unicast` is a public one. An IPv4 address written
 * as IPv6 (`::ffff:127.0.0.1`) is judged as the IPv4 address it is.
 *
 * @example addressRange('10.1.2.3') // 'private'
 */
export function addressRange(address: string): string {
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
    return (parsed as ipaddr.IPv6).toIPv4Address().range();
  return parsed.range();
}
