// What an endpoint serves, from its own `GET {base_url}/models` (OpenAI's list shape, which
// local servers and Anthropic share): for custom and local providers the catalogue knows nothing.
// Asked through the proxy settings the model calls honour.

import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { type Profile, resolveMainRoute } from "@iris/host";
import { getProvider, proxyAgentFor, type Runtime } from "@iris/llm";

/** The ids of an OpenAI-style model list, or undefined when the body is not one. */
function modelIds(body: unknown): string[] | undefined {
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) return undefined;
  const ids = data.map((m) => (m as { id?: unknown } | null)?.id);
  return ids.every((id): id is string => typeof id === "string" && id !== "") ? ids : undefined;
}

export type ServerModels = { ok: true; models: string[] } | { ok: false; error: string };

/** Whether a provider's models come from its server rather than the catalogue. */
export function listsFromServer(providerId: string, profile: Profile): boolean {
  const def = getProvider(providerId);
  return !def || def.local === true || !def.baseUrl || !!profile.config.providers[providerId]?.base_url;
}

type Endpoint = Pick<Runtime, "baseUrl" | "apiKey" | "headers" | "compat">;

/** The endpoint of a provider as config, .env and the route flags give it (the key with it). */
export function endpointOf(
  profile: Profile,
  route: { provider: string; baseUrl?: string; apiMode?: Runtime["apiMode"] },
): { ok: true; endpoint: Endpoint } | { ok: false; error: string } {
  // The model does not matter for the route to /models; a placeholder stops "no model chosen".
  const r = resolveMainRoute({ model: "-", ...route }, profile.config, profile.env);
  return r.ok ? { ok: true, endpoint: r.runtime } : r;
}

export async function fetchServerModels(endpoint: Endpoint, timeoutMs = 5000): Promise<ServerModels> {
  const url = `${endpoint.baseUrl}/models`;
  const headers: Record<string, string> = { accept: "application/json", ...endpoint.headers };
  if (endpoint.apiKey) {
    if (endpoint.compat.auth === "x-api-key") {
      headers["x-api-key"] = endpoint.apiKey;
      headers["anthropic-version"] ??= "2023-06-01";
    } else headers.authorization = `Bearer ${endpoint.apiKey}`;
  }
  const hide = (s: string) => (endpoint.apiKey ? s.split(endpoint.apiKey).join("***") : s);
  let res: { status: number; text: string };
  try {
    res = await get(new URL(url), headers, timeoutMs);
  } catch (err) {
    const why = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    return { ok: false, error: `GET ${url} failed: ${hide(String(why))}` };
  }
  const { text } = res;
  if (res.status < 200 || res.status > 299) {
    let message = text.slice(0, 300);
    try {
      const body = JSON.parse(text) as { error?: { message?: string } | string; message?: string };
      message =
        (typeof body.error === "string" ? body.error : body.error?.message) ?? body.message ?? message;
    } catch {
      // not JSON: the start of the text says enough
    }
    return { ok: false, error: `GET ${url} answered HTTP ${res.status}: ${hide(message)}` };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, error: `GET ${url} answered something that is not JSON` };
  }
  const ids = modelIds(parsed);
  if (!ids) return { ok: false, error: `GET ${url} answered no model list (no data[].id)` };
  return { ok: true, models: ids };
}

/** One GET through HTTPS_PROXY/HTTP_PROXY/NO_PROXY as the model calls go (llm's proxy agents). */
async function get(url: URL, headers: Record<string, string>, timeoutMs: number) {
  const agent = await proxyAgentFor(url);
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = send(url, { headers, ...(agent ? { agent } : {}), timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }),
      );
      res.on("error", reject);
    });
    req.on("timeout", () => req.destroy(Object.assign(new Error("timed out"), { code: "ETIMEDOUT" })));
    req.on("error", reject);
    req.end();
  });
}
