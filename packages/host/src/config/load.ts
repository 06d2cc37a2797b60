// Reads and validates config.yaml (SPEC K2): every problem comes back as data naming the file,
// line, column, key path and what was expected — never a stack trace. A missing file means
// "all defaults".
import { readFileSync, statSync } from "node:fs";
import type { Document, LineCounter, YAMLError } from "yaml";
import type { z } from "zod";
import { allowedKeysAt, formatKeyPath, issueMessage, unknownKeyMessage } from "./issues.js";
import { configSchema, defaultConfig, type IrisConfig, PARSE_ONCE } from "./schema.js";
import { yaml } from "./yaml-lib.js";
import { locatePath } from "./yaml-locate.js";

export interface ConfigError {
  file: string;
  line: number;
  column: number;
  /** Dotted key path, e.g. `approvals.mode`; empty for the whole file. */
  key: string;
  message: string;
}

export type ConfigResult =
  | { ok: true; config: IrisConfig; warnings: string[] }
  | { ok: false; errors: ConfigError[] };

/** Exit code for an invalid config.yaml (SPEC K5). */
export const CONFIG_ERROR_EXIT_CODE = 2;

/**
 * `config.yaml:12:3: model.name: expected string, got number`, one line per error (line 0 means
 * "no line": `--profile: invalid profile name …`). The CLI prints this to stderr and exits 2.
 */
/** Errors shown before the rest is counted: a garbage file must not print 50,000 lines. */
export const MAX_CONFIG_ERROR_LINES = 20;

export function formatConfigErrors(errors: readonly ConfigError[]): string {
  const lines = errors.slice(0, MAX_CONFIG_ERROR_LINES).map((e) => {
    const where = e.line > 0 ? `${e.file}:${e.line}:${e.column}` : e.file;
    const text = `${where}: ${e.key ? `${e.key}: ` : ""}${e.message}`;
    return text.length > 500 ? `${text.slice(0, 499)}…` : text;
  });
  const more = errors.length - lines.length;
  if (more > 0) lines.push(`… and ${more} more error${more === 1 ? "" : "s"} (fix the ones above first)`);
  return lines.join("\n");
}

/**
 * `lenient`: for commands that only read (sessions, usage, config get): keys the schema rejects
 * are left out with a warning each, so one typo does not lock the user out of every command.
 */
export function loadConfig(path: string, opts: { lenient?: boolean } = {}): ConfigResult {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return { ok: true, config: defaultConfig(), warnings: [] };
    const why = code === "EACCES" ? "permission denied" : code === "EISDIR" ? "is a folder" : String(code);
    return {
      ok: false,
      errors: [{ file: path, line: 1, column: 1, key: "", message: `cannot read: ${why}` }],
    };
  }
  const strict = parseConfigText(text, path);
  const result = strict.ok || !opts.lenient ? strict : withoutBadKeys(text, strict.errors);
  if (result.ok) result.warnings.push(...permissionWarnings(path, result.config));
  return result;
}

/** The config with each rejected key left out, or the errors when that does not make it valid. */
function withoutBadKeys(text: string, errors: ConfigError[]): ConfigResult {
  // An error of the whole file (invalid YAML): nothing to leave out, and the text does not parse.
  if (errors.some((e) => e.key === "")) return { ok: false, errors };
  const data = yaml().parse(text) as unknown;
  if (data === null || typeof data !== "object") return { ok: false, errors };
  for (const e of errors) {
    const keys = e.key.split(".");
    let at: unknown = data;
    for (const k of keys.slice(0, -1))
      at = at && typeof at === "object" ? (at as Record<string, unknown>)[k] : undefined;
    if (at && typeof at === "object") delete (at as Record<string, unknown>)[keys.at(-1) as string];
  }
  const parsed = configSchema.safeParse(data, PARSE_ONCE);
  if (!parsed.success) return { ok: false, errors };
  const warnings = errors.map(
    (e) =>
      `${e.file}:${e.line}:${e.column}: ${e.key}: ${e.message} (left out; \`iris config unset ${e.key}\` removes it)`,
  );
  return { ok: true, config: parsed.data, warnings };
}

