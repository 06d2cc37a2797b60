import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AssistantMessage } from "@iris/llm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { BeginEffectInput } from "./effects.js";
import { openStore, type Store } from "./store.js";

let dir: string;
let path: string;
let store: Store;
let sessionId: string;
let anchorId: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "iris-store-"));
  path = join(dir, "state.db");
  store = openStore(path);
  sessionId = store.createSession({ source: "cli" }).id;
  store.appendNode(sessionId, { kind: "message", message: { role: "user", content: "deploy it" } });
  const call: AssistantMessage = {
    role: "assistant",
    parts: [
      { type: "text", text: "Deploying." },
      { type: "toolCall", callId: "call_1", name: "shell", argumentsJson: '{"cmd":"deploy"}' },
      { type: "toolCall", callId: "call_2", name: "send_message", argumentsJson: '{"to":"ops"}' },
    ],
    origin: { provider: "openai", apiMode: "chat_completions", model: "gpt-x" },
    usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
    stopReason: "tool_calls",
  };
  anchorId = store.appendNode(sessionId, { kind: "message", message: call }).id;
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const begin = (over: Partial<BeginEffectInput> = {}): BeginEffectInput => ({
  sessionId,
  logicalOpId: "op-1",
  step: 2,
  tool: "shell",
  argsFingerprint: "sha256:abc",
  nodeId: anchorId,
  callId: "call_1",
  ...over,
});

describe("effect receipts", () => {
  it("refuses to begin unless the assistant node carrying the call is stored", () => {
    expect(() => store.beginEffect(begin({ nodeId: "not-stored" }))).toThrow(/not stored/);
    const user = store.activePath(sessionId)[0]?.id ?? "";
    expect(() => store.beginEffect(begin({ nodeId: user }))).toThrow(/not an assistant message/);
    expect(() => store.beginEffect(begin({ tool: "rm" }))).toThrow(/does not carry call call_1 of rm/);
    expect(() => store.beginEffect(begin({ callId: "call_2" }))).toThrow(/does not carry/);
    const other = store.createSession({ source: "cli" }).id;
    expect(() => store.beginEffect(begin({ sessionId: other }))).toThrow(/another session/);
    try {
      store.beginEffect(begin({ nodeId: "not-stored" }));
    } catch (error) {
      expect((error as { code?: string }).code).toBe("effect_not_checkpointed");
    }
    expect(store.listUnresolved()).toEqual([]);
  });

  it("replays a completed op on re-entry instead of running it again", () => {
    const first = store.beginEffect(begin());
    expect(first.kind).toBe("started");
    expect(store.db.pragma("synchronous", { simple: true })).toBe(1); // back to NORMAL after the synced commit
    expect(store.listUnresolved().map((e) => e.id)).toEqual([first.effect.id]);
    const done = store.completeEffect(first.effect.id, { content: "deployed v2", isError: false });
    expect(done.status).toBe("completed");
    expect(store.listUnresolved()).toEqual([]);

    store.close();
    store = openStore(path); // a restart
    const again = store.beginEffect(begin());
    expect(again.kind).toBe("replay");
    expect(again.effect.id).toBe(first.effect.id);
    expect(again.effect.result).toEqual({ content: "deployed v2", isError: false });
    expect(() => store.completeEffect(first.effect.id, "twice")).toThrow(/already completed/);
  });

  it("reports an op that started but never finished as uncertain, and lets a person resolve it", () => {
    const first = store.beginEffect(begin({ logicalOpId: "op-2", tool: "send_message", callId: "call_2" }));
    store.close();
    store = openStore(path); // the process died while the tool ran
    const unresolved = store.listUnresolved();
    expect(unresolved.map((e) => [e.logicalOpId, e.tool, e.step, e.nodeId])).toEqual([
      ["op-2", "send_message", 2, anchorId],
    ]);
    expect(store.listUnresolved(sessionId)).toHaveLength(1);
    expect(store.listUnresolved("other-session")).toEqual([]);
    const again = store.beginEffect(begin({ logicalOpId: "op-2", tool: "send_message", callId: "call_2" }));
    expect(again.kind).toBe("uncertain");

    expect(() => store.resolveEffect(first.effect.id, "applied", "")).toThrow(/evidence/);
    const resolved = store.resolveEffect(first.effect.id, "applied", "message 123 seen in #ops");
    expect(resolved).toMatchObject({ status: "applied", evidence: "message 123 seen in #ops" });
    expect(store.listUnresolved()).toEqual([]);
    const after = store.beginEffect(begin({ logicalOpId: "op-2", tool: "send_message", callId: "call_2" }));
    expect(after.kind).toBe("resolved");
    expect(() => store.resolveEffect(first.effect.id, "not_applied", "x")).toThrow(/already applied/);
  });

  it("keeps a failure and resolves not_applied with evidence", () => {
    const a = store.beginEffect(begin({ logicalOpId: "op-a" }));
    const failed = store.failEffect(a.effect.id, "exit 1");
    expect(failed).toMatchObject({ status: "failed", error: "exit 1" });
    expect(store.beginEffect(begin({ logicalOpId: "op-a" })).kind).toBe("replay");
    const b = store.beginEffect(begin({ logicalOpId: "op-b" }));
    const notApplied = store.resolveEffect(b.effect.id, "not_applied", "no deploy in the audit log");
    expect(notApplied.status).toBe("not_applied");
    expect(store.getEffect(b.effect.id).evidence).toBe("no deploy in the audit log");
    expect(() => store.resolveEffect(b.effect.id, "maybe" as "applied", "x")).toThrow(/resolution/);
  });

  it("can be begun inside a caller's transaction", () => {
    store.db.exec("BEGIN IMMEDIATE");
    const inside = store.beginEffect(begin({ logicalOpId: "op-tx" }));
    store.db.exec("COMMIT");
    expect(inside.kind).toBe("started");
    expect(store.getEffect(inside.effect.id).status).toBe("started");
  });

  it("refuses re-entry of an op id with another anchor", () => {
    store.beginEffect(begin());
    expect(() => store.beginEffect(begin({ step: 3 }))).toThrow(/another anchor/);
    expect(() => store.beginEffect(begin({ argsFingerprint: "sha256:other" }))).toThrow(/another anchor/);
    // Same op id, but the anchor is no longer a stored call: refused before anything else.
    expect(() => store.beginEffect(begin({ nodeId: "gone" }))).toThrow(/not stored/);
    expect(store.listUnresolved()).toHaveLength(1);
  });
});

