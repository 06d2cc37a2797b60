// Which hosts a web tool may reach (SPEC T: fetched pages are untrusted). Private addresses —
// loopback, link-local (cloud metadata at 169.254.169.254), RFC 1918, CGNAT, unique-local IPv6,
// unspecified — are refused unless the config allows them, whether they come as a literal, a DNS
// answer or a redirect: every hop and every resolved address is judged here.
import { isIP } from "node:net";

export interface AddressPolicy {
  /** `web.allow_private`: every address may be reached. */
  allowPrivate: boolean;
  /** `web.allow_hosts`: host names or `host:port` reachable even when private. */
  allowHosts: readonly string[];
}

export const DEFAULT_ADDRESS_POLICY: AddressPolicy = { allowPrivate: false, allowHosts: [] };

/** What kind of private address `ip` is, or undefined for a public one. */
export function privateKind(ip: string): string | undefined {
  const family = isIP(ip);
  if (family === 4) return privateV4(ip);
  if (family === 6) return privateV6(ip.toLowerCase());
  return undefined;
}

function privateV4(ip: string): string | undefined {
  const [a = 0, b = 0] = ip.split(".").map(Number);
  if (a === 127) return "loopback";
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return "private network";
  if (a === 169 && b === 254) return "link-local (cloud metadata)";
  if (a === 100 && b >= 64 && b <= 127) return "carrier-grade NAT";
  if (a === 0) return "unspecified";
  if (a >= 224) return "multicast or reserved";
  return undefined;
}

function privateV6(ip: string): string | undefined {
  if (ip === "::1") return "loopback";
  if (ip === "::") return "unspecified";
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(ip);
  if (mapped?.[1]) return privateV4(mapped[1]);
  if (/^fe[89ab]/.test(ip)) return "link-local";
  if (/^f[cd]/.test(ip)) return "unique local";
  if (ip.startsWith("fd00:ec2::254")) return "cloud metadata";
  if (/^ff/.test(ip)) return "multicast";
  return undefined;
}

/** True when the config names this host (with or without its port). */
export function hostAllowed(url: URL, policy: AddressPolicy): boolean {
  if (policy.allowPrivate) return true;
  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  return policy.allowHosts.some((h) => {
    const entry = h.toLowerCase();
    return entry === host || entry === `${host}:${port}` || entry === `[${host}]:${port}`;
  });
}

export class BlockedAddressError extends Error {
  constructor(
    readonly url: string,
    detail: string,
  ) {
    super(
      `refused ${url}: ${detail}; private addresses are not reached unless web.allow_private is true or the host is in web.allow_hosts`,
    );
    this.name = "BlockedAddressError";
  }
}

/** Throws when `address` (what `url`'s host resolved to) is private and the host is not allowed. */
export function checkAddress(url: URL, address: string, policy: AddressPolicy): void {
  if (hostAllowed(url, policy)) return;
  const kind = privateKind(address);
  if (!kind) return;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const detail = host === address ? `${address} is ${kind}` : `${host} resolves to ${address} (${kind})`;
  throw new BlockedAddressError(url.toString(), detail);
}
