// Which upstream proxy a URL goes through, read from the profile's environment (SPEC T: .env wins
// over the shell), with the rules curl and proxy-from-env follow: `<scheme>_proxy` then
// `all_proxy` (lower case first), a proxy without a scheme takes the target's, and NO_PROXY
// (`*`, `host`, `.suffix`/`*.suffix`, `host:port`) sends the request direct. proxy-from-env reads
// only process.env, which is not the profile's environment.
import type { Agent } from "node:http";

export type EnvLookup = (name: string) => string | undefined;

const DEFAULT_PORTS: Record<string, number> = { "http:": 80, "https:": 443 };

function read(env: EnvLookup, name: string): string {
  return env(name.toLowerCase()) || env(name.toUpperCase()) || "";
}

function bypassed(url: URL, env: EnvLookup): boolean {
  const noProxy = read(env, "no_proxy").toLowerCase();
  if (!noProxy) return false;
  if (noProxy.trim() === "*") return true;
  const host = url.hostname.toLowerCase().replace(/^\[|\]$/g, "");
  const port = Number(url.port) || DEFAULT_PORTS[url.protocol] || 0;
  return noProxy.split(/[,\s]+/).some((entry) => {
    if (!entry) return false;
    const m = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(entry); // a bare IPv6 address has no port
    let name = (m ? m[1] : entry) ?? "";
    if (m && Number(m[2]) !== port) return false;
    name = name.replace(/^\[|\]$/g, "");
    if (!/^[.*]/.test(name)) return host === name;
    name = name.replace(/^\*/, "");
    return host.endsWith(name) || host === name.replace(/^\./, "");
  });
}

/** The proxy for `url`, or undefined to connect directly. */
export function proxyFor(url: URL, env: EnvLookup): URL | undefined {
  if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
  if (bypassed(url, env)) return undefined;
  let proxy = read(env, `${url.protocol.slice(0, -1)}_proxy`) || read(env, "all_proxy");
  if (!proxy) return undefined;
  if (!proxy.includes("://")) proxy = `${url.protocol}//${proxy}`;
  try {
    return new URL(proxy);
  } catch {
    throw new Error(`the proxy for ${url.protocol.slice(0, -1)} is not a URL (check HTTPS_PROXY/HTTP_PROXY)`);
  }
}

/** `Proxy-Authorization` for a proxy URL with credentials in it. */
export function proxyAuthorization(proxy: URL): string | undefined {
  if (!proxy.username && !proxy.password) return undefined;
  const user = decodeURIComponent(proxy.username);
  const pass = decodeURIComponent(proxy.password);
  return `Basic ${Buffer.from(`${user}:${pass}`).toString("base64")}`;
}

const agents = new Map<string, Agent>();

/** A kept-alive agent that reaches `url` through `proxy` (CONNECT for https, absolute URIs for http). */
export async function proxyAgent(url: URL, proxy: URL): Promise<Agent> {
  const key = `${url.protocol}${proxy.href}`;
  const cached = agents.get(key);
  if (cached) return cached;
  const agent =
    url.protocol === "https:"
      ? new (await import("https-proxy-agent")).HttpsProxyAgent(proxy, { keepAlive: true })
      : new (await import("http-proxy-agent")).HttpProxyAgent(proxy, { keepAlive: true });
  agents.set(key, agent);
  return agent;
}
