// What a webhook request must pass before anything runs (SPEC G1): its signature (GitHub's
// X-Hub-Signature-256, or a shared-secret header), compared in constant time; and the prompt
// template filled from its JSON body.
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

/** The value at a dotted path ("pull_request.title", "commits.0.id"), or undefined. */
function at(body: unknown, path: string): unknown {
  let v: unknown = body;
  for (const k of path.split(".")) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<string, unknown>)[k];
  }
  return v;
}

/** `{{a.b}}` → the body's field (objects as JSON), `{{body}}` → the whole body; a missing one is named. */
export function renderPrompt(template: string, body: unknown): string {
  return template.replace(/\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}/g, (_, path: string) => {
    const v = path === "body" ? body : at(body, path);
    if (v === undefined) return `(no ${path})`;
    return typeof v === "string" ? v : JSON.stringify(v, null, 2);
  });
}
