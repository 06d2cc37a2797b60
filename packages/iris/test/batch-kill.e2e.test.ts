// Issue 18's acceptance run: 1,000 prompts at concurrency 8 against the fake server with 429s,
// 503s, stalls and malformed replies mixed in, killed with SIGKILL twice and resumed. Then every
// key is in OUT exactly once (or, for a malformed line, in the failure file), nothing that had a
// row ran again, the last run ran each remaining item exactly once, and the summary matches OUT.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type FakeLlm, type RecordedRequest, type Step, startFakeLlm } from "@iris/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { IRIS_BIN, tempHome } from "./helpers.js";

let fake: FakeLlm;
let home: ReturnType<typeof tempHome>;
beforeEach(async () => {
  fake = await startFakeLlm();
  home = tempHome();
});
afterEach(async () => {
  await fake.close();
  home.cleanup();
});

type Msg = { role: string; content?: unknown };
const tagRe = /task-(\d{4})/;

interface LogEntry {
  tag: string;
  phase: number;
  /** The request opens the item's turn (no assistant message yet). */
  start: boolean;
  fault?: "429" | "503" | "malformed" | "stall";
}

function textOf(m: Msg | undefined): string {
  if (typeof m?.content === "string") return m.content;
  if (Array.isArray(m?.content)) return (m.content as { text?: string }[]).map((p) => p.text ?? "").join("");
  return "";
}

/** Scripted by the item's number: faults on an item's first attempt ever, stalls always. */
function model(log: LogEntry[], phaseOf: (req: RecordedRequest) => number) {
  const faulted = new Set<string>();
  return (req: RecordedRequest): Step => {
    const messages = (req.body as { messages: Msg[] }).messages;
    const user = textOf(messages.find((m) => m.role === "user"));
    const tag = tagRe.exec(user)?.[0] ?? "?";
    const n = Number(tag.slice(5));
    const start = !messages.some((m) => m.role === "assistant");
    const entry: LogEntry = { tag, phase: phaseOf(req), start };
    log.push(entry);
    const usage = { input: 50, output: 5 };
    if (n % 97 === 13) {
      entry.fault = "stall";
      return { fault: "stall" };
    }
    if (start && !faulted.has(tag)) {
      faulted.add(tag);
      if (n % 100 === 7) {
        entry.fault = "429";
        return { fault: "status", status: 429, retryAfter: "1" };
      }
      if (n % 31 === 5) {
        entry.fault = "503";
        return { fault: "status", status: 503 };
      }
      if (n % 43 === 11) {
        entry.fault = "malformed";
        return { fault: "malformed" };
      }
    }
    if (n % 10 === 3 && messages.at(-1)?.role === "user")
      return { toolCalls: [{ name: "terminal", arguments: { command: `echo ${tag}` } }], usage };
    return { text: `done ${tag}`, usage };
  };
}

function countRows(path: string): number {
  if (!existsSync(path)) return 0;
  const text = readFileSync(path, "utf8");
  let n = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

interface Row {
  key: string;
  status: string;
  termination_reason: string;
  conversations: { from: string; value: string }[];
}
const rowsOf = (path: string): Row[] =>
  readFileSync(path, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Row);
const tagOfRow = (r: Row) =>
  tagRe.exec(r.conversations.find((c) => c.from === "human")?.value ?? "")?.[0] ?? "?";

function tally(rows: Row[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const r of rows) m.set(tagOfRow(r), (m.get(tagOfRow(r)) ?? 0) + 1);
  return m;
}

/** Runs the bin; kills it with SIGKILL once OUT has `killAt` rows (if given). */
function runBatch(
  args: string[],
  out: string,
  killAt?: number,
): Promise<{ code: number | null; signal: string | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, [IRIS_BIN, "batch", ...args], {
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", IRIS_HOME: home.home },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr?.on("data", (d) => {
      stderr += d;
    });
    const timer =
      killAt === undefined
        ? undefined
        : setInterval(() => {
            if (countRows(out) >= killAt) child.kill("SIGKILL");
          }, 50);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      if (timer) clearInterval(timer);
      resolve({ code, signal, stderr });
    });
  });
}

