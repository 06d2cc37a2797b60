// Requests shaped like real chat front ends (their servers could not be run here): LibreChat's
// default parameters and Open WebUI's forwarded-user headers and task-model calls are accepted,
// and the unknown parameters are ignored, never forwarded or refused.

import { storeOf } from "@iris/host/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ALICE, type Harness, sentBodies, startHarness } from "./helpers.js";

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

/** What LibreChat's custom endpoint sends by default (dropParams removes these). */
const librechatBody = {
  model: "iris",
  user: "6650e2b8c1f4a1b2c3d4e5f6",
  temperature: 1,
  top_p: 1,
  presence_penalty: 0,
  frequency_penalty: 0,
  stream: true,
  messages: [
    { role: "system", content: "You are a helpful assistant." },
    { role: "user", content: [{ type: "text", text: "안녕?" }] },
  ],
};

/** Open WebUI with ENABLE_FORWARD_USER_INFO_HEADERS, and its task-model title request. */
const openWebuiHeaders = {
  "X-OpenWebUI-User-Name": "Min-su",
  "X-OpenWebUI-User-Id": "c9a1",
  "X-OpenWebUI-User-Email": "minsu@example.com",
  "X-OpenWebUI-User-Role": "user",
  "X-OpenWebUI-Chat-Id": "chat-42",
};

async function send(body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${h.baseURL}/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${ALICE}`, "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

describe("front-end request shapes", () => {
  it("LibreChat's default parameters are accepted and not forwarded", async () => {
    h.fake.enqueue({ text: "안녕하세요!" });
    const res = await send(librechatBody);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain("안녕하세요");
    expect(text.trimEnd().endsWith("data: [DONE]")).toBe(true);
    const sent = JSON.parse(sentBodies(h.fake)[0] ?? "{}");
    expect(sent.presence_penalty).toBeUndefined();
    expect(sent.user).toBeUndefined();
    // The wire form: chunks, no usage without include_usage, [DONE] last; the one named event
    // (iris.turn) is a chunk too, with no choices, so a client that ignores event names skips it.
    const events = text.trimEnd().split("\n\n");
    expect(events.at(-1)).toBe("data: [DONE]");
    const named = events.filter((e) => e.startsWith("event: "));
    expect(named.map((e) => e.split("\n")[0])).toEqual(["event: iris.turn"]);
    const turn = JSON.parse(named[0]?.split("\ndata: ")[1] ?? "{}");
    expect(turn).toMatchObject({ object: "chat.completion.chunk", model: "iris", choices: [] });
    expect(turn.iris_turn).toMatchObject({ "x-iris-termination": "natural" });
    const chunks = events.slice(0, -1).flatMap((e) => {
      if (e.startsWith("event: ")) return [];
      expect(e.startsWith("data: ")).toBe(true);
      return [JSON.parse(e.slice(6))];
    });
    for (const c of chunks) {
      expect(c).toMatchObject({ object: "chat.completion.chunk", model: "iris" });
      expect(c).not.toHaveProperty("usage");
      expect(c.choices).toHaveLength(1);
    }
    expect(chunks[0].choices[0].delta).toEqual({ role: "assistant", content: "" });
    expect(chunks.at(-1).choices[0]).toMatchObject({ delta: {}, finish_reason: "stop" });
  });

  it("Open WebUI's headers, model list fetch and a title task request work; the chat id is no session id", async () => {
    const models = await fetch(`${h.baseURL}/models`, {
      headers: { authorization: `Bearer ${ALICE}`, ...openWebuiHeaders },
    });
    expect(((await models.json()) as { data: { id: string }[] }).data[0]?.id).toBe("iris");
    h.fake.enqueue({ text: "Greeting in Korean" }, { text: "두 번째" });
    const title = await send(
      {
        model: "iris",
        stream: false,
        messages: [
          {
            role: "user",
            content:
              "### Task:\nGenerate a concise, 3-5 word title for the chat history.\n### Chat History:\nUSER: 안녕?",
          },
        ],
      },
      openWebuiHeaders,
    );
    expect(title.status).toBe(200);
    expect(title.headers.get("x-iris-session-id")).toBeNull();
    const again = await send(
      { model: "iris", messages: [{ role: "user", content: "또?" }] },
      openWebuiHeaders,
    );
    expect(
      ((await again.json()) as { choices: { message: { content: string } }[] }).choices[0]?.message.content,
    ).toBe("두 번째");
    // Stateless: the second request did not carry the first one's history.
    expect(sentBodies(h.fake)[1]).not.toContain("Generate a concise");
    expect(await storeOf(h.server.deps.iris).listSessions({ limit: 10 })).toEqual([]);
  });

  it("named SSE events (by default) and keep-alive comments go out while Iris's tools run; X-Iris-Tool-Progress: off drops the text", async () => {
    h.fake.enqueue({ toolCalls: [{ name: "terminal", arguments: { command: "echo hi" } }] }, { text: "fin" });
    const res = await send(
      { model: "iris", stream: true, messages: [{ role: "user", content: "go" }] },
      { "X-Iris-Tool-Progress": "off" },
    );
    const raw = await res.text();
    expect(raw).toContain("event: iris.tool.progress");
    expect(raw).toContain("event: iris.turn");
    expect(raw).toContain(": keepalive");
    expect(raw).not.toContain("<details>");
    const progress = raw
      .split("\n\n")
      .filter((b) => b.startsWith("event: iris.tool.progress"))
      .map((b) => JSON.parse(b.split("\ndata: ")[1] ?? "{}"));
    expect(progress.map((p) => p.choices)).toEqual([[], []]);
    expect(progress.map((p) => p.iris_tool_progress.phase)).toEqual(["before", "after"]);
    expect(progress[0].iris_tool_progress).toMatchObject({ tool: "terminal" });

    h.fake.enqueue({ toolCalls: [{ name: "terminal", arguments: { command: "echo hi" } }] }, { text: "fin" });
    const off = await send(
      { model: "iris", stream: true, messages: [{ role: "user", content: "go" }] },
      { "X-Iris-Events": "off" },
    );
    const plain = await off.text();
    expect(plain).not.toContain("event: ");
    expect(plain).toContain("<details>");
  });
});
