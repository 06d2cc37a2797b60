// The profile's .env (SPEC K1): secrets only, parsed here without a dependency and without a
// word on stdout/stderr. Problems come back as warnings that never quote a value.
import { readFileSync, statSync } from "node:fs";

export interface DotenvResult {
  values: Record<string, string>;
  warnings: string[];
}

const KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;
const ESCAPES: Record<string, string> = { n: "\n", r: "\r", t: "\t", '"': '"', "\\": "\\", $: "$" };

/**
 * KEY=VALUE lines; `export ` prefix; `#` comments (whole line, or after whitespace in an unquoted
 * value); "double quotes" with \n \r \t \" \\ escapes and 'single quotes' taken literally, both
 * may span lines. No `${VAR}` expansion: a value is exactly what is written. A later line wins.
 */
export function parseDotenv(text: string, file = ".env"): DotenvResult {
  const values: Record<string, string> = {};
  const warnings: string[] = [];
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const lineNo = i + 1;
    const line = lines[i]!.trim();
    if (line === "" || line.startsWith("#")) continue;
    const m = /^(?:export\s+)?([^=\s]+)\s*=\s*(.*)$/.exec(line);
    if (!m || !KEY.test(m[1]!)) {
      warnings.push(`${file}:${lineNo}: ignored: expected KEY=VALUE with KEY made of letters, digits and _`);
      continue;
    }
    const key = m[1]!;
    let rest = m[2]!;
    const quote = rest[0];
    if (quote === '"' || quote === "'") {
      // Gather lines until the closing quote (multi-line values such as PEM keys).
      let body = rest.slice(1);
      let close = findClose(body, quote);
      while (close < 0 && i + 1 < lines.length) {
        i++;
        body += `\n${lines[i]!}`;
        close = findClose(body, quote);
      }
      if (close < 0) {
        warnings.push(
          `${file}:${lineNo}: ignored ${key}: the ${quote === '"' ? "double" : "single"} quote is never closed`,
        );
        continue;
      }
      const raw = body.slice(0, close);
      values[key] = quote === '"' ? raw.replace(/\\(.)/g, (all, c: string) => ESCAPES[c] ?? all) : raw;
      const after = body.slice(close + 1).trim();
      if (after !== "" && !after.startsWith("#"))
        warnings.push(`${file}:${lineNo}: ${key}: text after the closing quote was ignored`);
      continue;
    }
    const hash = rest.search(/\s#/);
    if (hash >= 0) rest = rest.slice(0, hash);
    values[key] = rest.trim();
  }
  return { values, warnings };
}

function findClose(body: string, quote: string): number {
  for (let j = 0; j < body.length; j++) {
    const c = body[j];
    if (quote === '"' && c === "\\") {
      j++;
      continue;
    }
    if (c === quote) return j;
  }
  return -1;
}

/** Reads `path` if it exists; warns (without printing anything) when group or others can read it. */
export function loadDotenv(path: string): DotenvResult {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return { values: {}, warnings: [] };
    return { values: {}, warnings: [`${path}: not read (${String(code)})`] };
  }
  const result = parseDotenv(text, path);
  const mode = statSync(path).mode;
  if ((mode & 0o077) !== 0) {
    result.warnings.unshift(
      `${path} is readable by other users (mode ${(mode & 0o777).toString(8)}); it holds secrets: run chmod 600 ${path}`,
    );
  }
  return result;
}

/** Variables that choose which profile (and so which .env) is read. */
const CHOSEN_BEFORE_DOTENV = new Set(["IRIS_HOME"]);

/**
 * The environment the process works with: the real environment with the profile's .env on top.
 *
 * Why .env wins over an exported variable: the .env belongs to this profile (SPEC K1) and is
 * where the user put this profile's keys, while a shell export is often stale or meant for
 * another tool — SPEC P2: "a stale shell export must never silently override" the user's choice
 * (Hermes loads its .env with override=True for the same reason). One-off overrides use the
 * command line (--provider, --model, --base-url), which beats both.
 * Exception: IRIS_HOME chooses the home, and so the .env itself: one in a .env cannot take effect
 * (the profile is already chosen when its .env is read), and is reported and skipped. Every other
 * IRIS_* variable (the store's IRIS_DATABASE_URL, IRIS_REDIS_URL, IRIS_LOG_LEVEL, …) is read after
 * the profile and may live in its .env.
 */
export function mergeEnv(
  processEnv: Record<string, string | undefined>,
  dotenv: Record<string, string>,
): { env: Record<string, string>; warnings: string[] } {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(processEnv)) if (v !== undefined) env[k] = v;
  const warnings: string[] = [];
  for (const [k, v] of Object.entries(dotenv)) {
    if (CHOSEN_BEFORE_DOTENV.has(k)) {
      warnings.push(`.env: ${k} is ignored (it chooses the profile, so it must be set before iris starts)`);
      continue;
    }
    env[k] = v;
  }
  return { env, warnings };
}
