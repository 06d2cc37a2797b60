// Runs `iris batch` in-process (runBatch, what the bin calls after parsing its flags) against the
// fake LLM server, with a temp home.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Writable } from "node:stream";
import type { FakeLlm, RecordedRequest, Step } from "@iris/testkit";
import type { BatchOptions } from "../src/batch-options.js";
import { runBatch } from "../src/run.js";
import type { ShareGptTurn, TrajectoryRow } from "../src/trajectory.js";

export type ChatMessage = { role: string; content?: unknown; tool_calls?: unknown[] };

export function messagesOf(req: RecordedRequest): ChatMessage[] {
  return (req.body as { messages: ChatMessage[] }).messages;
}

export function textOf(m: ChatMessage | undefined): string {
  if (typeof m?.content === "string") return m.content;
  if (Array.isArray(m?.content)) return (m.content as { text?: string }[]).map((p) => p.text ?? "").join("");
  return "";
}

/** The prompt of the item a request belongs to (its first user message). */
export function promptOf(req: RecordedRequest): string {
  return textOf(messagesOf(req).find((m) => m.role === "user"));
}

/**
 * The default model: a prompt `TOOL:<command>` gets one terminal call, then an answer quoting the
 * tool result; any other prompt is answered at once.
 */
export function toolOrAnswer(req: RecordedRequest): Step {
  const messages = messagesOf(req);
  const prompt = promptOf(req);
  const last = messages.at(-1);
  const usage = { input: 100, output: 10 };
  if (prompt.startsWith("TOOL:") && last?.role === "user")
    return { toolCalls: [{ name: "terminal", arguments: { command: prompt.slice(5) } }], usage };
  if (last?.role === "tool") return { text: `tool said: ${textOf(last)}`, usage };
  return { text: `answer to ${prompt}`, usage };
}

export function writeInput(dir: string, lines: unknown[], name = "in.jsonl"): string {
  const path = join(dir, name);
  writeFileSync(path, lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n") + "\n");
  return path;
}

/** A row in the default (ShareGPT) layout: its turns are there. */
export type ShareGptRow = TrajectoryRow & { conversations: ShareGptTurn[] };

export function readRows(path: string): ShareGptRow[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as ShareGptRow);
}

export function readEntries(path: string): Record<string, unknown>[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

export async function batch(
  home: string,
  fake: FakeLlm,
  opts: Partial<BatchOptions> & { input: string; out: string },
  env: Record<string, string> = {},
): Promise<{ code: number; stderr: string }> {
  let stderr = "";
  const sink = new Writable({
    write(chunk, _enc, done) {
      stderr += String(chunk);
      done();
    },
  });
  const code = await runBatch({
    provider: "custom",
    baseUrl: fake.baseUrl,
    model: "fake-model",
    apiMode: "chat_completions",
    env: { IRIS_HOME: home, PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
    stderr: sink,
    ...opts,
  });
  return { code, stderr };
}
