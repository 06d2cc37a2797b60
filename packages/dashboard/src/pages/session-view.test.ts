// A session's conversation follows one branch by link (issue "branches … follow to parent and
// child"): an edited user message makes two branches; each link shows that branch's path from the
// root and never the other's messages; a foreign node id shows every message with a note.
import { DashboardData, loadProfile, openStore } from "@iris/host";
import { tempDir } from "@iris/testkit";
import { afterEach, describe, expect, it } from "vitest";
import type { DashboardDeps } from "../deps.js";
import { sessionView } from "./session-view.js";

const dirs: ReturnType<typeof tempDir>[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.cleanup();
});

async function branchedSession(extra = 0) {
  const dir = tempDir("iris-dash-branch");
  dirs.push(dir);
  const path = `${dir.path}/state.db`;
  const store = openStore(path);
  const s = await store.createSession({ source: "cli" });
  const say = (role: "user" | "assistant", text: string) =>
    store.appendNode(s.id, {
      kind: "message",
      message:
        role === "user"
          ? { role, content: text }
          : {
              role,
              parts: [{ type: "text", text }],
              origin: { provider: "p", apiMode: "chat_completions", model: "m" },
              usage: {
                inputTokens: 0,
                outputTokens: 0,
                cacheReadTokens: 0,
                cacheWriteTokens: 0,
                reasoningTokens: 0,
              },
              stopReason: "end",
            },
    });
  await say("user", "root question");
  await say("assistant", "root answer");
  const asked = await say("user", "first wording");
  const oldTip = await say("assistant", "answer to the first wording");
  await store.editUserMessage(asked.id, { role: "user", content: "second wording" });
  let newTip = await say("assistant", "answer to the second wording");
  for (let i = 0; i < extra; i++) newTip = await say(i % 2 ? "assistant" : "user", `later message ${i}`);
  await store.close();
  const profile = loadProfile({ env: { IRIS_HOME: dir.path }, registerSecret: () => {} });
  if (!profile.ok) throw new Error(JSON.stringify(profile.errors));
  expect(profile.home.paths.db).toBe(path);
  const data = await DashboardData.open(profile);
  return { data, id: s.id, oldTip: oldTip.id, newTip: newTip.id };
}

describe("session view branches", () => {
  it("links each branch and shows one branch's path from the root", async () => {
    const { data, id, oldTip, newTip } = await branchedSession();
    try {
      const deps = { data } as DashboardDeps;
      const s = await data.findSession(id);
      if (!s) throw new Error("no session");
      const all = (await sessionView(deps, s, 0, "csrf")).value;
      expect(all).toContain(`href="/sessions/${id}?branch=${oldTip}"`);
      expect(all).toContain(`href="/sessions/${id}?branch=${newTip}"`);
      expect(all).toContain("first wording");
      expect(all).toContain("second wording");
      const old = (await sessionView(deps, s, 0, "csrf", oldTip)).value;
      expect(old).toContain("root answer");
      expect(old).toContain("answer to the first wording");
      expect(old).not.toContain("second wording");
      const current = (await sessionView(deps, s, 0, "csrf", newTip)).value;
      expect(current).toContain("answer to the second wording");
      expect(current).not.toContain("first wording");
      expect(current).toMatch(/active \(the next turn continues here\) · shown/);
      const foreign = (await sessionView(deps, s, 0, "csrf", "no-such-node")).value;
      expect(foreign).toContain("No branch no-such-node");
      expect(foreign).toContain("first wording");
    } finally {
      await data.close();
    }
  });
});

describe("session view: a long branch, a page at a time", () => {
  it("follows 'Later messages' on the branch until every message was shown once", async () => {
    const { data, id, newTip } = await branchedSession(450);
    try {
      const s = await data.findSession(id);
      if (!s) throw new Error("no session");
      const seen: string[] = [];
      let after = 0;
      for (let page = 0; page < 10; page++) {
        const body = (await sessionView({ data } as DashboardDeps, s, after, "csrf", newTip)).value;
        expect(body).not.toContain("first wording");
        seen.push(...[...body.matchAll(/later message (\d+)/g)].map((m) => m[1] ?? ""));
        const next = /href="\/sessions\/[^"?]+\?after=(\d+)&amp;branch=([^"]+)"/.exec(body);
        if (!next) break;
        expect(next[2]).toBe(newTip);
        after = Number(next[1]);
      }
      expect(seen).toEqual(Array.from({ length: 450 }, (_, i) => String(i)));
    } finally {
      await data.close();
    }
  });
});
