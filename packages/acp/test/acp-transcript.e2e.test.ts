// Layer (c): hand-written NDJSON, exactly as an editor sends it (not produced by the SDK), played
// against the spawned `iris acp`; every stdout line is parsed as JSON-RPC. Catches wire drift the
// SDK on both ends would hide. Also the stdout purity test: a broken config, debug logging and a
// noisy shell command must not put a single non-JSON byte on stdout.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { FakeLlm } from "@iris/testkit";
import { beforeEach, describe, expect, it } from "vitest";
import { configFor } from "./harness.js";
import { assertOnlyJsonRpc, handshake, type RpcMessage, rpc, spawnAcp, spawnFixture } from "./spawn.js";

const TRANSCRIPTS = join(dirname(fileURLToPath(import.meta.url)), "transcripts");

const fx = spawnFixture();
let fake: FakeLlm;
let home: string;
let work: string;
beforeEach(() => {
  fake = fx.fake();
  home = fx.home();
  work = fx.work();
});

type Msg = RpcMessage;

describe("iris acp with raw NDJSON", () => {
  it("plays an editor's transcript", async () => {
    writeFileSync(join(home, "config.yaml"), configFor(fake));
    writeFileSync(join(work, "README.md"), "# Project Zeta\nreadme-marker\n");
    fake.enqueue({ text: "A summary." });
    const agent = spawnAcp({ IRIS_HOME: home }, work);
    const vars: Record<string, string> = { $WORK: work };
    const responses = new Map<number, Msg>();
    for (const raw of readFileSync(join(TRANSCRIPTS, "zed-session.ndjson"), "utf8").split("\n")) {
      if (!raw.trim()) continue;
      const line = raw.replace(/\$[A-Z]+/g, (v) => vars[v] ?? v);
      const sent = JSON.parse(line) as Msg;
      agent.send(line);
      if (typeof sent.id !== "number") continue;
      const reply = (await agent.next((m) => m.id === sent.id)) as Msg;
      responses.set(sent.id, reply);
      if (sent.method === "session/new") vars.$SESSION = String(reply.result?.sessionId);
    }
    expect(responses.get(0)?.result).toMatchObject({
      protocolVersion: 1,
      agentCapabilities: { loadSession: true, promptCapabilities: { embeddedContext: true } },
    });
    expect(vars.$SESSION).toMatch(/\S/);
    expect(responses.get(2)?.result).toEqual({ stopReason: "end_turn" });
    expect(responses.get(3)?.result).toEqual({});
    const listed = (responses.get(4)?.result?.sessions ?? []) as { sessionId: string }[];
    expect(listed.map((s) => s.sessionId)).toEqual([vars.$SESSION]);
    expect(responses.get(5)?.error?.code).toBe(-32002);
    expect(responses.get(6)?.result).toEqual({});
    // The model saw the linked file's text and the editor's unsaved buffer.
    const body = fake.requests[0]?.rawBody.toString() ?? "";
    expect(body).toContain("readme-marker");
    expect(body).toContain("const unsavedEdit = 1;");
    expect(await agent.end()).toBe(0);
    assertOnlyJsonRpc(agent.lines);
    const updates = agent.lines.map((l) => JSON.parse(l) as Msg).filter((m) => m.method === "session/update");
    const kinds = updates.map(
      (m) => (m.params as { update: { sessionUpdate: string } }).update.sessionUpdate,
    );
    expect(kinds).toContain("agent_message_chunk");
    expect(kinds).toContain("current_mode_update");
  });

  it("keeps stdout pure with a broken config and debug logging", async () => {
    writeFileSync(join(home, "config.yaml"), "model: {provider: custom, name: fake-model}\nmodle_typo: 1\n");
    const agent = spawnAcp({ IRIS_HOME: home, IRIS_LOG_LEVEL: "debug" }, work);
    expect((await rpc(agent, 0, "initialize", { protocolVersion: 1 })).result).toMatchObject({
      protocolVersion: 1,
    });
    const failed = await rpc(agent, 1, "session/new", { cwd: work, mcpServers: [] });
    expect(failed.error?.message).toMatch(/modle_typo/);
    // Not "Authentication required": Iris offers no auth methods, the config is what to fix.
    expect(failed.error?.code).toBe(-32603);
    expect(failed.error?.message).toMatch(/^Iris is not set up: /);
    expect(await agent.end()).toBe(0);
    assertOnlyJsonRpc(agent.lines);
    expect(agent.stderr()).toMatch(/modle_typo/);
  });

  it("says what to set when no provider is configured", async () => {
    const agent = spawnAcp({ IRIS_HOME: home }, work);
    const failed = await handshake(agent, work);
    expect(failed.error?.code).toBe(-32603);
    expect(failed.error?.data).toEqual({ kind: "config_error", config: join(home, "config.yaml") });
    expect(failed.error?.message).toMatch(/model\.provider and model\.name/);
    expect(failed.error?.message).toContain(join(home, "config.yaml"));
    expect(await agent.end()).toBe(0);
    assertOnlyJsonRpc(agent.lines);
  });

  it("keeps stdout pure while a noisy shell command runs under debug logging", async () => {
    writeFileSync(
      join(home, "config.yaml"),
      configFor(fake, 'logging: {level: debug}\napprovals: {mode: "off"}\n'),
    );
    const noisy = "echo NOISE-OUT; echo NOISE-ERR >&2; node -e \"console.log('NODE-NOISE')\"";
    fake.enqueue({ toolCalls: [{ name: "terminal", arguments: { command: noisy } }] }, { text: "quiet now" });
    const agent = spawnAcp({ IRIS_HOME: home }, work);
    const created = await handshake(agent, work);
    const sessionId = String(created.result?.sessionId);
    const answered = await rpc(agent, 2, "session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "make noise" }],
    });
    expect(answered.result).toEqual({ stopReason: "end_turn" });
    expect(await agent.end()).toBe(0);
    assertOnlyJsonRpc(agent.lines);
    // The noise reached the model (inside a JSON frame at most), never stdout as a bare line.
    expect(fake.requests[1]?.rawBody.toString()).toContain("NODE-NOISE");
  });
});
