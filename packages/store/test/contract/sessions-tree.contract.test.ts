// Sessions and the node tree (SPEC D2, D3) through the state interface, on every engine.
import type { Message } from "@iris/llm";
import { expect, it } from "vitest";
import { describeEngines } from "./engines.js";
import { assistant, user } from "./messages.js";

const texts = (ms: { message: Message | null }[]) =>
  ms.map((n) =>
    n.message?.role === "user"
      ? String(n.message.content)
      : n.message?.role === "assistant"
        ? n.message.parts.map((p) => ("text" in p ? p.text : "")).join("")
        : "",
  );

describeEngines("sessions", (ctx) => {
  it("creates, finds, lists newest first and filters by source, folder and end reason", async () => {
    const { store } = ctx;
    const a = await store.createSession({
      source: "cli",
      cwd: "/w",
      title: "first",
      model: "m",
      provider: "p",
    });
    const b = await store.createSession({ source: "acp", cwd: "/w" });
    const c = await store.createSession({ source: "acp", cwd: "/elsewhere" });
    expect(await store.getSession(a.id)).toMatchObject({
      source: "cli",
      cwd: "/w",
      title: "first",
      endedAt: null,
    });
    expect(await store.findSession("nope")).toBeUndefined();
    await expect(store.getSession("nope")).rejects.toMatchObject({ code: "not_found" });
    expect((await store.listSessions()).map((s) => s.id)).toEqual([c.id, b.id, a.id]);
    expect((await store.listSessions({ source: "acp", limit: 1 })).map((s) => s.id)).toEqual([c.id]);
    expect(
      (await store.sessionPage({ source: "acp", cwd: "/w", offset: 0, limit: 10 })).map((s) => s.id),
    ).toEqual([b.id]);
    await store.endSession(c.id, "compressed");
    const page = await store.sessionPage({ source: "acp", notEndedBy: "compressed", offset: 0, limit: 10 });
    expect(page.map((s) => s.id)).toEqual([b.id]);
    expect((await store.getSession(c.id)).endReason).toBe("compressed");
  });

  it("finds a session by a prefix or a tail of its id, and its children", async () => {
    const { store } = ctx;
    const parent = await store.createSession({ source: "cli" });
    const child = await store.createSession({ source: "delegate", parentSessionId: parent.id });
    expect((await store.sessionsWithPrefix(parent.id.slice(0, 30))).map((s) => s.id)).toContain(parent.id);
    expect((await store.sessionsWithTail(parent.id.slice(-8))).map((s) => s.id)).toEqual([parent.id]);
    expect(await store.sessionsWithTail("abc")).toEqual([]);
    expect((await store.childSessions(parent.id)).map((s) => s.id)).toEqual([child.id]);
    await expect(store.createSession({ source: "cli", parentSessionId: "missing" })).rejects.toMatchObject({
      code: "not_found",
    });
  });

  it("sets title, prompt and model, and refuses a missing session", async () => {
    const { store } = ctx;
    const s = await store.createSession({ source: "cli" });
    await store.setSessionTitle(s.id, "named");
    await store.setSystemPrompt(s.id, "You are Iris.");
    await store.setSessionModel(s.id, "m2", "p2");
    expect(await store.getSession(s.id)).toMatchObject({
      title: "named",
      systemPrompt: "You are Iris.",
      model: "m2",
      provider: "p2",
    });
    await expect(store.setSessionTitle("missing", "x")).rejects.toMatchObject({ code: "not_found" });
    await expect(store.createSession({ source: "" })).rejects.toMatchObject({ code: "invalid_input" });
  });

  it("deletes a session with its rows, but not one another session continues", async () => {
    const { store } = ctx;
    const old = await store.createSession({ source: "cli" });
    await store.appendNode(old.id, { kind: "message", message: user("hi") });
    const child = await store.startSession({ session: { source: "cli", parentSessionId: old.id } });
    await expect(store.deleteSession(old.id)).rejects.toThrow(new RegExp(child.id));
    await store.deleteSession(child.id);
    await store.deleteSession(old.id);
    expect(await store.findSession(old.id)).toBeUndefined();
  });
});

