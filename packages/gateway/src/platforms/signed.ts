// Signed HTTP callbacks (SPEC G1): GitHub's and Meta's X-Hub-Signature-256 (an HMAC-SHA256 of
// the raw body) and shared-secret headers, compared in constant time. Used by every platform
// whose events arrive as webhooks.
import { createHash, createHmac, timingSafeEqual } from "node:crypto";

const same = (a: Buffer, b: Buffer) => a.length === b.length && timingSafeEqual(a, b);

/** `sha256=<hex HMAC-SHA256 of the raw body>` with the route's secret. */
export function signatureValid(secret: string, body: Buffer, header: string | undefined): boolean {
  if (!header?.startsWith("sha256=")) return false;
  const want = createHmac("sha256", secret).update(body).digest();
  const got = Buffer.from(header.slice("sha256=".length).trim(), "hex");
  return same(want, got);
}

/** The header holds the secret itself (hashed first, so the comparison's length says nothing). */
export function tokenValid(secret: string, header: string | undefined): boolean {
  if (header === undefined) return false;
  const h = (s: string) => createHash("sha256").update(s).digest();
  return same(h(secret), h(header));
}
