// HTTPS_PROXY / HTTP_PROXY / NO_PROXY (and their lower-case forms), as every other CLI in this
// field honours them: `proxy-from-env` decides whether a URL goes through a proxy, the
// proxy-agents (CONNECT tunnel for https targets, absolute-URI requests for http ones) carry it.
// Key scoping (SPEC P3) is unchanged: headers are built for the target URL, and through a CONNECT
// tunnel the proxy sees only the target's host and port, never the key.
import type { Agent } from "node:http";
import { getProxyForUrl } from "proxy-from-env";

const agents = new Map<string, Agent>();

/** True when any proxy variable is set (the agents are loaded only then). */
function proxyConfigured(env: NodeJS.ProcessEnv): boolean {
  return ["HTTPS_PROXY", "HTTP_PROXY", "ALL_PROXY", "https_proxy", "http_proxy", "all_proxy"].some(
    (k) => (env[k] ?? "") !== "",
  );
}

/** The agent that reaches `url` through the configured proxy, or undefined to connect directly. */
export async function proxyAgentFor(
  url: URL,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Agent | undefined> {
  if (!proxyConfigured(env)) return undefined;
  const proxy = getProxyForUrl(url.toString());
  if (!proxy) return undefined; // NO_PROXY matched, or no proxy for this scheme
  const key = `${url.protocol}${proxy}`;
  const cached = agents.get(key);
  if (cached) return cached;
  const agent =
    url.protocol === "https:"
      ? new (await import("https-proxy-agent")).HttpsProxyAgent(proxy, { keepAlive: true })
      : new (await import("http-proxy-agent")).HttpProxyAgent(proxy, { keepAlive: true });
  agents.set(key, agent);
  return agent;
}