describe("iris batch under SIGKILL", () => {
  it("resumes 1,000 prompts exactly after two kills", { timeout: 600_000 }, async () => {
    const lines: string[] = [];
    const multiplicity = new Map<string, number>();
    let malformed = 0;
    for (let n = 0; n < 1000; n++) {
      const tag = `task-${String(n).padStart(4, "0")}`;
      const line = JSON.stringify(
        n % 2 === 0 ? { id: `id-${n}`, prompt: `${tag}: say hi`, n } : { prompt: `${tag}: say hi` },
      );
      lines.push(line);
      multiplicity.set(tag, 1);
      if (n % 200 === 50) {
        lines.push(line.replace(`"id":"id-${n}",`, "")); // the same prompt again, without an id
        lines.push(line.replace(`"id":"id-${n}",`, "")); // and once more: two identical lines
        multiplicity.set(tag, 3);
      }
      if (n % 250 === 100) {
        lines.push(
          `{"prompt": "${tag} broken`,
          JSON.stringify({ prompt: n }),
          JSON.stringify({ id: `id-${n}`, prompt: "dup id" }),
        );
        malformed += 3;
      }
    }
    const input = join(home.home, "in.jsonl");
    writeFileSync(input, `${lines.join("\n")}\n`);
    const items = lines.length - malformed;
    const out = join(home.home, "out.jsonl");
    const failedFile = join(home.home, "out.failed.jsonl");
    const summaryFile = join(home.home, "summary.json");
    const log: LogEntry[] = [];
    // Each run asks for its own model name, so a request tells which run sent it, even one a
    // killed process sent just before it died.
    const phaseOf = (req: RecordedRequest) =>
      Number(/^fake-model-(\d)$/.exec(String((req.body as { model?: unknown }).model))?.[1]);
    fake.setHandler(model(log, phaseOf));
    const args = (phase: number) => [
      input,
      "--out",
      out,
      "--concurrency",
      "8",
      "--item-timeout",
      "6",
      "--provider",
      "custom",
      "--base-url",
      fake.baseUrl,
      "--model",
      `fake-model-${phase}`,
      "--api-mode",
      "chat_completions",
      "--json-summary",
      summaryFile,
      ...(phase > 1 ? ["--resume"] : []),
    ];

    const first = await runBatch(args(1), out, 250);
    expect(first.signal).toBe("SIGKILL");
    expect(first.stderr).toMatch(/answered 429: every worker waits 1 s/);
    // A kill in the middle of a write leaves half a row: make sure the last row is torn.
    const text = readFileSync(out, "utf8");
    truncateSync(out, Buffer.byteLength(text) - 30);
    const doneAt1 = tally(parseWhole(out));

    const second = await runBatch(args(2), out, 600);
    expect(second.signal).toBe("SIGKILL");
    expect(second.stderr).toMatch(/half-written last row/);
    const doneAt2 = tally(parseWhole(out));

    const third = await runBatch(args(3), out);
    expect(third.stderr).not.toMatch(/at .*\.js:\d+/);
    expect([0, 1]).toContain(third.code);

    // Every item has exactly one row; malformed lines are only in the failure file.
    const rows = rowsOf(out);
    const keys = rows.map((r) => r.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys).toHaveLength(items);
    for (const [tag, count] of multiplicity) expect(tally(rows).get(tag), tag).toBe(count);
    const failures = rowsOf(failedFile) as unknown as { key: string; status: string }[];
    const failureKeys = failures.map((f) => f.key);
    expect(new Set(failureKeys).size).toBe(failureKeys.length);
    expect(failures.filter((f) => f.status === "malformed")).toHaveLength(malformed);
    expect(
      failures
        .filter((f) => f.status === "failed")
        .map((f) => f.key)
        .sort(),
    ).toEqual(
      rows
        .filter((r) => r.status === "failed")
        .map((r) => r.key)
        .sort(),
    );
    for (const f of failures.filter((x) => x.status === "malformed")) expect(keys).not.toContain(f.key);
    // Stalled items fail by their time limit and never hold up the others.
    for (const r of rows) {
      if (Number(tagOfRow(r).slice(5)) % 97 === 13) expect(r.termination_reason).toBe("item_timeout");
      expect(["completed", "failed"]).toContain(r.status);
    }

    expect(log.filter((e) => ![1, 2, 3].includes(e.phase))).toEqual([]);
    // Nothing that had a row at a kill was asked for again afterwards.
    for (const [p, done] of [
      [2, doneAt1],
      [3, doneAt2],
    ] as const)
      for (const e of log.filter((x) => x.phase >= p))
        expect((done.get(e.tag) ?? 0) < (multiplicity.get(e.tag) ?? 0), `${e.tag} in phase ${e.phase}`).toBe(
          true,
        );
    // The last run ran each remaining item once (a retry after a fault is the same run): from its
    // start, or on from the turn its log recorded before the kill (a first request that is no start).
    const runs = new Map<string, number>();
    const last = new Map<string, LogEntry>();
    for (const e of log.filter((x) => x.phase === 3)) {
      const prev = last.get(e.tag);
      const retry = prev?.start && prev.fault !== undefined && prev.fault !== "stall";
      const continued = prev === undefined && !e.start;
      if ((e.start && !retry) || continued) runs.set(e.tag, (runs.get(e.tag) ?? 0) + 1);
      last.set(e.tag, e);
    }
    for (const [tag, count] of multiplicity)
      expect(runs.get(tag) ?? 0, tag).toBe(count - (doneAt2.get(tag) ?? 0));

    // The summary matches OUT.
    const summary = JSON.parse(readFileSync(summaryFile, "utf8"));
    const byStatus: Record<string, number> = {};
    for (const r of rows) byStatus[r.status] = (byStatus[r.status] ?? 0) + 1;
    expect(summary).toMatchObject({
      items,
      rows: items,
      not_run: 0,
      malformed_lines: malformed,
      by_status: byStatus,
    });
    expect(summary.this_run.ran + summary.this_run.skipped_done).toBe(items);
  });
});

/** The rows of OUT that are whole lines (a torn last line left out). */
function parseWhole(path: string): Row[] {
  const text = readFileSync(path, "utf8");
  const whole = text.slice(0, text.lastIndexOf("\n") + 1);
  return whole
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Row);
}