describeEngines("the node tree", (ctx) => {
  it("chains appends after the active leaf and reads the active path root first", async () => {
    const { store } = ctx;
    const s = await store.createSession({ source: "cli" });
    expect(await store.activePath(s.id)).toEqual([]);
    expect(await store.activeLeaf(s.id)).toBeNull();
    const u = await store.appendNode(s.id, { kind: "message", message: user("u1") });
    const [a, u2] = await store.appendNodes(s.id, [
      { kind: "message", message: assistant("a1") },
      { kind: "message", message: user("u2") },
    ]);
    expect(a?.parentId).toBe(u.id);
    expect(u2?.parentId).toBe(a?.id);
    expect(texts(await store.activePath(s.id))).toEqual(["u1", "a1", "u2"]);
    expect((await store.getNode(a!.id)).usage).toMatchObject({ inputTokens: 10, outputTokens: 2 });
    expect((await store.getNode(a!.id)).origin).toEqual({
      provider: "p",
      apiMode: "chat_completions",
      model: "m",
    });
    expect((await store.pathToRoot(u.id)).map((n) => n.id)).toEqual([u.id]);
  });

  it("branches: an explicit parent, branchFrom, an edited user message; every tip listed", async () => {
    const { store } = ctx;
    const s = await store.createSession({ source: "cli" });
    const u1 = await store.appendNode(s.id, { kind: "message", message: user("u1") });
    const a1 = await store.appendNode(s.id, { kind: "message", message: assistant("a1") });
    const u2 = await store.appendNode(s.id, { kind: "message", message: user("u2") });
    const edited = await store.editUserMessage(u2.id, user("u2 again"));
    expect(edited.parentId).toBe(a1.id);
    expect(texts(await store.activePath(s.id))).toEqual(["u1", "a1", "u2 again"]);
    await store.branchFrom(u1.id);
    const other = await store.appendNode(s.id, { kind: "message", message: assistant("a1 other") });
    expect(texts(await store.activePath(s.id))).toEqual(["u1", "a1 other"]);
    expect((await store.listBranches(s.id)).map((n) => n.id)).toEqual([u2.id, edited.id, other.id]);
    await store.setActiveLeaf(s.id, u2.id);
    expect(texts(await store.activePath(s.id))).toEqual(["u1", "a1", "u2"]);
    await store.clearActiveLeaf(s.id);
    expect(await store.activePath(s.id)).toEqual([]);
    const root = await store.appendNode(s.id, { kind: "message", message: user("fresh") });
    expect(root.parentId).toBeNull();
    await expect(store.editUserMessage(a1.id, user("x"))).rejects.toMatchObject({ code: "invalid_input" });
  });

  it("keeps the leaf where it was for a node appended without moving it", async () => {
    const { store } = ctx;
    const s = await store.createSession({ source: "cli" });
    const u = await store.appendNode(s.id, { kind: "message", message: user("u1") });
    await store.appendNode(s.id, { kind: "note", text: "side note", setActive: false });
    expect((await store.activeLeaf(s.id))?.id).toBe(u.id);
  });

  it("refuses a parent from another session and a compaction with a parent; nothing half-written", async () => {
    const { store } = ctx;
    const a = await store.createSession({ source: "cli" });
    const b = await store.createSession({ source: "cli" });
    const inA = await store.appendNode(a.id, { kind: "message", message: user("a") });
    await expect(
      store.appendNode(b.id, { kind: "message", message: user("b"), parentId: inA.id }),
    ).rejects.toMatchObject({
      code: "invalid_input",
    });
    await expect(
      store.appendNodes(b.id, [
        { kind: "message", message: user("kept?") },
        { kind: "compaction", text: "s", parentId: inA.id },
      ]),
    ).rejects.toMatchObject({ code: "invalid_input" });
    expect(await store.activePath(b.id)).toEqual([]);
    await expect(store.appendNode("missing", { kind: "message", message: user("x") })).rejects.toMatchObject({
      code: "not_found",
    });
  });

  it("pages a branch from the root and expands compactions to what they summarised", async () => {
    const { store } = ctx;
    const old = await store.createSession({ source: "cli" });
    await store.appendNode(old.id, { kind: "message", message: user("u1") });
    const a1 = await store.appendNode(old.id, { kind: "message", message: assistant("a1") });
    const child = await store.startSession({
      session: { source: "cli", parentSessionId: old.id },
      nodes: [
        { kind: "compaction", text: "summary", expandsTo: a1.id, parentId: null },
        { kind: "message", message: user("after") },
      ],
      ends: { sessionId: old.id, reason: "compressed" },
    });
    expect((await store.getSession(old.id)).endReason).toBe("compressed");
    const path = await store.activePath(child.id);
    expect(path.map((n) => n.kind)).toEqual(["compaction", "message"]);
    const expanded = await store.expandCompaction(path[0]!.id);
    expect(expanded.stopped).toBeNull();
    expect(texts(expanded.nodes)).toEqual(["u1", "a1"]);
    await expect(store.expandCompaction(path[1]!.id)).rejects.toMatchObject({ code: "invalid_input" });
    const tip = path[1]!;
    const first = await store.branchPage(child.id, tip.id, 0, 1);
    expect(first?.map((n) => n.id)).toEqual([path[0]!.id]);
    const next = await store.branchPage(child.id, tip.id, first![0]!.seq, 10);
    expect(next?.map((n) => n.id)).toEqual([tip.id]);
    expect(await store.branchPage(old.id, tip.id, 0, 10)).toBeUndefined();
  });

  it("writes a new session with its history and the end of the old one together, or nothing", async () => {
    const { store } = ctx;
    const old = await store.createSession({ source: "cli" });
    await expect(
      store.startSession({
        session: { source: "cli", parentSessionId: old.id },
        nodes: [{ kind: "message", message: user("x"), parentId: "no-such-node" }],
        ends: { sessionId: old.id, reason: "compressed" },
      }),
    ).rejects.toBeTruthy();
    expect((await store.getSession(old.id)).endedAt).toBeNull();
    expect(await store.childSessions(old.id)).toEqual([]);
  });
});
