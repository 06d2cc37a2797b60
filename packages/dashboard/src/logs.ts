// The live log tail: Iris writes one JSON record a line to the profile's logs/iris.log (llm's
// logger, secrets already redacted). The stream sends the file's last lines, then each new one
// as it is appended (a rotated or truncated file is read again from its start), filtered by
// level (this level and above) and component.
import { closeSync, openSync, readSync, statSync } from "node:fs";
import type { Context } from "hono";
import { streamSSE } from "hono/streaming";
import { z } from "zod";

const LEVELS = ["debug", "info", "warn", "error"] as const;
const RANK: Record<string, number> = { trace: 0, debug: 1, info: 2, warn: 3, error: 4, fatal: 5 };
const TAIL_BYTES = 256 * 1024;
const POLL_MS = 500;

export const logQuery = z.object({
  level: z.enum(LEVELS).default("debug"),
  component: z
    .string()
    .max(64)
    .regex(/^[\w.:-]*$/)
    .default(""),
});

export interface LogRecord {
  time: string;
  level: string;
  msg: string;
  component?: string;
  rest?: string;
}

export function parseLine(line: string): LogRecord | undefined {
  try {
    const { time, level, msg, component, ...rest } = JSON.parse(line) as Record<string, unknown>;
    if (typeof level !== "string" || typeof msg !== "string") return undefined;
    const more = Object.keys(rest).length ? JSON.stringify(rest) : undefined;
    return {
      time: String(time ?? ""),
      level,
      msg,
      ...(typeof component === "string" ? { component } : {}),
      ...(more ? { rest: more } : {}),
    };
  } catch {
    return undefined;
  }
}

function readRange(file: string, from: number, to: number): string {
  const fd = openSync(file, "r");
  try {
    const buf = Buffer.alloc(to - from);
    const n = readSync(fd, buf, 0, buf.length, from);
    return buf.subarray(0, n).toString("utf8");
  } finally {
    closeSync(fd);
  }
}

const sizeOf = (file: string) => {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
};

export function logStream(c: Context, file: string, q: z.output<typeof logQuery>) {
  const keep = (r: LogRecord) =>
    (RANK[r.level] ?? 2) >= (RANK[q.level] ?? 0) && (!q.component || r.component === q.component);
  return streamSSE(c, async (stream) => {
    let pos = Math.max(0, sizeOf(file) - TAIL_BYTES);
    let partial = "";
    let first = pos > 0; // the first line of a tail is usually cut: dropped
    const pump = async () => {
      const size = sizeOf(file);
      if (size < pos) pos = 0; // truncated or rotated
      if (size === pos) return;
      const text = partial + readRange(file, pos, size);
      pos = size;
      const lines = text.split("\n");
      partial = lines.pop() ?? "";
      if (first) {
        lines.shift();
        first = false;
      }
      for (const line of lines) {
        const r = parseLine(line);
        if (r && keep(r)) await stream.writeSSE({ data: JSON.stringify(r) });
      }
    };
    await pump();
    await stream.writeSSE({ event: "ready", data: "" });
    while (!stream.aborted && !stream.closed) {
      await stream.sleep(POLL_MS);
      await pump();
    }
  });
}
