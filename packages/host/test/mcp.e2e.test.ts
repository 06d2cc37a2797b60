// MCP servers from config.yaml end to end: the agent, talking to the fake LLM server, is offered
// server-everything's tools and calls one (approval asked, receipt left); a server that fails to
// start is reported and does not block the chat; `iris mcp`-style probing and doctor see both.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  type FakeLlm,
  type RecordedRequest,
  type Step,
  startFakeLlm,
  type TempDir,
  tempDir,
} from "@iris/testkit";
import { everythingStdio } from "@iris/tools";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { checkMcpServers, probeMcpServers } from "../src/app/mcp-probe.js";
import { IrisProcess } from "../src/app/process.js";
import { loadProfile, type Profile } from "../src/config/index.js";
import { storeOf } from "../src/testing.js";
import { startSession } from "./process.js";

// Real server processes start slowly on a loaded machine: generous limits, no timing in the assertions.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

let fake: FakeLlm;
let dir: TempDir;
let iris: IrisProcess | undefined;

beforeEach(async () => {
  fake = await startFakeLlm();
  dir = tempDir("iris-mcp-e2e");
});
afterEach(async () => {
  await iris?.close();
  iris = undefined;
  await fake.close();
  dir.cleanup();
});

const BROKEN = {
  command: process.execPath,
  args: ["-e", "console.error('cannot reach the API'); process.exit(1)"],
};

function profileWith(mcpServers: Record<string, unknown>): Profile {
  // JSON is YAML: no quoting trouble with paths.
  writeFileSync(join(dir.path, "config.yaml"), JSON.stringify({ mcp_servers: mcpServers }));
  writeFileSync(join(dir.path, ".env"), "ECHO_PREFIX=from-dotenv\n", { mode: 0o600 });
  const p = loadProfile({ env: { IRIS_HOME: dir.path }, registerSecret: () => {} });
  if (!p.ok) throw new Error(JSON.stringify(p.errors));
  return p;
}

type ChatMessage = { role: string; content?: unknown };
function reply(req: RecordedRequest): Step {
  const messages = (req.body as { messages: ChatMessage[] }).messages;
  const last = messages.at(-1);
  if (last?.role === "user")
    return {
      toolCalls: [
        { name: "mcp__everything__echo", arguments: { message: "ping over MCP" } },
        { name: "mcp__everything__toggle-simulated-logging", arguments: {} },
      ],
    };
  return {
    text: `RESULT ${typeof last?.content === "string" ? last.content : JSON.stringify(last?.content)}`,
  };
}

describe("MCP servers in a session", () => {
  it("the agent calls an MCP tool end to end; a broken server is reported and does not block the chat", async () => {
    const profile = profileWith({ everything: everythingStdio(), broken: BROKEN });
    iris = await IrisProcess.open({ profile, platform: "cli", env: {} });
    const byName = Object.fromEntries(iris.tools.mcp.status().map((s) => [s.name, s]));
    expect(byName.everything?.state).toBe("ready");
    // Reported, and tried again with backoff in the background.
    expect(byName.broken?.state).toMatch(/restarting|starting/);
    expect(byName.broken?.lastError).toContain("cannot reach the API");

    fake.setHandler(reply);
    const session = await startSession(iris, fake, join(dir.path, "work"));
    const asked: string[] = [];
    session.subscribe((e) => {
      if (e.name !== "approval_requested") return;
      asked.push(e.payload.request.patternKey);
      session.answer(e.payload.requestId, "once");
    });
    const result = await session.send("please echo");
    expect(result.reason).toBe("natural");
    // echo is read-only; the toggle may change things, so it is asked about and leaves a receipt.
    expect(asked).toEqual(["mcp:everything:toggle-simulated-logging"]);

    const first = fake.requests[0]?.body as { tools?: { function: { name: string; parameters: unknown } }[] };
    const offered = first.tools?.find((t) => t.function.name === "mcp__everything__echo");
    expect(offered?.function.parameters).toMatchObject({ type: "object", properties: { message: {} } });
    expect(JSON.stringify(fake.requests[1]?.body)).toContain("ping over MCP");

    const receipts = await storeOf(iris).listEffects();
    expect(receipts.map((r) => [r.tool, r.status])).toEqual([
      ["mcp__everything__toggle-simulated-logging", "completed"],
    ]);
  });

  it("tools/list_changed reaches a running session at its next message; the frozen prompt stays", async () => {
    const fixture = fileURLToPath(new URL("./fixtures/dynamic-mcp-server.mjs", import.meta.url));
    const profile = profileWith({ dyn: { command: process.execPath, args: [fixture] } });
    iris = await IrisProcess.open({ profile, platform: "cli", env: {} });
    const proc = iris;
    fake.setHandler((req) => {
      const messages = (req.body as { messages: ChatMessage[] }).messages;
      const last = messages.at(-1);
      if (last?.role === "user" && last.content === "add")
        return { toolCalls: [{ name: "mcp__dyn__add_tool", arguments: {} }] };
      return { text: "ok" };
    });
    const session = await startSession(proc, fake, join(dir.path, "work"));
    session.subscribe((e) => {
      if (e.name === "approval_requested") session.answer(e.payload.requestId, "once");
    });
    await session.send("add");
    await vi.waitFor(() => expect(proc.tools.menu.tools.map((t) => t.name)).toContain("mcp__dyn__new_tool"), {
      timeout: 60_000,
    });
    await session.send("again");
    type Body = { messages: ChatMessage[]; tools?: { function: { name: string } }[] };
    const bodies = fake.requests.map((r) => r.body as Body);
    const names = (b: Body | undefined) => (b?.tools ?? []).map((t) => t.function.name);
    expect(names(bodies[0])).not.toContain("mcp__dyn__new_tool");
    expect(names(bodies.at(-1))).toContain("mcp__dyn__new_tool");
    expect(names(bodies.at(-1))).toContain("mcp__dyn__add_tool");
    // The system prompt is the same bytes before and after the change.
    expect(bodies.at(-1)?.messages[0]).toEqual(bodies[0]?.messages[0]);
  });

  it("probing reports each server's state and tools, and doctor fails on the broken one", async () => {
    const profile = profileWith({ everything: everythingStdio(), broken: BROKEN });
    const { statuses } = await probeMcpServers(profile);
    expect(statuses.map((s) => [s.name, s.state])).toEqual([
      ["broken", "failed"],
      ["everything", "ready"],
    ]);
    const findings = await checkMcpServers(profile);
    expect(findings.find((f) => f.subject === "MCP server broken")).toMatchObject({ status: "fail" });
    expect(findings.find((f) => f.subject === "MCP server everything")?.message).toMatch(
      /\d+ tools \(stdio\)/,
    );
  });
});
