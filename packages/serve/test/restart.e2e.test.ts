// State that outlives `iris serve` (SPEC E3): after a restart on the same profile, the official
// SDK continues a response by `previous_response_id` (streamed, through finalResponse()) and a
// named `conversation`; another API key still gets "not found"; an Idempotency-Key retry gets the
// first answer without running the turn again. A new key given an old key's name starts empty.
// The same on a Postgres profile (serve's tables in the shared database, not state.db).
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { skipWithoutPostgres } from "@iris/testkit";
import OpenAI from "openai";
import { afterEach, describe, expect, it } from "vitest";
import { ALICE, BOB, engineOptions, type Harness, sentBodies, startHarness } from "./helpers.js";

let h: Harness;
afterEach(async () => {
  await h.close();
});

/** The harness on `engine`: a state.db, or a fresh schema of the file's Postgres server. */
const on = engineOptions("restart");

describe.each((["sqlite", "postgres"] as const).filter((e) => e === "sqlite" || !skipWithoutPostgres()))(
  "after a restart (%s)",
  (engine) => {
    it("previous_response_id and conversation continue; other keys still see nothing", async () => {
      h = await startHarness(await on(engine));
      h.fake.enqueue(
        { text: "hello Ada" },
        { text: "noted, blue" },
        { text: "you are Ada" },
        { text: "blue" },
      );
      // Retries as the SDK does by default: the connection the restart cut is not a failure.
      const client = new OpenAI({ apiKey: ALICE, baseURL: h.baseURL, maxRetries: 2 });
      const r1 = await client.responses.create({ model: "iris", input: "My name is Ada." });
      await client.responses.create({ model: "iris", input: "My colour is blue.", conversation: "prefs" });

      await h.restart();

      const stream = client.responses.stream({
        model: "iris",
        input: "What is my name?",
        previous_response_id: r1.id,
      });
      const final = await stream.finalResponse();
      expect(final.output_text).toBe("you are Ada");
      expect(final.previous_response_id).toBe(r1.id);
      expect(sentBodies(h.fake)[2]).toContain("My name is Ada.");

      const again = await client.responses.create({
        model: "iris",
        input: "Which colour?",
        conversation: "prefs",
      });
      expect(again.output_text).toBe("blue");
      expect(sentBodies(h.fake)[3]).toContain("My colour is blue.");

      // Another key cannot continue alice's response or read her conversation, restart or not.
      const bob = new OpenAI({ apiKey: BOB, baseURL: h.baseURL, maxRetries: 2 });
      await expect(
        bob.responses.create({ model: "iris", input: "name?", previous_response_id: r1.id }),
      ).rejects.toBeInstanceOf(OpenAI.NotFoundError);
      h.fake.enqueue({ text: "who?" });
      await bob.responses.create({ model: "iris", input: "Which colour?", conversation: "prefs" });
      expect(sentBodies(h.fake)[4]).not.toContain("My colour is blue.");
      expect(existsSync(join(h.home.path, "state.db"))).toBe(engine === "sqlite");
    });

    it("an Idempotency-Key retry replays the first answer without a second turn", async () => {
      h = await startHarness(await on(engine));
      h.fake.enqueue({ text: "done once" });
      const client = new OpenAI({ apiKey: ALICE, baseURL: h.baseURL, maxRetries: 2 });
      const ask = () =>
        client.chat.completions
          .create(
            { model: "iris", messages: [{ role: "user", content: "do it" }] },
            { headers: { "Idempotency-Key": "order-7" } },
          )
          .withResponse();
      const first = await ask();
      await h.restart();
      const retry = await ask();
      expect(retry.data.id).toBe(first.data.id);
      expect(retry.data.choices[0]?.message.content).toBe("done once");
      expect(retry.response.headers.get("idempotent-replayed")).toBe("true");
      expect(h.fake.requests).toHaveLength(1);
    });
  },
);

describe("after a restart", () => {
  it("a new key given an old key's name does not inherit its responses", async () => {
    h = await startHarness();
    h.fake.enqueue({ text: "secret noted" });
    const old = new OpenAI({ apiKey: ALICE, baseURL: h.baseURL, maxRetries: 2 });
    const r1 = await old.responses.create({ model: "iris", input: "the secret is 42" });
    const rotated = "sk-alice-rotated-000111";
    writeFileSync(
      join(h.home.path, ".env"),
      `OPENAI_API_KEY=fake-upstream-key\nSERVE_KEY_ALICE=${rotated}\n`,
    );
    await h.restart();
    const next = new OpenAI({ apiKey: rotated, baseURL: h.baseURL, maxRetries: 2 });
    await expect(
      next.responses.create({ model: "iris", input: "secret?", previous_response_id: r1.id }),
    ).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    await expect(old.models.list()).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
  });
});