describe("effect look-ups", () => {
  it("finds a receipt by logical op id, by id prefix, and lists them oldest first", () => {
    const first = store.beginEffect(begin()).effect;
    const second = store.beginEffect(
      begin({ logicalOpId: "op-2", tool: "send_message", callId: "call_2", argsFingerprint: "sha256:def" }),
    ).effect;
    expect(store.findEffectByOp("op-2")?.id).toBe(second.id);
    expect(store.findEffectByOp("op-404")).toBeUndefined();
    expect(store.findEffect(first.id)?.logicalOpId).toBe("op-1");
    expect(store.findEffect(second.id.slice(0, 30))?.id).toBe(second.id);
    expect(store.findEffect("abc")).toBeUndefined(); // under 4 characters
    expect(store.listEffects().map((e) => e.logicalOpId)).toEqual(["op-1", "op-2"]);
  });
});

describe("file snapshots in the receipts (/rewind)", () => {
  it("keeps the files a new receipt's call writes, returns them newest call first, and deletes them with the session", () => {
    const before = Buffer.from("version 1\n");
    const first = store.beginEffect(
      begin({
        filesBefore: [
          { path: "/w/app.txt", content: before },
          { path: "/w/new.txt", content: null },
        ],
      }),
    );
    expect(first.kind).toBe("started");
    // A re-entry of the same op (a replay) keeps the first snapshot, not what the file is now.
    store.completeEffect(first.effect.id, "ok");
    store.beginEffect(begin({ filesBefore: [{ path: "/w/app.txt", content: Buffer.from("version 2\n") }] }));
    const second = store.beginEffect(
      begin({
        logicalOpId: "op-2",
        callId: "call_2",
        tool: "send_message",
        filesBefore: [{ path: "/w/big.bin", content: Buffer.from("ignored"), skipped: "larger than 8 MiB" }],
      }),
    );
    const rows = store.fileSnapshots([anchorId]);
    expect(rows.map((r) => [r.effectId, r.path, r.content?.toString() ?? null, r.skipped ?? null])).toEqual([
      [second.effect.id, "/w/big.bin", null, "larger than 8 MiB"],
      [first.effect.id, "/w/app.txt", "version 1\n", null],
      [first.effect.id, "/w/new.txt", null, null],
    ]);
    expect(rows[0]).toMatchObject({ nodeId: anchorId, tool: "send_message" });
    expect(store.fileSnapshots(["another-node"])).toEqual([]);
    expect(store.fileSnapshots([])).toEqual([]);

    store.deleteSession(sessionId);
    expect(store.db.prepare("SELECT count(*) AS n FROM effect_snapshots").get()).toEqual({ n: 0 });
  });
});
