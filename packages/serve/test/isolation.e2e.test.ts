// Isolation (SPEC E3): stored sessions belong to the API key that made them, each session works
// in its own directory, dangerous commands are denied by default, and 50 clients at once never
// see each other's history. Session identity is explicit or random, never derived from content.
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ALICE, BOB, type Harness, sentBodies, startHarness } from "./helpers.js";

let h: Harness;
afterEach(async () => {
  await h.close();
});

/** The parts of a completion or error body these tests read. */
interface ChatBody {
  choices: { message: { content: string } }[];
  error: { code: string };
}

async function chat(messages: unknown[], opts: { key?: string; session?: string } = {}) {
  const res = await fetch(`${h.baseURL}/chat/completions`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${opts.key ?? ALICE}`,
      "content-type": "application/json",
      ...(opts.session ? { "X-Iris-Session-Id": opts.session } : {}),
    },
    body: JSON.stringify({ model: "iris", messages }),
  });
  return {
    status: res.status,
    session: res.headers.get("x-iris-session-id"),
    body: (await res.json()) as ChatBody,
  };
}

describe("stored sessions", () => {
  it("X-Iris-Session-Id: new starts one, its id continues it, and another key cannot", async () => {
    h = await startHarness();
    h.fake.enqueue({ text: "hello alice" }, { text: "again" });
    const first = await chat(
      [
        { role: "system", content: "Call me Al." },
        { role: "user", content: "I am alice" },
      ],
      { session: "new" },
    );
    expect(first.status).toBe(200);
    expect(first.session).toMatch(/\S/);
    const second = await chat([{ role: "user", content: "who am I?" }], { session: first.session ?? "" });
    expect(second.body.choices[0]?.message.content).toBe("again");
    expect(sentBodies(h.fake)[1]).toContain("I am alice");
    // The client's system text was frozen into the new session's prompt.
    expect(sentBodies(h.fake)[1]).toContain("Call me Al.");
    const bob = await chat([{ role: "user", content: "show me" }], {
      key: BOB,
      session: first.session ?? "",
    });
    expect(bob.status).toBe(404);
    expect(bob.body.error.code).toBe("session_not_found");
    expect(h.fake.requests).toHaveLength(2);
  });

  it("two identical first messages get two different sessions (identity is never derived from content)", async () => {
    h = await startHarness();
    h.fake.setHandler(() => ({ text: "ok" }));
    const msgs = [
      { role: "system", content: "same" },
      { role: "user", content: "same" },
    ];
    const a = await chat(msgs, { session: "new" });
    const b = await chat(msgs, { session: "new" });
    expect(a.session).not.toBe(b.session);
  });

  it("each session works in its own directory under the profile", async () => {
    h = await startHarness();
    h.fake.enqueue(
      { toolCalls: [{ name: "terminal", arguments: { command: "pwd && echo mine > mine.txt" } }] },
      { text: "a" },
      { toolCalls: [{ name: "terminal", arguments: { command: "pwd && ls" } }] },
      { text: "b" },
    );
    const a = await chat([{ role: "user", content: "write" }], { session: "new" });
    const b = await chat([{ role: "user", content: "look" }], { key: BOB, session: "new" });
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    const sessionsDir = join(h.home.path, "serve", "sessions");
    const dirs = readdirSync(sessionsDir);
    expect(dirs).toHaveLength(2);
    expect(dirs.filter((d) => existsSync(join(sessionsDir, d, "mine.txt")))).toHaveLength(1);
    // Bob's `ls` did not list alice's file.
    const bobToolResult = sentBodies(h.fake)[3] ?? "";
    expect(bobToolResult).not.toContain("mine.txt");
  });

  it("a stateless request's directory is reused only when no tool wrote into it", async () => {
    h = await startHarness();
    const requestsDir = join(h.home.path, "serve", "requests");
    h.fake.enqueue({ text: "one" }, { text: "two" });
    await chat([{ role: "user", content: "hi" }]);
    await chat([{ role: "user", content: "hi again" }]);
    // No tool ran: the second request got the first one's (still empty) directory.
    const [first] = readdirSync(requestsDir);
    expect(readdirSync(requestsDir)).toEqual([first]);
    h.fake.enqueue(
      { toolCalls: [{ name: "terminal", arguments: { command: "echo secret > left.txt && pwd" } }] },
      { text: "wrote" },
      { toolCalls: [{ name: "terminal", arguments: { command: "pwd && ls -a" } }] },
      { text: "looked" },
    );
    await chat([{ role: "user", content: "write" }]);
    await chat([{ role: "user", content: "look" }]);
    // The directory written into is gone; the next request's `ls` saw none of it.
    expect(existsSync(join(requestsDir, first ?? "", "left.txt"))).toBe(false);
    expect(sentBodies(h.fake)[3]).toContain(first);
    expect(sentBodies(h.fake)[5]).not.toContain("left.txt");
    expect(sentBodies(h.fake)[5]).not.toContain(first);
  });

  it("dangerous commands are denied by default (serve.approvals: deny)", async () => {
    h = await startHarness();
    h.fake.enqueue(
      { toolCalls: [{ name: "terminal", arguments: { command: "rm -rf ./important" } }] },
      { text: "could not" },
    );
    const res = await chat([{ role: "user", content: "clean up" }]);
    expect(res.body.choices[0]?.message.content).toBe("could not");
    const result = JSON.parse(sentBodies(h.fake)[1] ?? "{}").messages.find(
      (m: { role: string }) => m.role === "tool",
    );
    expect(String(result.content)).toMatch(/denied|not approved|blocked/i);
  });
});

describe("concurrency", () => {
  it("50 clients with distinct sessions at once: every history holds only its own messages", async () => {
    h = await startHarness({ serve: ["  max_concurrent_per_key: 100", "  requests_per_minute: 1000"] });
    // The fake answers with every marker it finds in the request: a leak would show up there.
    h.fake.setHandler((req) => {
      const markers = [...new Set(req.rawBody.toString("utf8").match(/marker-\d+/g) ?? [])].sort();
      return { text: `seen ${markers.join(" ")}` };
    });
    const ids = Array.from({ length: 50 }, (_, i) => i);
    const firsts = await Promise.all(
      ids.map((i) =>
        chat([{ role: "user", content: `I am marker-${i}` }], { session: "new", key: i % 2 ? BOB : ALICE }),
      ),
    );
    for (const [i, r] of firsts.entries())
      expect(r.body.choices[0]?.message.content).toBe(`seen marker-${i}`);
    const seconds = await Promise.all(
      ids.map((i) =>
        chat([{ role: "user", content: "what did I say?" }], {
          session: firsts[i]?.session ?? "",
          key: i % 2 ? BOB : ALICE,
        }),
      ),
    );
    for (const [i, r] of seconds.entries())
      expect(r.body.choices[0]?.message.content).toBe(`seen marker-${i}`);
    // And 50 stateless requests at once: each sees only what its client sent.
    const stateless = await Promise.all(
      ids.map((i) => chat([{ role: "user", content: `stateless marker-${i}` }])),
    );
    for (const [i, r] of stateless.entries())
      expect(r.body.choices[0]?.message.content).toBe(`seen marker-${i}`);
    expect(h.fake.violations).toEqual([]);
  }, 180_000); // 150 turns on a shared 2-core machine: slow, never timing-dependent
});
