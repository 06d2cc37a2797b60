// Signed reasoning (encrypted_content, thinking signatures) verifies only at the endpoint that
// issued it: another account or deployment of the same provider rejects it with a 400 (SPEC H4).
// Each provider item is tagged with where it came from, so shaping can tell.
import type { Runtime } from "../runtime.js";
import type { AssistantMessage } from "../types.js";

/** The issuing endpoint of a route: its base URL without trailing slashes (never the key). */
export function issuerOf(route: { baseUrl: string }): string {
  return route.baseUrl.replace(/\/+$/, "");
}

export function stampIssuer(message: AssistantMessage, runtime: Runtime): AssistantMessage {
  if (!message.parts.some((p) => p.type === "reasoning" && p.raw !== undefined)) return message;
  const issuer = issuerOf(runtime);
  return {
    ...message,
    parts: message.parts.map((p) => (p.type === "reasoning" && p.raw !== undefined ? { ...p, issuer } : p)),
  };
}
