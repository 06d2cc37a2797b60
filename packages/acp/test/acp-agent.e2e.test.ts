// Layer (a): the ACP agent in process, driven by the SDK's own client, over a real IrisProcess
// whose model is testkit's fake LLM server.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import { StoreConversation } from "@iris/host";
import { storeOf } from "@iris/host/testing";
import { type FakeLlm, startFakeLlm, type TempDir, tempDir } from "@iris/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { agentText, editor, ofKind, waitFor } from "./harness.js";

let fake: FakeLlm;
let dir: TempDir;
beforeEach(async () => {
  fake = await startFakeLlm();
  dir = tempDir("iris-acp");
});
afterEach(async () => {
  await fake.close();
  dir.cleanup();
});

const terminal = (command: string) => ({ name: "terminal", arguments: { command } });

describe("iris as an ACP agent (in process)", () => {
  it("initialize advertises what is real", async () => {
    const e = editor(fake, dir);
    await e.run(async (ctx) => {
      const init = await ctx.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: {},
      });
      expect(init.protocolVersion).toBe(acp.PROTOCOL_VERSION);
      expect(init.agentCapabilities?.loadSession).toBe(true);
      expect(init.agentCapabilities?.promptCapabilities).toEqual({
        image: false,
        audio: false,
        embeddedContext: true,
      });
      expect(Object.keys(init.agentCapabilities?.sessionCapabilities ?? {}).sort()).toEqual([
        "close",
        "fork",
        "list",
        "resume",
        "status",
        "title",
      ]);
      expect(JSON.stringify(init._meta)).toMatch(/queued and answered in order/);
    });
  });

  it("runs a prompt with a tool call and streams text, tool calls and commands", async () => {
    const e = editor(fake, dir);
    writeFileSync(join(dir.path, "work", "notes.txt"), "alpha\nbeta\n");
    fake.enqueue(
      { toolCalls: [{ name: "read_file", arguments: { path: "notes.txt" } }], reasoning: "look first" },
      { text: "beta is on line 2", chunkSize: 4 },
    );
    await e.run(async (ctx) => {
      const s = await ctx.buildSession(e.work).start();
      const res = await s.prompt("where is beta?");
      expect(res.stopReason).toBe("end_turn");
      const mine = e.updates.filter((u) => u.sessionId === s.sessionId);
      expect(agentText(mine)).toBe("beta is on line 2");
      expect(ofKind(mine, "agent_message_chunk").length).toBeGreaterThan(1);
      const [call] = ofKind(mine, "tool_call");
      expect(call).toMatchObject({ kind: "read", status: "pending", title: "Read notes.txt" });
      expect(call?.locations?.[0]?.path).toBe(join(e.work, "notes.txt"));
      const done = ofKind(mine, "tool_call_update").filter((u) => u.toolCallId === call?.toolCallId);
      expect(done.map((u) => u.status)).toEqual(["in_progress", "completed"]);
      expect(JSON.stringify(done[1]?.content)).toContain("2|beta");
      await waitFor(e.updates, (all) => ofKind(all, "available_commands_update").length > 0);
      const names = ofKind(e.updates, "available_commands_update")[0]?.availableCommands.map((c) => c.name);
      expect(names).toEqual(["compress", "usage", "model", "new", "help"]);
      // An ordinary Iris session, source acp, with the editor's cwd.
      const row = await storeOf(await e.iris).findSession(s.sessionId);
      expect(row).toMatchObject({ source: "acp", cwd: e.work });
    });
    expect(fake.violations).toEqual([]);
  });

  it("shows reasoning as thought chunks and a diff for write_file", async () => {
    const e = editor(fake, dir);
    writeFileSync(join(dir.path, "work", "a.txt"), "old\n");
    fake.enqueue(
      {
        reasoning: "thinking hard",
        toolCalls: [{ name: "write_file", arguments: { path: "a.txt", content: "new\n" } }],
      },
      { text: "written" },
    );
    await e.run(async (ctx) => {
      const s = await ctx.buildSession(e.work).start();
      await s.prompt("rewrite a.txt");
      const call = ofKind(e.updates, "tool_call")[0];
      expect(call).toMatchObject({ kind: "edit", title: "Write a.txt" });
      expect(call?.content?.[0]).toEqual({
        type: "diff",
        path: join(e.work, "a.txt"),
        oldText: "old\n",
        newText: "new\n",
      });
      expect(readFileSync(join(e.work, "a.txt"), "utf8")).toBe("new\n");
    });
  });

  it("sends plan updates from the todo tool and a usage update per model call", async () => {
    const e = editor(fake, dir);
    fake.enqueue(
      {
        toolCalls: [
          {
            name: "todo",
            arguments: {
              todos: [
                { id: "1", content: "read", status: "done" },
                { id: "2", content: "write", status: "in_progress" },
              ],
            },
          },
        ],
        usage: { input: 120, output: 30 },
      },
      { text: "planned" },
    );
    await e.run(async (ctx) => {
      const s = await ctx.buildSession(e.work).start();
      await s.prompt("plan it");
      expect(ofKind(e.updates, "plan")[0]?.entries).toEqual([
        { content: "read", priority: "medium", status: "completed" },
        { content: "write", priority: "medium", status: "in_progress" },
      ]);
      const usage = ofKind(e.updates, "usage_update");
      expect(usage.length).toBe(2);
      expect(usage[0]).toMatchObject({ used: 150 });
      expect(usage[0]?.size).toBeGreaterThan(0);
      expect(ofKind(e.updates, "tool_call")[0]?.kind).toBe("think");
    });
  });

  it("asks the editor before a dangerous command; rejecting one call rejects only it", async () => {
    const e = editor(fake, dir, {
      permission: (req) => ({
        outcome: {
          outcome: "selected",
          optionId: JSON.stringify(req.toolCall).includes("junk") ? "reject_once" : "allow_once",
        },
      }),
    });
    mkdirSync(join(dir.path, "work", "junk"));
    fake.enqueue({ toolCalls: [terminal("rm -rf junk"), terminal("echo still-here")] }, { text: "done" });
    await e.run(async (ctx) => {
      const s = await ctx.buildSession(e.work).start();
      const res = await s.prompt("clean up");
      expect(res.stopReason).toBe("end_turn");
      expect(e.permissions).toHaveLength(1);
      const asked = e.permissions[0];
      const calls = ofKind(e.updates, "tool_call");
      expect(asked?.toolCall.toolCallId).toBe(calls[0]?.toolCallId);
      expect(asked?.options.map((o) => o.kind)).toEqual([
        "allow_once",
        "allow_always",
        "allow_always",
        "reject_once",
        "reject_always",
      ]);
      const final = (id: string | undefined) =>
        ofKind(e.updates, "tool_call_update")
          .filter((u) => u.toolCallId === id)
          .at(-1)?.status;
      expect(final(calls[0]?.toolCallId)).toBe("failed");
      expect(final(calls[1]?.toolCallId)).toBe("completed");
      expect(existsSync(join(e.work, "junk"))).toBe(true);
      expect(fake.requests.at(-1)?.rawBody.toString()).toContain("still-here");
    });
  });

  it("allow once runs the command; reject for this session stops asking", async () => {
    let answer = "allow_once";
    const e = editor(fake, dir, {
      permission: () => ({ outcome: { outcome: "selected", optionId: answer } }),
    });
    mkdirSync(join(dir.path, "work", "junk"));
    mkdirSync(join(dir.path, "work", "junk2"));
    fake.enqueue({ toolCalls: [terminal("rm -rf junk")] }, { text: "removed" });
    await e.run(async (ctx) => {
      const s = await ctx.buildSession(e.work).start();
      await s.prompt("remove junk");
      expect(existsSync(join(e.work, "junk"))).toBe(false);
      answer = "reject_always";
      fake.enqueue({ toolCalls: [terminal("rm -rf junk2")] }, { text: "no" });
      await s.prompt("remove junk2");
      fake.enqueue({ toolCalls: [terminal("rm -rf junk2")] }, { text: "no again" });
      await s.prompt("remove junk2 again");
      expect(e.permissions).toHaveLength(2); // the third was rejected from memory, not asked
      expect(existsSync(join(e.work, "junk2"))).toBe(true);
    });
  });

  it("cancel interrupts a running tool promptly and closes its tool call", async () => {
    const e = editor(fake, dir);
    fake.enqueue({ toolCalls: [terminal("sleep 30")] });
    await e.run(async (ctx) => {
      const s = await ctx.buildSession(e.work).start();
      const pending = s.prompt("wait a while");
      await waitFor(e.updates, (all) =>
        ofKind(all, "tool_call_update").some((u) => u.status === "in_progress"),
      );
      const started = Date.now();
      await ctx.notify(acp.methods.agent.session.cancel, { sessionId: s.sessionId });
      const res = await pending;
      expect(res.stopReason).toBe("cancelled");
      expect(Date.now() - started).toBeLessThan(15_000); // not the 30 s of the command
      const last = ofKind(e.updates, "tool_call_update").at(-1);
      expect(last?.status).toBe("failed");
    });
  });

  it("cancel releases a pending permission request and answers cancelled", async () => {
    let released = false;
    const e = editor(fake, dir, {
      permission: (_req, signal) =>
        new Promise((resolve) => {
          signal.addEventListener("abort", () => {
            released = true;
            resolve({ outcome: { outcome: "cancelled" } });
          });
        }),
    });
    mkdirSync(join(dir.path, "work", "junk"));
    fake.enqueue({ toolCalls: [terminal("rm -rf junk")] });
    await e.run(async (ctx) => {
      const s = await ctx.buildSession(e.work).start();
      const pending = s.prompt("clean");
      await waitFor(e.updates, () => e.permissions.length > 0);
      await ctx.notify(acp.methods.agent.session.cancel, { sessionId: s.sessionId });
      expect((await pending).stopReason).toBe("cancelled");
      await waitFor(e.updates, () => released);
      expect(existsSync(join(e.work, "junk"))).toBe(true);
      const statuses = ofKind(e.updates, "tool_call_update").map((u) => u.status);
      expect(statuses.at(-1)).toBe("failed");
    });
  });

  it("queues a prompt sent during a turn and answers both in order", async () => {
    const e = editor(fake, dir);
    fake.enqueue({ text: "first answer" }, { text: "second answer" });
    await e.run(async (ctx) => {
      const s = await ctx.buildSession(e.work).start();
      const order: string[] = [];
      const a = s.prompt("one").then((r) => order.push(`one:${r.stopReason}`));
      const b = s.prompt("two").then((r) => order.push(`two:${r.stopReason}`));
      await Promise.all([a, b]);
      expect(order).toEqual(["one:end_turn", "two:end_turn"]);
      expect(agentText(e.updates)).toBe("first answersecond answer");
      const bodies = fake.requests.map((r) => r.rawBody.toString());
      expect(bodies[1]).toContain("first answer"); // the second turn saw the first's answer
    });
  });

  it("reads and writes files through the editor when it offers fs", async () => {
    const buffers = new Map<string, string>();
    const e = editor(fake, dir, {
      buffers,
      capabilities: { fs: { readTextFile: true, writeTextFile: true } },
    });
    const file = join(dir.path, "work", "draft.txt");
    writeFileSync(file, "on disk\n");
    buffers.set(file, "unsaved buffer\n");
    fake.enqueue(
      { toolCalls: [{ name: "read_file", arguments: { path: "draft.txt" } }] },
      {
        toolCalls: [
          { name: "patch", arguments: { path: "draft.txt", old_string: "unsaved", new_string: "edited" } },
        ],
      },
      { text: "ok" },
    );
    await e.run(async (ctx) => {
      const s = await ctx.buildSession(e.work).start();
      await s.prompt("edit the draft");
      expect(fake.requests[1]?.rawBody.toString()).toContain("unsaved buffer");
      expect(buffers.get(file)).toBe("edited buffer\n");
      expect(readFileSync(file, "utf8")).toBe("on disk\n"); // the edit landed in the editor
    });
  });

  it("answers slash commands locally and switches approval modes and models", async () => {
    const e = editor(fake, dir);
    mkdirSync(join(dir.path, "work", "junk"));
    fake.enqueue({ toolCalls: [terminal("rm -rf junk")] }, { text: "gone" });
    await e.run(async (ctx) => {
      const s = await ctx.buildSession(e.work).start();
      expect(s.modes?.currentModeId).toBe("manual");
      const model = s.newSessionResponse.configOptions?.find((o) => o.id === "model");
      expect(model).toMatchObject({ category: "model", type: "select", currentValue: "custom/fake-model" });
      await s.prompt("/usage");
      expect(agentText(e.updates)).toMatch(/0 API calls/);
      expect(fake.requests).toHaveLength(0);
      await ctx.request(acp.methods.agent.session.setMode, { sessionId: s.sessionId, modeId: "off" });
      await waitFor(e.updates, (all) => ofKind(all, "current_mode_update").length > 0);
      await s.prompt("remove junk");
      expect(e.permissions).toHaveLength(0);
      expect(existsSync(join(e.work, "junk"))).toBe(false);
      const set = await ctx.request(acp.methods.agent.session.setConfigOption, {
        sessionId: s.sessionId,
        configId: "model",
        value: "custom/other-model",
      });
      expect(set.configOptions.find((o) => o.id === "model")).toMatchObject({
        currentValue: "custom/other-model",
      });
      await expect(
        ctx.request(acp.methods.agent.session.setMode, { sessionId: s.sessionId, modeId: "reckless" }),
      ).rejects.toMatchObject({ code: -32602 });
      await s.prompt("/model custom/third-model");
      expect(agentText(e.updates)).toContain("Now using custom/third-model.");
      const picked = ofKind(e.updates, "config_option_update")
        .at(-1)
        ?.configOptions.find((o) => o.id === "model");
      expect(picked).toMatchObject({ currentValue: "custom/third-model" });
    });
  });

  it("loads a stored session with its history replayed, lists and closes sessions", async () => {
    const e = editor(fake, dir);
    fake.enqueue({ toolCalls: [terminal("echo hi")] }, { text: "said hi" });
    await e.run(async (ctx) => {
      const s = await ctx.buildSession(e.work).start();
      await s.prompt("say hi");
      const listed = await ctx.request(acp.methods.agent.session.list, {});
      expect(listed.sessions.map((x) => x.sessionId)).toContain(s.sessionId);
      expect(listed.sessions[0]).toMatchObject({ cwd: e.work });
      await ctx.request(acp.methods.agent.session.close, { sessionId: s.sessionId });
      await expect(
        ctx.request(acp.methods.agent.session.prompt, {
          sessionId: s.sessionId,
          prompt: [{ type: "text", text: "x" }],
        }),
      ).rejects.toMatchObject({ code: -32002 });
      e.updates.length = 0;
      await ctx.request(acp.methods.agent.session.load, {
        sessionId: s.sessionId,
        cwd: e.work,
        mcpServers: [],
      });
      const kinds = e.updates.filter((u) => u.sessionId === s.sessionId).map((u) => u.update.sessionUpdate);
      expect(kinds.slice(0, 3)).toEqual(["user_message_chunk", "tool_call", "agent_message_chunk"]);
      expect(ofKind(e.updates, "tool_call")[0]).toMatchObject({ status: "completed", kind: "execute" });
      fake.enqueue({ text: "continued" });
      const res = await ctx.request(acp.methods.agent.session.prompt, {
        sessionId: s.sessionId,
        prompt: [{ type: "text", text: "go on" }],
      });
      expect(res.stopReason).toBe("end_turn");
      expect(fake.requests.at(-1)?.rawBody.toString()).toContain("said hi");
      await expect(
        ctx.request(acp.methods.agent.session.load, {
          sessionId: "no-such-session",
          cwd: e.work,
          mcpServers: [],
        }),
      ).rejects.toMatchObject({ code: -32002 });
      // A chat's and an API key's sessions are not the editor's: loaded or resumed, not found.
      const iris = await e.iris;
      for (const source of ["gateway:irc", "api:alice"]) {
        const other = await storeOf(iris).createSession({ source, cwd: e.work });
        await storeOf(iris).appendNode(other.id, {
          kind: "message",
          message: { role: "user", content: "theirs" },
        });
        for (const method of [acp.methods.agent.session.load, acp.methods.agent.session.resume])
          await expect(
            ctx.request(method, { sessionId: other.id, cwd: e.work, mcpServers: [] }),
          ).rejects.toMatchObject({ code: -32002 });
        expect(await (await StoreConversation.open(storeOf(iris), other.id)).history()).toHaveLength(1);
      }
    });
  });

  it("walks the configured fallback chain like the CLI", async () => {
    const e = editor(fake, dir, {
      config: `fallback_providers:\n  - {provider: custom, model: fake-fallback, base_url: "${fake.baseUrl}"}\n`,
    });
    fake.setHandler((req) =>
      (req.body as { model?: string }).model === "fake-model"
        ? { fault: "status", status: 402, body: { error: { message: "quota" } } }
        : { text: "from the fallback" },
    );
    await e.run(async (ctx) => {
      const s = await ctx.buildSession(e.work).start();
      expect((await s.prompt("hello")).stopReason).toBe("end_turn");
      expect(agentText(e.updates)).toContain("from the fallback");
      expect(fake.requests.map((r) => (r.body as { model?: string }).model)).toEqual([
        "fake-model",
        "fake-fallback",
      ]);
    });
  });

  it("keeps the editor's session id when /compress moves the conversation on", async () => {
    const e = editor(fake, dir, { config: "compression: {protect_last_n: 2}\n" });
    await e.run(async (ctx) => {
      const s = await ctx.buildSession(e.work).start();
      for (const word of ["one", "two", "three", "four", "five"]) {
        fake.enqueue({ text: `answer ${word} ${"lorem ipsum ".repeat(300)}`, chunkSize: 1000 });
        await s.prompt(word);
      }
      fake.enqueue({ text: "## Summary\nwe counted to five" });
      await s.prompt("/compress");
      expect(agentText(e.updates)).toMatch(/Compressed \(phase/);
      const iris = await e.iris;
      const tip = (await storeOf(iris).listSessions({ source: "acp", limit: 10 }))[0];
      expect(tip?.id).not.toBe(s.sessionId);
      if (!tip) throw new Error("no session");
      expect(tip.parentSessionId).toBe(s.sessionId);
      const listed = await ctx.request(acp.methods.agent.session.list, {});
      expect(listed.sessions.map((x) => x.sessionId)).toEqual([tip.id]);
      fake.enqueue({ text: "after compression" });
      expect((await s.prompt("three")).stopReason).toBe("end_turn");
      await ctx.request(acp.methods.agent.session.load, {
        sessionId: s.sessionId,
        cwd: e.work,
        mcpServers: [],
      });
      fake.enqueue({ text: "after load" });
      const res = await ctx.request(acp.methods.agent.session.prompt, {
        sessionId: s.sessionId,
        prompt: [{ type: "text", text: "four" }],
      });
      expect(res.stopReason).toBe("end_turn");
      expect(fake.requests.at(-1)?.rawBody.toString()).toContain("after compression");
      expect((await (await StoreConversation.open(storeOf(iris), tip.id)).history()).at(-1)).toMatchObject({
        role: "assistant",
      });
    });
  });

  it("resumes a closed session without replay and goes on with its history", async () => {
    const e = editor(fake, dir);
    fake.enqueue({ text: "remember 42" }, { text: "it was 42" });
    await e.run(async (ctx) => {
      const s = await ctx.buildSession(e.work).start();
      await s.prompt("remember a number");
      await ctx.request(acp.methods.agent.session.close, { sessionId: s.sessionId });
      e.updates.length = 0;
      const resumed = await ctx.request(acp.methods.agent.session.resume, {
        sessionId: s.sessionId,
        cwd: e.work,
      });
      expect(resumed.modes?.currentModeId).toBe("manual");
      expect(ofKind(e.updates, "user_message_chunk")).toHaveLength(0);
      const res = await ctx.request(acp.methods.agent.session.prompt, {
        sessionId: s.sessionId,
        prompt: [{ type: "text", text: "which number?" }],
      });
      expect(res.stopReason).toBe("end_turn");
      expect(fake.requests.at(-1)?.rawBody.toString()).toContain("remember 42");
    });
  });

  it("lists sessions in pages with a cursor, filtered by cwd", async () => {
    const e = editor(fake, dir);
    await e.run(async (ctx) => {
      const iris = await e.iris;
      for (let i = 0; i < 53; i++) await storeOf(iris).createSession({ source: "acp", cwd: e.work });
      await storeOf(iris).createSession({ source: "acp", cwd: "/elsewhere" });
      await storeOf(iris).createSession({ source: "cli", cwd: e.work });
      const first = await ctx.request(acp.methods.agent.session.list, { cwd: e.work });
      expect(first.sessions).toHaveLength(50);
      expect(first.nextCursor).toBeTruthy();
      const second = await ctx.request(acp.methods.agent.session.list, {
        cwd: e.work,
        cursor: first.nextCursor,
      });
      expect(second.sessions).toHaveLength(3);
      expect(second.nextCursor ?? undefined).toBeUndefined();
      const ids = new Set([...first.sessions, ...second.sessions].map((x) => x.sessionId));
      expect(ids.size).toBe(53);
      const all = await ctx.request(acp.methods.agent.session.list, {});
      expect(all.sessions.length + (all.nextCursor ? 1 : 0)).toBeGreaterThan(50);
    });
  });

  it("withdraws the editor's permission dialog when the approval times out", async () => {
    let withdrawn = false;
    const e = editor(fake, dir, {
      config: "approvals: {timeout_seconds: 1}\n",
      permission: (_req, signal) =>
        new Promise((resolve) => {
          signal.addEventListener("abort", () => {
            withdrawn = true;
            resolve({ outcome: { outcome: "cancelled" } });
          });
        }),
    });
    mkdirSync(join(dir.path, "work", "junk"));
    fake.enqueue({ toolCalls: [terminal("rm -rf junk")] }, { text: "not removed" });
    await e.run(async (ctx) => {
      const s = await ctx.buildSession(e.work).start();
      expect((await s.prompt("clean")).stopReason).toBe("end_turn");
      await waitFor(e.updates, () => withdrawn);
      expect(existsSync(join(e.work, "junk"))).toBe(true);
      expect(ofKind(e.updates, "tool_call_update").at(-1)?.status).toBe("failed");
    });
  });

  it("asks the clarify tool's question as a form, or as a choice dialog", async () => {
    const asked: string[] = [];
    const e = editor(fake, dir, {
      capabilities: { elicitation: { form: {} } },
      elicit: (req) => {
        asked.push(req.message);
        return { action: "accept", content: { answer: "blue" } };
      },
    });
    fake.enqueue(
      { toolCalls: [{ name: "clarify", arguments: { question: "Which colour?" } }] },
      { text: "blue it is" },
    );
    await e.run(async (ctx) => {
      const s = await ctx.buildSession(e.work).start();
      await s.prompt("paint it");
      expect(asked).toEqual(["Which colour?"]);
      expect(fake.requests[1]?.rawBody.toString()).toContain("The user answered: blue");
    });
  });

  it("offers a clarify question's choices through a permission dialog when there is no form", async () => {
    const e = editor(fake, dir, {
      permission: (req) => ({
        outcome: {
          outcome: "selected",
          optionId: req.options.find((o) => o.name === "tabs")?.optionId ?? "skip",
        },
      }),
    });
    fake.enqueue(
      {
        toolCalls: [
          { name: "clarify", arguments: { question: "Indent with?", choices: ["spaces", "tabs"] } },
        ],
      },
      { toolCalls: [{ name: "clarify", arguments: { question: "Anything else?" } }] },
      { text: "ok" },
    );
    await e.run(async (ctx) => {
      const s = await ctx.buildSession(e.work).start();
      await s.prompt("format it");
      expect(e.permissions[0]?.toolCall.title).toBe("Indent with?");
      expect(e.permissions[0]?.toolCall.toolCallId).toBe(ofKind(e.updates, "tool_call")[0]?.toolCallId);
      expect(fake.requests[1]?.rawBody.toString()).toContain("The user answered: tabs");
      expect(e.permissions).toHaveLength(1); // the free-form one cannot be shown without a form
      expect(fake.requests[2]?.rawBody.toString()).toContain("make a reasonable assumption");
    });
  });
});
