// The dashboard's config editor: config.yaml read with a base hash, and saves that go through
// the validation of `iris config set` (errors with key and line) and are refused when the file
// changed since the editor read it (a concurrent edit), so no save overwrites another's.
import { createHash, randomBytes } from "node:crypto";
import { readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { loadDotenv } from "../config/dotenv.js";
import { type ConfigError, parseConfigText } from "../config/load.js";
import { type ConfigEditResult, setConfigValue } from "../config/set-value.js";
import { yaml } from "../config/yaml-lib.js";

export interface ConfigFileState {
  text: string;
  /** sha256 of the file's bytes ("" for a missing file hashes the empty text). */
  hash: string;
}

export type ConfigSaveResult =
  | { ok: true; hash: string }
  | { ok: false; stale: true; hash: string }
  | { ok: false; stale: false; errors: ConfigError[] };

const hashOf = (text: string) => createHash("sha256").update(text).digest("hex");

export function readConfigFile(path: string): ConfigFileState {
  let text = "";
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  return { text, hash: hashOf(text) };
}

/** Replaces the whole file with `text` when it is valid and the file is still at `baseHash`. */
export function saveConfigText(path: string, text: string, baseHash: string): ConfigSaveResult {
  const current = readConfigFile(path);
  if (current.hash !== baseHash) return { ok: false, stale: true, hash: current.hash };
  const parsed = parseConfigText(text, path);
  if (!parsed.ok) return { ok: false, stale: false, errors: parsed.errors };
  writeAtomically(path, text);
  return { ok: true, hash: hashOf(text) };
}

/** One key set as `iris config set KEY VALUE` does (VALUE is YAML), when the file is at `baseHash`. */
export function setConfigKey(
  path: string,
  key: string,
  valueYaml: string,
  baseHash: string,
): ConfigSaveResult {
  const current = readConfigFile(path);
  if (current.hash !== baseHash) return { ok: false, stale: true, hash: current.hash };
  let value: unknown;
  try {
    value = yaml().parse(valueYaml);
  } catch (err) {
    return {
      ok: false,
      stale: false,
      errors: [{ file: path, line: 0, column: 0, key, message: `not YAML: ${(err as Error).message}` }],
    };
  }
  const r: ConfigEditResult = setConfigValue(path, key, value);
  if (!r.ok) return { ok: false, stale: false, errors: r.errors };
  return { ok: true, hash: readConfigFile(path).hash };
}

/** The keys of the profile's .env and whether each has a value: never the values. */
export function envKeys(path: string): { key: string; set: boolean }[] {
  try {
    const { values } = loadDotenv(path);
    return Object.entries(values)
      .map(([key, v]) => ({ key, set: v !== "" }))
      .sort((a, b) => a.key.localeCompare(b.key));
  } catch {
    return [];
  }
}

function writeAtomically(path: string, text: string): void {
  let mode = 0o600;
  try {
    mode = statSync(path).mode & 0o777;
  } catch {
    // A new file: private.
  }
  const tmp = `${path}.${randomBytes(4).toString("hex")}.tmp`;
  try {
    writeFileSync(tmp, text, { mode });
    renameSync(tmp, path);
  } catch (err) {
    try {
      unlinkSync(tmp);
    } catch {}
    throw err;
  }
}
