// A rewind outside this machine's files: through the editor workspace (an ACP editor's buffers),
// text is written back through the editor and a file the turn created is removed by a command on
// the base workspace. The receipts are real (state.db), the editor's file methods a Map.
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AssistantMessage } from "@iris/llm";
import { openStore } from "@iris/store";
import { tempDir } from "@iris/testkit";
import { editorWorkspace, localWorkspace } from "@iris/tools";
import { afterEach, describe, expect, it } from "vitest";
import { rewindSession } from "./rewind.js";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

const writeCall = (path: string): AssistantMessage => ({
  role: "assistant",
  parts: [{ type: "toolCall", callId: "c1", name: "write_file", argumentsJson: JSON.stringify({ path }) }],
  origin: { provider: "p", apiMode: "chat_completions", model: "m" },
  usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
  stopReason: "tool_calls",
});

describe("rewindSession through a workspace other than this machine's", () => {
  it("writes text back through the editor, removes a created file with a command, refuses binary, then moves the conversation", async () => {
    const dir = tempDir("iris-rewind-");
    const store = openStore(join(dir.path, "state.db"));
    cleanups.push(dir.cleanup, () => store.close());
    const id = store.createSession({ source: "acp" }).id;
    const ask = store.appendNode(id, { kind: "message", message: { role: "user", content: "edit them" } });
    const created = join(dir.path, "created.txt");
    writeFileSync(created, "made by the turn\n");
    const steps = [
      ["/doc/a.md", Buffer.from("# before\n")],
      [created, null],
      ["/doc/logo.png", Buffer.from([0x89, 0x50, 0xff, 0xfe])],
    ] as const;
    for (const [i, [path, content]] of steps.entries()) {
      const node = store.appendNode(id, { kind: "message", message: writeCall(path) });
      store.beginEffect({
        sessionId: id,
        logicalOpId: `op-${i}`,
        step: i,
        tool: "write_file",
        argsFingerprint: "f",
        nodeId: node.id,
        callId: "c1",
        filesBefore: [{ path, content }],
      });
    }
    const buffers = new Map([["/doc/a.md", "# after\n"]]);
    const ws = editorWorkspace(localWorkspace(), {
      readText: async (p) => buffers.get(p) ?? Promise.reject(new Error("no such buffer")),
      writeText: async (p, text) => void buffers.set(p, text),
    });
    let movedTo: string | null | undefined;
    const done = await rewindSession(store, id, undefined, ws, (leaf) => {
      movedTo = leaf;
    });
    if ("error" in done) throw new Error(done.error);
    expect(done.turn.node.id).toBe(ask.id);
    expect(buffers.get("/doc/a.md")).toBe("# before\n");
    expect(done.restored).toEqual(["/doc/a.md"]);
    expect(existsSync(created)).toBe(false);
    expect(done.removed).toEqual([created]);
    expect(done.failed).toEqual(["/doc/logo.png: not text, and the editor workspace writes text only"]);
    expect(movedTo).toBe(null);

    expect(await rewindSession(store, id, 3, ws, () => {})).toEqual({
      error: "no user message 3 in this session (it has 1; /branch lists them)",
    });
  });
});
