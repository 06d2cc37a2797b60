// Edits one key of config.yaml in place, keeping the user's comments and layout (yaml's Document
// API), and refusing an edit that would make the file invalid. Used by `/model`, `iris config set`
// and the approval prompt's "always" answer (which appends to approvals.allow).
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type * as Yaml from "yaml";
import { type ConfigError, issuesToErrors, parseConfigText } from "./load.js";
import { configSchema, PARSE_ONCE } from "./schema.js";
import { editText, type TextEdit } from "./text-edit.js";
import { yaml } from "./yaml-lib.js";

export type ConfigEditResult =
  | {
      ok: true;
      changed: boolean;
      /** Problems the file had before that this edit left as they were (it was allowed anyway). */
      remaining?: ConfigError[];
    }
  | { ok: false; errors: ConfigError[] };

/** "approvals.allow" or ["providers", "my.host", "base_url"]. */
export type KeyPath = string | readonly (string | number)[];

function splitPath(keyPath: KeyPath): (string | number)[] {
  return typeof keyPath === "string" ? keyPath.split(".").filter((s) => s.length > 0) : [...keyPath];
}

function readText(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return "";
    throw err;
  }
}

/** Sets `keyPath` to `value`; creates the file (mode 0600) when it does not exist. */
export function setConfigValue(path: string, keyPath: KeyPath, value: unknown): ConfigEditResult {
  const keys = splitPath(keyPath);
  return edit(
    path,
    (doc) => {
      doc.setIn(keys, value);
      return true;
    },
    { op: "set", keys, value },
  );
}

/** Appends `item` to the list at `keyPath` unless it is already there (e.g. approvals.allow). */
export function addToConfigList(path: string, keyPath: KeyPath, item: string): ConfigEditResult {
  const keys = splitPath(keyPath);
  return edit(path, (doc) => {
    const list = doc.getIn(keys, true);
    if (yaml().isSeq(list)) {
      if (list.items.some((n) => toJs(n) === item)) return false;
      list.add(doc.createNode(item));
    } else {
      const current = doc.getIn(keys);
      if (current !== undefined && current !== null) {
        // Not a list: let validation explain what is wrong instead of overwriting it.
        doc.setIn(keys, [current, item]);
      } else doc.setIn(keys, [item]);
    }
    return true;
  });
}

function toJs(n: unknown): unknown {
  return n !== null && typeof n === "object" && "toJSON" in n && typeof n.toJSON === "function"
    ? n.toJSON()
    : n;
}

/** What a config means: an empty map and a missing one are the same default. */
function meaning(data: unknown): string {
  const parsed = configSchema.safeParse(data ?? {}, PARSE_ONCE);
  return JSON.stringify(parsed.success ? parsed.data : data);
}

const errorId = (e: ConfigError) => `${e.key}\u0000${e.message}`;

function edit(
  path: string,
  change: (doc: ReturnType<typeof Yaml.parseDocument>) => boolean,
  textEdit?: TextEdit,
): ConfigEditResult {
  const before = readText(path);
  const { LineCounter, parseDocument } = yaml();
  const original = parseDocument(before);
  // Never rewrite a file that is not YAML (or not a mapping); a file the schema rejects may be
  // edited (the config commands are how it gets fixed) as long as the edit adds no problem.
  const current = parseConfigText(before, path);
  if (!current.ok && (original.errors.length > 0 || current.errors.some((e) => e.key === ""))) return current;
  const known = new Set(current.ok ? [] : current.errors.map(errorId));

  const doc = parseDocument(before);
  if (!change(doc)) return { ok: true, changed: false };
  const rendered = doc.toString();
  // The user's layout is kept where a text edit gives the same data as the re-rendered file.
  const minimal = textEdit ? editText(before, original, textEdit) : undefined;
  const sameData = (text: string) => meaning(parseDocument(text).toJS()) === meaning(doc.toJS());
  const after = minimal !== undefined && sameData(minimal) ? minimal : rendered;

  const lc = new LineCounter();
  const check = parseDocument(after, { lineCounter: lc });
  const parsed = configSchema.safeParse(check.toJS() ?? {}, PARSE_ONCE);
  if (!parsed.success) {
    const errors = issuesToErrors(parsed.error.issues, check.toJS(), check, lc, path);
    const added = errors.filter((e) => !known.has(errorId(e)));
    if (added.length) return { ok: false, errors: added };
    writeAtomically(path, after);
    return { ok: true, changed: true, remaining: errors };
  }
  writeAtomically(path, after);
  return { ok: true, changed: true };
}

function writeAtomically(path: string, text: string): void {
  let mode = 0o600;
  try {
    mode = statSync(path).mode & 0o777;
  } catch {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  }
  const tmp = `${path}.${randomBytes(4).toString("hex")}.tmp`;
  try {
    writeFileSync(tmp, text, { mode });
    renameSync(tmp, path);
  } catch (err) {
    try {
      unlinkSync(tmp);
    } catch {
      // Already gone.
    }
    throw err;
  }
}

/** Removes `keyPath` (its default applies again); `changed` is false when it was not set. */
export function unsetConfigValue(path: string, keyPath: KeyPath): ConfigEditResult {
  const keys = splitPath(keyPath);
  return edit(path, (doc) => (doc.hasIn(keys) ? doc.deleteIn(keys) : false), { op: "unset", keys });
}
