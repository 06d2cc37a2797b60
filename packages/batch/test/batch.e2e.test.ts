// `iris batch` end to end against the fake LLM server: rows with the fields, ephemeral
// system prompts, per-item working directories, approvals with nobody to ask, malformed lines,
// and trajectories kept out of state.db.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore } from "@iris/host";
import { type FakeLlm, startFakeLlm, type TempDir, tempDir } from "@iris/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { trajectoryRowSchema } from "../src/trajectory.js";
import {
  batch,
  messagesOf,
  promptOf,
  readEntries,
  readRows,
  textOf,
  toolOrAnswer,
  writeInput,
} from "./helpers.js";

let fake: FakeLlm;
let dir: TempDir;
beforeEach(async () => {
  fake = await startFakeLlm();
  fake.setHandler(toolOrAnswer);
  dir = tempDir("iris-batch-");
});
afterEach(async () => {
  await fake.close();
  dir.cleanup();
});

describe("iris batch", () => {
  it("writes one row per item with the issue's fields; malformed lines go to the failure file", async () => {
    const input = writeInput(dir.path, [
      { id: "q1", prompt: "hello", system: "EPHEMERAL-MARKER be brief", topic: "greeting" },
      "{not json",
      { prompt: "TOOL:pwd", difficulty: 3 },
      { prompt: "TOOL:pwd" },
    ]);
    const out = join(dir.path, "out.jsonl");
    const summaryFile = join(dir.path, "summary.json");
    const r = await batch(dir.path, fake, { input, out, concurrency: 2, jsonSummary: summaryFile });
    expect(r.stderr).not.toMatch(/at .*\.ts:\d+/);
    expect(r.code).toBe(0);
    const rows = readRows(out);
    expect(rows).toHaveLength(3);
    for (const row of rows) expect(trajectoryRowSchema.parse(row)).toEqual(row);

    const q1 = rows.find((x) => x.key === "q1");
    expect(q1).toMatchObject({
      id: "q1",
      status: "completed",
      termination_reason: "natural",
      metadata: { topic: "greeting" },
      api_calls: 1,
      rounds: 1,
      usage: { input_tokens: 100, output_tokens: 10 },
      model: "custom/fake-model",
    });
    expect(q1?.conversations.map((c) => c.from)).toEqual(["system", "human", "gpt"]);
    expect(q1?.conversations.slice(1)).toEqual([
      { from: "human", value: "hello" },
      { from: "gpt", value: "answer to hello" },
    ]);
    // The item's system prompt reached the model, and the row says what the model was sent.
    const q1Request = fake.requests.find((q) => promptOf(q) === "hello");
    expect(textOf(messagesOf(q1Request!)[0])).toContain("EPHEMERAL-MARKER");
    expect(q1?.system).toBe("EPHEMERAL-MARKER be brief");
    expect(q1?.conversations?.[0]?.value).toBe(textOf(messagesOf(q1Request!)[0]));

    // Each item ran in a fresh temp directory of its own, removed afterwards.
    const tools = rows.filter((x) => x.tool_calls.length > 0);
    expect(tools).toHaveLength(2);
    const dirs = tools.map(
      (x) => /(\/\S*iris-batch-item-\w+)/.exec(x.conversations.at(-1)?.value ?? "")?.[1],
    );
    expect(dirs[0]).toBeDefined();
    expect(dirs[0]).not.toBe(dirs[1]);
    for (const d of dirs) {
      expect(d?.startsWith(tmpdir())).toBe(true);
      expect(existsSync(d!)).toBe(false);
    }
    expect(tools[0]?.tool_stats).toEqual({ terminal: { count: 1, success: 1, failure: 0 } });
    expect(tools.map((x) => x.conversations.map((c) => c.from))).toEqual([
      ["system", "human", "gpt", "tool", "gpt"],
      ["system", "human", "gpt", "tool", "gpt"],
    ]);
    expect(tools.find((x) => x.metadata.difficulty === 3)).toBeDefined();

    expect(readEntries(join(dir.path, "out.failed.jsonl"))).toEqual([
      expect.objectContaining({ line: 2, status: "malformed", error: expect.stringMatching(/^not JSON/) }),
    ]);
    const summary = JSON.parse(readFileSync(summaryFile, "utf8"));
    expect(summary).toMatchObject({
      items: 3,
      rows: 3,
      malformed_lines: 1,
      not_run: 0,
      by_status: { completed: 3 },
    });
    expect(r.stderr).toMatch(/completed\s+3/);
    expect(r.stderr).toMatch(
      /batch 3\/3 done · 0 failed · [\d.]+ items\/min · ETA \S+ · [\d.]+k? tokens · \$0\.0000/,
    );

    // D5: nothing of the batch is in state.db; the items' JSONL logs are gone once their rows are out.
    expect(existsSync(join(dir.path, "out.trajectories"))).toBe(false);
    expect(existsSync(join(dir.path, "out.scratch.db"))).toBe(false);
    const db = join(dir.path, "state.db");
    if (existsSync(db)) {
      const store = openStore(db);
      expect(await store.listSessions({ limit: 10 })).toEqual([]);
      await store.close();
    }
  });

  it("denies a dangerous command by default, and runs it with batch.approvals: allow", async () => {
    const work = join(dir.path, "work");
    mkdirSync(work);
    const input = writeInput(dir.path, [{ id: "d", prompt: "TOOL:touch f && chmod 777 f", cwd: work }]);
    const out = join(dir.path, "out.jsonl");
    const denied = await batch(dir.path, fake, { input, out });
    expect(denied.code).toBe(0);
    const row = readRows(out)[0];
    expect(row?.tool_calls[0]).toMatchObject({ name: "terminal", is_error: true });
    expect(row?.conversations.at(-1)?.value).toMatch(/nobody can approve/);
    expect(existsSync(join(work, "f"))).toBe(false);

    writeFileSync(join(dir.path, "config.yaml"), "batch:\n  approvals: allow\n");
    const allowed = await batch(dir.path, fake, { input, out: join(dir.path, "out2.jsonl") });
    expect(allowed.code).toBe(0);
    expect(readRows(join(dir.path, "out2.jsonl"))[0]?.tool_calls[0]?.is_error).toBe(false);
    expect(statSync(join(work, "f")).mode & 0o777).toBe(0o777);
  });

  it("isolates a stalled item: it fails with item_timeout and the others complete", async () => {
    fake.setHandler((req) => (promptOf(req) === "stall" ? { fault: "stall" } : toolOrAnswer(req)));
    const input = writeInput(dir.path, [
      { prompt: "a" },
      { prompt: "stall" },
      { prompt: "b" },
      { prompt: "c" },
    ]);
    const out = join(dir.path, "out.jsonl");
    const r = await batch(dir.path, fake, { input, out, concurrency: 2, itemTimeoutSeconds: 5 });
    expect(r.code).toBe(1);
    const rows = readRows(out);
    expect(
      rows.map((x) => [x.conversations.find((c) => c.from === "human")?.value, x.status]).sort(),
    ).toEqual([
      ["a", "completed"],
      ["b", "completed"],
      ["c", "completed"],
      ["stall", "failed"],
    ]);
    const stalled = rows.find((x) => x.status === "failed");
    expect(stalled?.termination_reason).toBe("item_timeout");
    expect(readEntries(join(dir.path, "out.failed.jsonl"))).toEqual([
      expect.objectContaining({
        key: stalled?.key,
        line: 2,
        status: "failed",
        termination_reason: "item_timeout",
      }),
    ]);
  });

  it("walks the fallback chain like the CLI, and takes an item's own model", async () => {
    writeFileSync(
      join(dir.path, "config.yaml"),
      `fallback_providers:\n  - {provider: custom, model: fake-fallback, base_url: "${fake.baseUrl}"}\n`,
    );
    // The primary model is gone (404: no retry, straight to the fallback, SPEC F1).
    fake.setHandler((req) => {
      const model = (req.body as { model: string }).model;
      return model === "fake-model" ? { fault: "status", status: 404 } : { text: `from ${model}` };
    });
    const input = writeInput(dir.path, [
      { id: "f", prompt: "hi" },
      { id: "own", prompt: "hi", model: "fake-other" },
    ]);
    const out = join(dir.path, "out.jsonl");
    const r = await batch(dir.path, fake, { input, out });
    expect(r.code).toBe(0);
    const rows = readRows(out);
    expect(rows.find((x) => x.key === "f")).toMatchObject({
      status: "completed",
      model: "custom/fake-fallback",
      conversations: [expect.anything(), expect.anything(), { from: "gpt", value: "from fake-fallback" }],
    });
    expect(rows.find((x) => x.key === "own")).toMatchObject({ model: "custom/fake-other" });
  });

  it("offers --toolsets (an item's own toolsets win) and stops at --max-rounds as discarded", async () => {
    const input = writeInput(dir.path, [
      { id: "run", prompt: "TOOL:echo hi" },
      { id: "own", prompt: "plain", toolsets: ["web"] },
    ]);
    const out = join(dir.path, "out.jsonl");
    const r = await batch(dir.path, fake, { input, out, toolsets: ["terminal", "file"], maxRounds: 1 });
    expect(r.code).toBe(0);
    const toolsOf = (prompt: string): string[] => {
      const body = fake.requests.find((q) => promptOf(q) === prompt)?.body as
        | { tools?: { function: { name: string } }[] }
        | undefined;
      return body?.tools?.map((t) => t.function.name) ?? [];
    };
    expect(toolsOf("TOOL:echo hi")).toEqual(expect.arrayContaining(["terminal", "read_file"]));
    expect(toolsOf("TOOL:echo hi")).not.toContain("web_search");
    expect(toolsOf("plain")).not.toContain("terminal");
    const rows = readRows(out);
    expect(rows.find((x) => x.key === "run")).toMatchObject({
      status: "discarded",
      termination_reason: "max_rounds",
      rounds: 1,
    });
    expect(rows.find((x) => x.key === "own")?.status).toBe("completed");
  });

  it("refuses to append to an existing output without --resume", async () => {
    const input = writeInput(dir.path, [{ prompt: "a" }]);
    const out = join(dir.path, "out.jsonl");
    expect((await batch(dir.path, fake, { input, out })).code).toBe(0);
    const again = await batch(dir.path, fake, { input, out });
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/already has rows: add --resume/);
    expect(readRows(out)).toHaveLength(1);
  });
});
