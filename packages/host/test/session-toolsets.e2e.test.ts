// A session limited to some toolsets (OpenSessionOptions.toolsets, a webhook route's): the model is
// offered only their tools, the system prompt names no other, a call to any other runs nothing,
// and a subagent gets no more than its parent.
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import type { FakeLlm, RecordedRequest, Step, TempDir } from "@iris/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { IrisProcess } from "../src/app/process.js";
import type { Session } from "../src/app/session.js";
import { openProcess, textOf } from "./process.js";

let fake: FakeLlm;
let dir: TempDir;
let iris: IrisProcess;
let close: () => Promise<void>;

type ChatMessage = { role: string; content?: unknown };
type Body = { messages: ChatMessage[]; tools?: { function: { name: string } }[] };

/** `CALL <json>`: the model calls that tool once, then says what came back. */
function reply(req: RecordedRequest): Step {
  const messages = (req.body as Body).messages;
  const lastUser = messages.map((m) => m.role).lastIndexOf("user");
  if (textOf(messages[lastUser]).startsWith("child goal"))
    return messages.at(-1)?.role === "tool"
      ? { text: `child got ${textOf(messages.at(-1))}` }
      : { toolCalls: [{ name: "terminal", arguments: { command: "touch child-marker" } }] };
  if (lastUser === messages.length - 1)
    return { toolCalls: [JSON.parse(textOf(messages[lastUser]).replace(/^CALL /, ""))] };
  return { text: `RESULT ${textOf(messages.at(-1))}` };
}
const call = (name: string, args: unknown) => `CALL ${JSON.stringify({ name, arguments: args })}`;

/** A request's body; a request that never came fails the test here. */
function bodyOf(req: RecordedRequest | undefined): Body {
  if (!req) throw new Error("the model request was not made");
  return req.body as Body;
}
const offered = (req: RecordedRequest | undefined) => (bodyOf(req).tools ?? []).map((t) => t.function.name);

function open(toolsets: string[], cwd: string): Session {
  mkdirSync(cwd, { recursive: true });
  const s = iris.openSession({
    source: "gateway:webhooks",
    cwd,
    toolsets,
    route: { provider: "custom", model: "fake-model", baseUrl: fake.baseUrl, apiMode: "chat_completions" },
  });
  s.startSession();
  return s;
}

describe("a session limited to toolsets", () => {
  beforeEach(async () => {
    ({ fake, dir, iris, close } = await openProcess("iris-toolsets"));
    fake.setHandler(reply);
  });
  afterEach(() => close());

  it("with none, offers no tool, names none, and runs nothing the model calls", async () => {
    const cwd = join(dir.path, "none");
    const s = open([], cwd);
    const r = await s.send(call("terminal", { command: "touch marker" }));
    expect(offered(fake.requests[0])).toEqual([]);
    expect(r.text).toContain("unknown tool 'terminal'");
    expect(existsSync(join(cwd, "marker"))).toBe(false);
    // The unlimited process menu had it: the limit is the session's.
    expect(iris.tools.menu.tools.some((t) => t.name === "terminal")).toBe(true);
  });

  it("with file, offers only the file tools; the system prompt does not offer the terminal", async () => {
    const cwd = join(dir.path, "file");
    const s = open(["file"], cwd);
    const r = await s.send(call("write_file", { path: "note.txt", content: "ok" }));
    const names = offered(fake.requests[0]);
    expect(names).toContain("write_file");
    expect(names).not.toContain("terminal");
    const kinds = new Set(
      iris.tools.registry
        .list()
        .filter((t) => names.includes(t.name))
        .map((t) => t.toolset),
    );
    expect([...kinds]).toEqual(["file"]);
    expect(r.text).toMatch(/RESULT/);
    expect(existsSync(join(cwd, "note.txt"))).toBe(true);
    const system = textOf(bodyOf(fake.requests[0]).messages[0]);
    expect(system).not.toMatch(/\bterminal\b/);
  });

  it("a subagent of a limited session gets no tool its parent was not offered", async () => {
    const cwd = join(dir.path, "deleg");
    const s = open(["delegation"], cwd);
    const r = await s.send(call("delegate_task", { goal: "child goal: run it", toolsets: ["terminal"] }));
    const child = fake.requests.find((q) =>
      textOf((q.body as Body).messages.at(-1)).startsWith("child goal"),
    );
    expect(offered(child)).not.toContain("terminal");
    expect(r.text).toContain("unknown tool 'terminal'");
    expect(existsSync(join(cwd, "child-marker"))).toBe(false);
  });
});
