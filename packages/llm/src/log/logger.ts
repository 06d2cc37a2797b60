// One structured logger for every package: one JSON line per record, to stderr or a file,
// never stdout (stdout belongs to the user and to protocols). Every string, nested field and
// error is passed through redact() first.
import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { redact, redactValue } from "./redact.js";

export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";
const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };
export const LOG_LEVELS = Object.keys(RANK) as LogLevel[];

export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  child(bindings: LogFields): Logger;
  isEnabled(level: LogLevel): boolean;
}

export interface LoggerOptions {
  level?: LogLevel;
  /** Append to this file (created with mode 0600, parent folders made). Default: stderr. */
  file?: string;
  bindings?: LogFields;
  /** Receive finished lines instead (embedding, tests). Takes precedence over `file`. */
  sink?: (line: string) => void;
}

/** Where lines go and at which level; shared by a logger and all its children. */
interface Output {
  level: LogLevel;
  write(line: string): void;
}

const STDOUT_PATHS = new Set(["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"]);

function fileWriter(file: string): (line: string) => void {
  if (STDOUT_PATHS.has(file)) throw new Error(`log file '${file}' is stdout; logs go to stderr or a file`);
  let fd: number | undefined;
  return (line) => {
    if (fd === undefined) {
      // Opened on the first record, not when the logger is made (no fs work at start-up).
      mkdirSync(dirname(file), { recursive: true });
      fd = openSync(file, "a", 0o600);
      process.once("exit", () => {
        if (fd !== undefined) closeSync(fd);
      });
    }
    writeSync(fd, line);
  };
}

function makeOutput(opts: LoggerOptions): Output {
  const write =
    opts.sink ?? (opts.file ? fileWriter(opts.file) : (line: string) => process.stderr.write(line));
  return { level: opts.level ?? "info", write };
}

function build(output: () => Output, bindings: LogFields): Logger {
  const emit = (level: Exclude<LogLevel, "silent">, msg: string, fields?: LogFields) => {
    const out = output();
    if (RANK[level] < RANK[out.level]) return;
    const record: LogFields = { time: new Date().toISOString(), level, msg: redact(String(msg)) };
    const extra = redactValue({ ...bindings, ...(fields ?? {}) }) as LogFields;
    for (const [k, v] of Object.entries(extra)) if (!(k in record)) record[k] = v;
    let line: string;
    try {
      line = JSON.stringify(record);
    } catch {
      line = JSON.stringify({ time: record.time, level, msg: record.msg, note: "fields not serialisable" });
    }
    try {
      out.write(`${line}\n`);
    } catch {
      // A logger must never take the program down (full disk, closed stderr).
    }
  };
  return {
    debug: (m, f) => emit("debug", m, f),
    info: (m, f) => emit("info", m, f),
    warn: (m, f) => emit("warn", m, f),
    error: (m, f) => emit("error", m, f),
    child: (more) => build(output, { ...bindings, ...more }),
    isEnabled: (level) => RANK[level] >= RANK[output().level] && level !== "silent",
  };
}

/** A logger with its own destination. */
export function createLogger(opts: LoggerOptions = {}): Logger {
  const output = makeOutput(opts);
  return build(() => output, opts.bindings ?? {});
}

// The process-wide logger. Loggers taken from getLogger() before configureLogging() follow the
// configuration once it is made, so packages can take theirs at module level.
let globalOutput: Output | undefined;

function currentGlobal(): Output {
  globalOutput ??= {
    level: (LOG_LEVELS as string[]).includes(process.env.IRIS_LOG_LEVEL ?? "")
      ? (process.env.IRIS_LOG_LEVEL as LogLevel)
      : "warn",
    write: (line) => process.stderr.write(line),
  };
  return globalOutput;
}

/** Sets the process-wide destination and level (once, at start-up, by the application). */
export function configureLogging(opts: Omit<LoggerOptions, "bindings">): void {
  globalOutput = makeOutput({ ...opts, level: opts.level ?? "info" });
}

/** The process-wide logger (default: level warn, or IRIS_LOG_LEVEL, to stderr). */
export function getLogger(bindings: LogFields = {}): Logger {
  return build(currentGlobal, bindings);
}
