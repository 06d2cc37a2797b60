// Layer (b): `iris acp` spawned the way an editor starts it and driven by the SDK's own client
// against testkit's fake LLM server; every stdout line must be a JSON-RPC message.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { SessionNotification } from "@agentclientprotocol/sdk";
import * as acp from "@agentclientprotocol/sdk";
import type { FakeLlm } from "@iris/testkit";
import { beforeEach, describe, expect, it } from "vitest";
import { configFor, ofKind, waitFor } from "./harness.js";
import { assertOnlyJsonRpc, handshake, IRIS_BIN, rpc, spawnAcp, spawnFixture } from "./spawn.js";

const fx = spawnFixture();
let fake: FakeLlm;
let home: string;
let work: string;
beforeEach(() => {
  fake = fx.fake();
  home = fx.home();
  work = fx.work();
  writeFileSync(join(home, "config.yaml"), configFor(fake));
});

describe("iris acp (spawned, SDK client)", () => {
  it("serves an editor session end to end", async () => {
    const agent = spawnAcp({ IRIS_HOME: home }, work);
    const updates: SessionNotification[] = [];
    const buffers = new Map<string, string>();
    let permissionAnswer = "allow_once";
    const client = acp
      .client({ name: "spawn-test" })
      .onNotification(acp.methods.client.session.update, ({ params }) => {
        updates.push(params);
      })
      .onRequest(acp.methods.client.session.requestPermission, () => ({
        outcome: { outcome: "selected", optionId: permissionAnswer },
      }))
      .onRequest(acp.methods.client.fs.readTextFile, ({ params }) => {
        const text = buffers.get(params.path);
        if (text === undefined) throw acp.RequestError.resourceNotFound(params.path);
        return { content: text };
      })
      .onRequest(acp.methods.client.fs.writeTextFile, ({ params }) => {
        buffers.set(params.path, params.content);
        return {};
      });
    mkdirSync(join(work, "junk1"));
    mkdirSync(join(work, "junk2"));
    const draft = join(work, "draft.md");
    writeFileSync(draft, "disk\n");
    buffers.set(draft, "buffer\n");

    await client.connectWith(agent.stream(), async (ctx) => {
      const init = await ctx.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: false },
      });
      expect(init.agentCapabilities?.loadSession).toBe(true);
      const s = await ctx.buildSession(work).start();

      // A prompt with tools: fs read and write through the editor.
      fake.enqueue(
        { toolCalls: [{ name: "read_file", arguments: { path: "draft.md" } }] },
        { toolCalls: [{ name: "write_file", arguments: { path: "draft.md", content: "from iris\n" } }] },
        { text: "draft updated" },
      );
      expect((await s.prompt("update the draft")).stopReason).toBe("end_turn");
      expect(fake.requests[1]?.rawBody.toString()).toContain("buffer");
      expect(buffers.get(draft)).toBe("from iris\n");
      expect(readFileSync(draft, "utf8")).toBe("disk\n");

      // A permission request, allowed, then one rejected.
      fake.enqueue(
        { toolCalls: [{ name: "terminal", arguments: { command: "rm -rf junk1" } }] },
        { text: "gone" },
      );
      await s.prompt("remove junk1");
      expect(existsSync(join(work, "junk1"))).toBe(false);
      permissionAnswer = "reject_once";
      fake.enqueue(
        { toolCalls: [{ name: "terminal", arguments: { command: "rm -rf junk2" } }] },
        { text: "kept" },
      );
      await s.prompt("remove junk2");
      expect(existsSync(join(work, "junk2"))).toBe(true);

      // Cancel mid-tool.
      fake.enqueue({ toolCalls: [{ name: "terminal", arguments: { command: "sleep 30" } }] });
      const long = s.prompt("wait");
      await waitFor(
        updates,
        (all) =>
          ofKind(all, "tool_call").some((c) => c.title.includes("sleep 30")) &&
          ofKind(all, "tool_call_update").some(
            (u) => u.status === "in_progress" && u.toolCallId === ofKind(all, "tool_call").at(-1)?.toolCallId,
          ),
      );
      await ctx.notify(acp.methods.agent.session.cancel, { sessionId: s.sessionId });
      expect((await long).stopReason).toBe("cancelled");
      for (const call of ofKind(updates, "tool_call")) {
        const last = ofKind(updates, "tool_call_update")
          .filter((u) => u.toolCallId === call.toolCallId)
          .at(-1);
        expect(["completed", "failed"]).toContain(last?.status);
      }

      // list, load with replay, unknown id.
      const listed = await ctx.request(acp.methods.agent.session.list, { cwd: work });
      expect(listed.sessions.map((x) => x.sessionId)).toEqual([s.sessionId]);
      updates.length = 0;
      await ctx.request(acp.methods.agent.session.load, {
        sessionId: s.sessionId,
        cwd: work,
        mcpServers: [],
      });
      expect(
        ofKind(updates, "user_message_chunk").map((u) => (u.content.type === "text" ? u.content.text : "")),
      ).toEqual(["update the draft", "remove junk1", "remove junk2", "wait"]);
      await expect(
        ctx.request(acp.methods.agent.session.load, { sessionId: "nope", cwd: work, mcpServers: [] }),
      ).rejects.toMatchObject({ code: -32002 });
    });
    expect(await agent.end()).toBe(0);
    assertOnlyJsonRpc(agent.lines);
    expect(fake.violations).toEqual([]);
    // An ordinary Iris session: the CLI lists it, source acp.
    const listed = spawnSync(process.execPath, [IRIS_BIN, "sessions", "list"], {
      env: { PATH: process.env.PATH ?? "", HOME: home, IRIS_HOME: home, COLUMNS: "200" },
      encoding: "utf8",
    });
    expect(listed.stdout).toMatch(/ acp +custom\/fake-model +update the draft/);
  });

  it("answers garbage on stdin with -32700 and keeps going", async () => {
    const agent = spawnAcp({ IRIS_HOME: home }, work);
    agent.send("this is not json");
    const parseError = await agent.next((m) => (m.error as { code?: number } | undefined)?.code === -32700);
    expect(parseError.id).toBeNull();
    agent.send(
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 1 } }),
    );
    const init = await agent.next((m) => m.id === 1);
    expect(init.result).toMatchObject({ protocolVersion: 1 });
    expect(await agent.end()).toBe(0);
    assertOnlyJsonRpc(agent.lines);
  });

  it("tells the editor at load what a crash left uncertain, and closes the call in the replay", async () => {
    const first = spawnAcp({ IRIS_HOME: home }, work);
    const sessionId = String((await handshake(first, work)).result?.sessionId);
    fake.enqueue({ toolCalls: [{ name: "terminal", arguments: { command: "sleep 30" } }] });
    first.send(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 2,
        method: "session/prompt",
        params: { sessionId, prompt: [{ type: "text", text: "run it" }] },
      }),
    );
    await first.next(
      (m) =>
        m.method === "session/update" &&
        (m.params as { update: { status?: string } }).update.status === "in_progress",
    );
    first.child.kill("SIGKILL"); // the editor's agent dies mid-tool
    await first.end();

    const second = spawnAcp({ IRIS_HOME: home }, work);
    await rpc(second, 0, "initialize", { protocolVersion: 1 });
    const loaded = await rpc(second, 1, "session/load", { sessionId, cwd: work, mcpServers: [] });
    expect(loaded.error).toBeUndefined();
    const updates = second.lines
      .map((l) => JSON.parse(l) as { method?: string; params?: { update: Record<string, unknown> } })
      .filter((m) => m.method === "session/update")
      .map((m) => m.params?.update ?? {});
    const call = updates.find((u) => u.sessionUpdate === "tool_call");
    expect(call).toMatchObject({ kind: "execute", status: "failed" });
    const notes = updates
      .filter((u) => u.sessionUpdate === "agent_message_chunk")
      .map((u) => JSON.stringify(u.content))
      .join("");
    expect(notes).toMatch(/Note: .*may or may not have taken effect/);
    expect(await second.end()).toBe(0);
    assertOnlyJsonRpc(first.lines);
    assertOnlyJsonRpc(second.lines);
  });

  it("stops a running turn and closes cleanly on SIGTERM", async () => {
    const agent = spawnAcp({ IRIS_HOME: home }, work);
    const sessionId = String((await handshake(agent, work)).result?.sessionId);
    fake.enqueue({ toolCalls: [{ name: "terminal", arguments: { command: "sleep 30" } }] });
    agent.send(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 2,
        method: "session/prompt",
        params: { sessionId, prompt: [{ type: "text", text: "wait" }] },
      }),
    );
    await agent.next(
      (m) =>
        m.method === "session/update" &&
        (m.params as { update: { status?: string } }).update.status === "in_progress",
    );
    agent.child.kill("SIGTERM"); // stdin stays open: the signal alone must end it
    expect(await agent.exited()).toBe(143);
    assertOnlyJsonRpc(agent.lines);
    // The turn recorded its own end before the store closed: the next agent replays the call with
    // the result the interrupted command gave, not as one a crash left without a result.
    const next = spawnAcp({ IRIS_HOME: home }, work);
    await rpc(next, 0, "initialize", { protocolVersion: 1 });
    expect(
      (await rpc(next, 1, "session/load", { sessionId, cwd: work, mcpServers: [] })).error,
    ).toBeUndefined();
    const replayed = next.lines.find((l) => l.includes('"sessionUpdate":"tool_call"')) ?? "";
    expect(replayed).toContain("[interrupted; the command and its child processes were killed]");
    expect(replayed).not.toContain("process stopped");
    expect(await next.end()).toBe(0);
  });
});
