// API keys of `iris serve` (SPEC E3): config.yaml holds only their SHA-256 or the name of a .env
// variable holding the key. A request proves a key with `Authorization: Bearer …`; the key is
// compared by hash in constant time and never logged.
import { createHash, timingSafeEqual } from "node:crypto";
import type { IrisConfig } from "@iris/host";

export interface ApiKey {
  /** The key holder's name from config: what limits, idempotency and sessions are scoped to. */
  name: string;
  sha256: Buffer;
}

export function hashKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

export type KeysResult = { ok: true; keys: ApiKey[] } | { ok: false; error: string };

export function resolveApiKeys(
  config: IrisConfig["serve"],
  env: Record<string, string | undefined>,
): KeysResult {
  const keys: ApiKey[] = [];
  const names = new Set<string>();
  for (const [i, k] of config.api_keys.entries()) {
    if (names.has(k.name)) return { ok: false, error: `serve.api_keys[${i}].name: ${k.name} is given twice` };
    names.add(k.name);
    let hex = k.sha256;
    if (k.env !== undefined) {
      const value = env[k.env];
      if (!value)
        return {
          ok: false,
          error: `serve.api_keys[${i}].env: ${k.env} is not set (in .env or the environment)`,
        };
      hex = hashKey(value);
    }
    keys.push({ name: k.name, sha256: Buffer.from(hex ?? "", "hex") });
  }
  return { ok: true, keys };
}

/**
 * Whom stored state (Responses conversations, Idempotency-Key answers) belongs to: the key's name
 * and hash, so a new key given an old name after a restart does not inherit the old key's state.
 */
export function ownerOf(key: ApiKey): string {
  return `${key.name}:${key.sha256.toString("hex")}`;
}

/** The key a Bearer header proves, or undefined. */
export function authenticate(header: string | undefined, keys: readonly ApiKey[]): ApiKey | undefined {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  if (!m?.[1]) return undefined;
  const given = createHash("sha256").update(m[1], "utf8").digest();
  let found: ApiKey | undefined;
  // Every key is compared, so the time taken does not tell which one came close.
  for (const k of keys) if (timingSafeEqual(given, k.sha256) && !found) found = k;
  return found;
}

export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "localhost" || h === "::1" || /^127\.\d+\.\d+\.\d+$/.test(h) || h === "::ffff:127.0.0.1";
}
