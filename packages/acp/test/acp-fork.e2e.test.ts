// Layer (a): the unstable session methods Iris offers — session/fork, session/status and
// session/set_title — and the titles it reports on its own (session_info_update, session/list),
// driven by the SDK's own client (its `/unstable` entry) over a real IrisProcess.
import * as acp from "@agentclientprotocol/sdk/unstable";
import { type FakeLlm, startFakeLlm, type TempDir, tempDir } from "@iris/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { agentText, editor, ofKind } from "./harness.js";

let fake: FakeLlm;
let dir: TempDir;
beforeEach(async () => {
  fake = await startFakeLlm();
  dir = tempDir("iris-acp-fork");
});
afterEach(async () => {
  await fake.close();
  dir.cleanup();
});

const bodies = () => fake.requests.map((r) => r.rawBody.toString());
const code = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (err: { code?: number }) => err.code,
  );

describe("fork, status and titles (unstable ACP)", () => {
  it("forks a conversation: the copy goes on its own way, the original is untouched", async () => {
    const e = editor(fake, dir);
    fake.enqueue({ text: "the plan is A" }, { text: "plan B in the fork" }, { text: "still plan A" });
    await e.run(async (ctx) => {
      const s = await ctx.buildSession(e.work).start();
      await s.prompt("Make a plan");
      const fork = await ctx.request(acp.methods.agent.session.fork, {
        sessionId: s.sessionId,
        cwd: e.work,
        mcpServers: [],
      });
      expect(fork.sessionId).not.toBe(s.sessionId);
      expect(fork.modes?.currentModeId).toBe("manual");
      expect(fork.configOptions?.[0]?.id).toBe("model");

      const forked = await ctx.request(acp.methods.agent.session.prompt, {
        sessionId: fork.sessionId,
        prompt: [{ type: "text", text: "Try another plan" }],
      });
      expect(forked.stopReason).toBe("end_turn");
      expect(bodies()[1]).toContain("Make a plan");
      expect(bodies()[1]).toContain("the plan is A");

      await s.prompt("Go on with the first");
      expect(bodies()[2]).toContain("the plan is A");
      expect(bodies()[2]).not.toContain("Try another plan");
      // Same frozen system prompt: the fork's requests start as the original's did.
      const system = (b: string) => JSON.stringify((JSON.parse(b) as { messages: unknown[] }).messages[0]);
      expect(system(bodies()[1] ?? "{}")).toBe(system(bodies()[0] ?? "{}"));

      // Both are ordinary ACP sessions, listed, the fork titled after its original.
      const listed = await ctx.request(acp.methods.agent.session.list, {});
      const titles = new Map(listed.sessions.map((x) => [x.sessionId, x.title]));
      expect(titles.get(s.sessionId)).toBe("Make a plan");
      expect(titles.get(fork.sessionId)).toBe("Make a plan (fork)");

      expect(
        await code(ctx.request(acp.methods.agent.session.fork, { sessionId: "nope", cwd: e.work })),
      ).toBe(-32002);
    });
  });

  it("reports open, saved and unknown sessions without touching them", async () => {
    const e = editor(fake, dir);
    fake.enqueue({ text: "hi" });
    await e.run(async (ctx) => {
      const s = await ctx.buildSession(e.work).start();
      await s.prompt("hello");
      const status = (sessionId: string) => ctx.request(acp.methods.agent.session.status, { sessionId });
      expect((await status(s.sessionId)).status).toBe("open");
      await ctx.request(acp.methods.agent.session.close, { sessionId: s.sessionId });
      expect((await status(s.sessionId)).status).toBe("saved");
      // status has no side effects: the session is still not open on this connection.
      expect((await status(s.sessionId)).status).toBe("saved");
      expect(await code(status("no-such-session"))).toBe(-32002);
    });
  });

  it("titles a session from its first prompt, and keeps a title the editor sets", async () => {
    const e = editor(fake, dir);
    fake.enqueue({ text: "one" }, { text: "two" });
    await e.run(async (ctx) => {
      const s = await ctx.buildSession(e.work).start();
      await s.prompt("# Refactor the parser\nmore details");
      const info = ofKind(e.updates, "session_info_update");
      expect(info.at(-1)?.title).toBe("Refactor the parser");
      expect(info.at(-1)?.updatedAt).toMatch(/^\d{4}-\d\d-\d\dT/);

      const set = await ctx.request(acp.methods.agent.session.setTitle, {
        sessionId: s.sessionId,
        title: "  Parser   work  ",
      });
      expect(set.title).toBe("Parser work");
      await s.prompt("another prompt");
      expect(ofKind(e.updates, "session_info_update").at(-1)?.title).toBe("Parser work");
      const listed = await ctx.request(acp.methods.agent.session.list, {});
      expect(listed.sessions.find((x) => x.sessionId === s.sessionId)?.title).toBe("Parser work");

      expect(
        await code(ctx.request(acp.methods.agent.session.setTitle, { sessionId: s.sessionId, title: "  " })),
      ).toBe(-32602);
      expect(
        await code(ctx.request(acp.methods.agent.session.setTitle, { sessionId: "nope", title: "x" })),
      ).toBe(-32002);
      expect(agentText(e.updates)).toBe("onetwo");

      // A loaded session tells the editor its title too.
      await ctx.request(acp.methods.agent.session.close, { sessionId: s.sessionId });
      e.updates.length = 0;
      await ctx.request(acp.methods.agent.session.load, {
        sessionId: s.sessionId,
        cwd: e.work,
        mcpServers: [],
      });
      expect(ofKind(e.updates, "session_info_update").map((u) => u.title)).toContain("Parser work");
    });
  });
});
