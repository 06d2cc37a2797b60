// The input of `iris batch` (SPEC E4): one JSON object per line. `prompt` is required; `id`,
// `system`, `cwd`, `toolsets` and `model` steer the item; every other field is metadata, copied
// to the output. A line that is not such an object is reported with its line number and skipped.
//
// Each item has a key that resume relies on: the given `id`, else a hash of the line plus the
// occurrence number of that same line, so two identical lines are two items (Hermes lost
// duplicates to a set), and the key never depends on the line's position (Hermes's index-based
// filter skipped re-indexed rows) nor on the prompt alone (Hermes resumed by prompt text).
import { createHash } from "node:crypto";
import { jsonTooDeep } from "@iris/llm";
import { z } from "zod";

export interface BatchItem {
  key: string;
  /** 1-based line number in the input file. */
  line: number;
  id?: string;
  prompt: string;
  /** Ephemeral: sent to the model, never written to the output. */
  system?: string;
  cwd?: string;
  toolsets?: string[];
  model?: string;
  metadata: Record<string, unknown>;
}

export interface MalformedLine {
  key: string;
  line: number;
  error: string;
  /** The start of the line, for the failure file. */
  text: string;
}

export interface ParsedInput {
  items: BatchItem[];
  malformed: MalformedLine[];
  /** Every key of the file (also past --max-items), to tell a changed input from a grown one. */
  allKeys: Set<string>;
  /** sha256 of the file's bytes. */
  sha256: string;
  lines: number;
}

const OWN_FIELDS = new Set(["id", "prompt", "system", "cwd", "toolsets", "model"]);

const toolsetsField = z.union([
  z.array(z.string().min(1)).min(1),
  z
    .string()
    .min(1)
    .transform((s) => s.split(",").map((t) => t.trim())),
]);

const itemSchema = z.looseObject({
  id: z.union([z.string().min(1), z.int()]).optional(),
  prompt: z.string().refine((s) => s.trim() !== "", "must not be empty"),
  system: z.string().optional(),
  cwd: z.string().min(1).optional(),
  toolsets: toolsetsField.optional(),
  model: z.string().min(1).optional(),
});

/** First 20 hex digits of sha256: 80 bits, plenty for the lines of one file. */
export function lineHash(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 20);
}

/** The key of a line without an id: its hash and which occurrence of that line it is (1-based). */
export function hashKey(text: string, occurrence: number): string {
  return `h:${lineHash(text)}:${occurrence}`;
}

function issueText(error: z.ZodError): string {
  return error.issues
    .map((i) => {
      const where = i.path.length ? i.path.join(".") : "line";
      if (i.code === "invalid_type" && i.path[0] === "prompt" && i.input === undefined)
        return "prompt: required (a string)";
      return `${where}: ${i.message}`;
    })
    .join("; ");
}

/**
 * Reads the input text. `maxItems` keeps the first N valid items (the same N on every resume);
 * malformed lines before that point are reported.
 */
export function parseInput(text: string, opts: { maxItems?: number } = {}): ParsedInput {
  const sha256 = createHash("sha256").update(text).digest("hex");
  const rawLines = text.split("\n");
  if (rawLines.at(-1) === "") rawLines.pop();
  const items: BatchItem[] = [];
  const malformed: MalformedLine[] = [];
  const allKeys = new Set<string>();
  const occurrences = new Map<string, number>();
  const idLines = new Map<string, number>();
  let full = false;
  rawLines.forEach((raw, index) => {
    const line = index + 1;
    const trimmed = raw.trim();
    if (trimmed === "") return;
    const hash = lineHash(trimmed);
    const occurrence = (occurrences.get(hash) ?? 0) + 1;
    occurrences.set(hash, occurrence);
    const fallbackKey = hashKey(trimmed, occurrence);
    const parsed = parseLine(trimmed);
    const id = parsed.ok && parsed.value.id !== undefined ? String(parsed.value.id) : undefined;
    let key = id ?? fallbackKey;
    let error = parsed.ok ? undefined : parsed.error;
    if (id !== undefined) {
      const first = idLines.get(id);
      if (first !== undefined) {
        error = `duplicate id ${JSON.stringify(id)} (first on line ${first})`;
        key = fallbackKey;
      } else idLines.set(id, line);
    }
    allKeys.add(key);
    if (full) return;
    if (error !== undefined || !parsed.ok) {
      malformed.push({ key, line, error: error ?? "malformed", text: trimmed.slice(0, 300) });
      return;
    }
    const v = parsed.value;
    const metadata: Record<string, unknown> = {};
    for (const [k, value] of Object.entries(v)) if (!OWN_FIELDS.has(k)) metadata[k] = value;
    items.push({
      key,
      line,
      ...(id !== undefined ? { id } : {}),
      prompt: v.prompt,
      ...(v.system !== undefined && v.system.trim() !== "" ? { system: v.system } : {}),
      ...(v.cwd !== undefined ? { cwd: v.cwd } : {}),
      ...(v.toolsets !== undefined ? { toolsets: v.toolsets } : {}),
      ...(v.model !== undefined ? { model: v.model } : {}),
      metadata,
    });
    if (opts.maxItems !== undefined && items.length >= opts.maxItems) full = true;
  });
  return { items, malformed, allKeys, sha256, lines: rawLines.length };
}

function parseLine(
  text: string,
): { ok: true; value: z.output<typeof itemSchema> } | { ok: false; error: string } {
  // Nesting beyond the bound would overflow the stack of whatever walks the value next.
  const deep = jsonTooDeep(text);
  if (deep) return { ok: false, error: deep };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return { ok: false, error: `not JSON (${(err as Error).message})` };
  }
  if (typeof json !== "object" || json === null || Array.isArray(json))
    return { ok: false, error: "not a JSON object" };
  const res = itemSchema.safeParse(json);
  if (!res.success) return { ok: false, error: issueText(res.error) };
  return { ok: true, value: res.data };
}
