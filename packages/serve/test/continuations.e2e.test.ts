// Turns that continue (SPEC E3): a client tool call in a stored session answered by the next
// request, the Responses `conversation` name, per-route model ids, and approvals switched off.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { storeOf } from "@iris/host/testing";
import { tempDir } from "@iris/testkit";
import OpenAI from "openai";
import { afterEach, describe, expect, it } from "vitest";
import { BOB, type Harness, sentBodies, startHarness } from "./helpers.js";

let h: Harness;
afterEach(async () => {
  await h.close();
});

const lookup = {
  type: "function" as const,
  function: { name: "lookup", parameters: { type: "object", properties: { q: { type: "string" } } } },
};

describe("continuations", () => {
  it("a stored session keeps the client's tool call open; the next request's tool message answers it", async () => {
    h = await startHarness();
    h.fake.enqueue({ toolCalls: [{ name: "lookup", arguments: { q: "x" } }] }, { text: "found it" });
    const client = h.client();
    const { data: first, response } = await client.chat.completions
      .create(
        { model: "iris", messages: [{ role: "user", content: "look x up" }], tools: [lookup] },
        { headers: { "X-Iris-Session-Id": "new" } },
      )
      .withResponse();
    const session = response.headers.get("x-iris-session-id") ?? "";
    const call = first.choices[0]?.message.tool_calls?.[0];
    expect(first.choices[0]?.finish_reason).toBe("tool_calls");
    // Only the tool message is needed: the session holds the rest.
    const second = await client.chat.completions.create(
      {
        model: "iris",
        messages: [{ role: "tool", tool_call_id: call?.id ?? "", content: "x = 42" }],
        tools: [lookup],
      },
      { headers: { "X-Iris-Session-Id": session } },
    );
    expect(second.choices[0]?.message.content).toBe("found it");
    const roles = (await storeOf(h.server.deps.iris).activePath(session)).map((n) => n.message?.role);
    expect(roles).toEqual(["user", "assistant", "tool", "assistant"]);
    expect(sentBodies(h.fake)[1]).toContain("x = 42");
    // A tool message that answers nothing open is refused, and nothing is appended.
    await expect(
      client.chat.completions.create(
        { model: "iris", messages: [{ role: "tool", tool_call_id: "call_nope", content: "?" }] },
        { headers: { "X-Iris-Session-Id": session } },
      ),
    ).rejects.toBeInstanceOf(OpenAI.BadRequestError);
    expect(await storeOf(h.server.deps.iris).activePath(session)).toHaveLength(4);
    // A new session cannot start with tool results.
    await expect(
      client.chat.completions.create(
        { model: "iris", messages: [{ role: "tool", tool_call_id: "call_x", content: "?" }] },
        { headers: { "X-Iris-Session-Id": "new" } },
      ),
    ).rejects.toBeInstanceOf(OpenAI.BadRequestError);
    expect(await storeOf(h.server.deps.iris).listSessions({ limit: 10 })).toHaveLength(1);
  });

  it("Responses `conversation` continues by name, per API key", async () => {
    h = await startHarness();
    h.fake.enqueue({ text: "hi alice" }, { text: "still alice" }, { text: "who?" });
    await h.client().responses.create({ model: "iris", input: "I am alice", conversation: "chat-1" });
    const r2 = await h
      .client()
      .responses.create({ model: "iris", input: "who am I?", conversation: "chat-1" });
    expect(r2.output_text).toBe("still alice");
    expect(sentBodies(h.fake)[1]).toContain("I am alice");
    await h.client(BOB).responses.create({ model: "iris", input: "who am I?", conversation: "chat-1" });
    expect(sentBodies(h.fake)[2]).not.toContain("I am alice");
  });

  it("models_per_route lists iris/<provider>/<model>, and that id runs the turn", async () => {
    h = await startHarness({ serve: ["  models_per_route: true"] });
    const ids = (await h.client().models.list()).data.map((m) => m.id);
    expect(ids).toEqual(["iris", "iris/chat", "iris/openai/gpt-4.1-mini"]);
    h.fake.enqueue({ text: "routed" });
    const r = await h.client().chat.completions.create({
      model: "iris/openai/gpt-4.1-mini",
      messages: [{ role: "user", content: "hi" }],
    });
    expect(r.choices[0]?.message.content).toBe("routed");
    expect(r.model).toBe("iris/openai/gpt-4.1-mini");
  });

  it("serve.approvals: off runs a dangerous command; serve.workdir is every session's directory", async () => {
    const shared = tempDir("iris-serve-workdir-");
    try {
      h = await startHarness({ serve: ["  approvals: off", `  workdir: ${JSON.stringify(shared.path)}`] });
      h.fake.enqueue(
        {
          toolCalls: [
            { name: "terminal", arguments: { command: "mkdir -p doomed/a && rm -rf doomed && touch kept" } },
          ],
        },
        { text: "removed" },
      );
      const r = await h
        .client()
        .chat.completions.create({ model: "iris", messages: [{ role: "user", content: "rm" }] });
      expect(r.choices[0]?.message.content).toBe("removed");
      expect(existsSync(join(shared.path, "kept"))).toBe(true);
      expect(existsSync(join(shared.path, "doomed"))).toBe(false);
      // The configured directory outlives the request (only per-request temporary ones go).
      expect(existsSync(shared.path)).toBe(true);
    } finally {
      shared.cleanup();
    }
  });

  it("a client that goes away from a non-streamed request interrupts the turn too", async () => {
    h = await startHarness();
    h.fake.enqueue({ fault: "stall" });
    const ended = h.nextEvent((e) => e.name === "turn_completed");
    const controller = new AbortController();
    const pending = h
      .client()
      .chat.completions.create(
        { model: "iris", messages: [{ role: "user", content: "slow" }] },
        { signal: controller.signal },
      );
    // Abort once the model call is under way (the fake has the request).
    await h.nextEvent((e) => e.name === "llm_call_started");
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(OpenAI.APIUserAbortError);
    const e = await ended;
    expect(e.name === "turn_completed" ? e.payload.reason : "").toBe("user_cancelled");
  });
});