/** Validates config text; `file` is only used in error messages. */
export function parseConfigText(text: string, file: string): ConfigResult {
  const { LineCounter, parseDocument } = yaml();
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, prettyErrors: false });
  if (doc.errors.length > 0) return { ok: false, errors: doc.errors.map((e) => yamlError(e, file, lc)) };

  // Aliases are expanded up to a bound (an alias bomb would take the memory and the time).
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) ?? {};
  } catch (err) {
    return { ok: false, errors: [expansionError(err, doc, file, lc)] };
  }
  if (typeof data !== "object" || Array.isArray(data)) {
    const where = locatePath(doc, [], lc);
    return {
      ok: false,
      errors: [
        {
          file,
          ...where,
          key: "",
          message: `expected a mapping of keys at the top level, got ${Array.isArray(data) ? "a list" : typeof data}`,
        },
      ],
    };
  }
  const parsed = configSchema.safeParse(data, PARSE_ONCE);
  if (parsed.success) {
    return { ok: true, config: parsed.data, warnings: doc.warnings.map((w) => w.message) };
  }
  return { ok: false, errors: issuesToErrors(parsed.error.issues, data, doc, lc, file) };
}

export function issuesToErrors(
  issues: readonly z.core.$ZodIssue[],
  data: unknown,
  doc: Document,
  lc: LineCounter,
  file: string,
): ConfigError[] {
  const errors: ConfigError[] = [];
  for (const issue of issues) {
    if (issue.code === "unrecognized_keys") {
      // One error per unknown key, pointing at the key itself.
      const allowed = allowedKeysAt(configSchema, issue.path);
      for (const key of issue.keys) {
        const path = [...issue.path, key];
        errors.push({
          file,
          ...locatePath(doc, path, lc, "key"),
          key: formatKeyPath(path),
          message: unknownKeyMessage(key, allowed),
        });
      }
      continue;
    }
    errors.push({
      file,
      ...locatePath(doc, issue.path, lc, "value"),
      key: formatKeyPath(issue.path),
      message: issueMessage(issue, data),
    });
  }
  return errors.sort((a, b) => a.line - b.line || a.column - b.column);
}

/** yaml's bound on alias expansion: how many nodes aliases may stand for, in all. */
const MAX_ALIAS_COUNT = 100;

/** A failed expansion (too many aliases, an alias before its anchor) at the first alias's line. */
function expansionError(err: unknown, doc: Document, file: string, lc: LineCounter): ConfigError {
  const { isAlias, visit } = yaml();
  let at = 0;
  visit(doc, {
    Alias(_key, node) {
      if (isAlias(node) && node.range) {
        at = node.range[0];
        return visit.BREAK;
      }
      return undefined;
    },
  });
  const { line, col } = lc.linePos(at);
  const why = String(err instanceof Error ? err.message : err);
  const message = /alias count/i.test(why)
    ? `YAML aliases expand to too much (more than ${MAX_ALIAS_COUNT} nodes; an alias bomb?): write the values out or use fewer aliases`
    : `invalid YAML: ${plainWords(why)}`;
  return { file, line, column: col, key: "", message };
}

function yamlError(e: YAMLError, file: string, lc: LineCounter): ConfigError {
  const { line, col } = lc.linePos(e.pos[0]);
  // The parser's own words, without a code frame (prettyErrors is off).
  const message = e.message.split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, "");
  return { file, line, column: col, key: "", message: `invalid YAML: ${plainWords(message)}` };
}

/** The parser's stack overflow on absurd nesting, said as what it means. */
function plainWords(message: string): string {
  return /call stack/i.test(message)
    ? "nested too deeply (lists or mappings thousands of levels deep)"
    : message;
}

/** A key written into a file others can read is worth a word (SPEC K3 spirit). */
function permissionWarnings(path: string, config: IrisConfig): string[] {
  const hasKey = Object.values(config.providers).some((p) => p.api_key !== undefined);
  if (!hasKey) return [];
  try {
    const mode = statSync(path).mode;
    if ((mode & 0o077) !== 0)
      return [
        `${path} holds an api_key and is readable by others (mode ${(mode & 0o777).toString(8)}); run: chmod 600 ${path}`,
      ];
  } catch {
    // Unreadable now means nothing to warn about.
  }
  return [];
}
