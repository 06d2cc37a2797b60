// The `process` tool: manage commands started by terminal with background: true.
import { z } from "zod";
import { defineTool } from "../define.js";
import { numberLine, splitLines } from "../fs/text.js";
import { capOutput, DEFAULT_OUTPUT_CAPS } from "../terminal/output-caps.js";
import type { BackgroundProcesses, ProcessInfo } from "../workspace/types.js";

const DEFAULT_WAIT_S = 30;
const MAX_WAIT_S = 600;
const DEFAULT_READ_LINES = 500;

const parameters = z.object({
  action: z
    .enum(["list", "poll", "read", "wait", "write", "kill"])
    .describe(
      "list: all processes; poll: status and output since the last poll; read: buffered output by " +
        "line; wait: until exit or timeout; write: send data to stdin; kill: stop it and its children.",
    ),
  id: z.string().optional().describe("Process id from terminal (e.g. proc_1); needed except for list."),
  data: z.string().optional().describe("write: text to send to stdin; include \\n to submit a line."),
  offset: z.number().int().min(1).optional().describe("read: first line, 1-based (default 1)."),
  limit: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe(`read: number of lines (default ${DEFAULT_READ_LINES}).`),
  timeout: z
    .number()
    .positive()
    .optional()
    .describe(`wait: seconds to wait (default ${DEFAULT_WAIT_S}, max ${MAX_WAIT_S}).`),
});

function status(p: ProcessInfo): string {
  const secs = Math.round(((p.endedAt ?? Date.now()) - p.startedAt) / 1000);
  if (p.running) return `${p.id} running (pid ${p.pid}, ${secs} s)`;
  const how = p.exitCode !== null ? `exited with code ${p.exitCode}` : `killed by ${p.signal ?? "a signal"}`;
  return `${p.id} ${how} after ${secs} s${p.killed ? " (killed on request)" : ""}`;
}

async function newOutput(processes: BackgroundProcesses, p: ProcessInfo): Promise<string> {
  const { text, skipped } = await processes.poll(p.id);
  const note = skipped > 0 ? `[... ${skipped} bytes dropped from the buffer before this ...]\n` : "";
  if (text === "") return `${note}(no new output)`;
  return note + capOutput(Buffer.from(text, "utf8"), DEFAULT_OUTPUT_CAPS).replace(/\n$/, "");
}

function error(message: string) {
  return { content: `Error: ${message}`, isError: true };
}

export default defineTool({
  name: "process",
  toolset: "terminal",
  label: "Process",
  effect: "mutate",
  description:
    "Manage background processes started by terminal with background: true: list, poll (status " +
    "and new output), read (buffered output by line), wait (until exit), write (stdin), kill.",
  parameters,
  async execute(args, ctx) {
    // Only the processes of the session that asks (its workspace).
    const processes = ctx.workspace.processes;
    if (args.action === "list") {
      const all = await processes.list();
      if (all.length === 0) return "No background processes.";
      return all.map((p) => `${status(p)}: ${p.command.slice(0, 200)}`).join("\n");
    }
    if (args.id === undefined) return error(`action "${args.action}" needs an id (see action "list").`);
    let p = await processes.get(args.id);
    if (!p) return error(`no process with id ${args.id} (see action "list").`);

    switch (args.action) {
      case "poll":
        return `${status(p)}\n${await newOutput(processes, p)}`;
      case "read": {
        const { text, dropped } = await processes.buffered(p.id);
        const lines = splitLines(text);
        const offset = args.offset ?? 1;
        const limit = args.limit ?? DEFAULT_READ_LINES;
        const page = lines.slice(offset - 1, offset - 1 + limit);
        const head = dropped > 0 ? `[first ${dropped} bytes of output were dropped from the buffer]\n` : "";
        const body = page.map((l, i) => numberLine(offset + i, l)).join("\n");
        const capped = capOutput(Buffer.from(body, "utf8"));
        const more =
          offset - 1 + limit < lines.length
            ? `\n[${lines.length - (offset - 1 + limit)} more lines; next offset ${offset + limit}]`
            : "";
        return `${status(p)}\n${head}${page.length === 0 ? `(no lines at offset ${offset}; ${lines.length} lines buffered)` : capped}${more}`;
      }
      case "wait": {
        const seconds = Math.min(args.timeout ?? DEFAULT_WAIT_S, MAX_WAIT_S);
        const done = await processes.wait(p.id, seconds * 1000, ctx.signal);
        p = (await processes.get(p.id)) ?? p;
        const note = done ? "" : `[still running after waiting ${seconds} s]\n`;
        return `${status(p)}\n${note}${await newOutput(processes, p)}`;
      }
      case "write": {
        if (args.data === undefined) return error('action "write" needs data.');
        if (!p.running) return error(`${p.id} has already exited; it cannot take input.`);
        await processes.write(p.id, args.data);
        return `Wrote ${Buffer.byteLength(args.data, "utf8")} bytes to ${p.id}'s stdin.`;
      }
      case "kill":
        if (!p.running) return `${status(p)} (nothing to kill)`;
        await processes.kill(p.id);
        return status((await processes.get(p.id)) ?? p);
    }
  },
});
