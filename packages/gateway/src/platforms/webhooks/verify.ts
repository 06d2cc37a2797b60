// What a webhook request must pass before anything runs (SPEC G1): its signature (GitHub's
// X-Hub-Signature-256, or a shared-secret header; see ../signed.ts); and the prompt template
// filled from its JSON body.
export { signatureValid, tokenValid } from "../signed.js";

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
