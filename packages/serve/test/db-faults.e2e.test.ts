// `iris serve` on a Postgres profile whose database goes away mid-turn: the
// turn ends with a 503 `store_error` and a clear message — streamed or not, a stored session
// (X-Iris-Session-Id) or a Responses chain — and, the server back, the same process goes on
// with whole messages only: no half answer in the session, no response to continue that was
// never stored, and no password in the error.
import { type PostgresServer, skipWithoutPostgres, sseFrames, startPostgres } from "@iris/testkit";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { ALICE, type Harness, sentBodies, startHarness } from "./helpers.js";

let h: Harness | undefined;
let pg: PostgresServer | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});
afterAll(async () => {
  await pg?.close();
});

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${h?.baseURL}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${ALICE}`, "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

/** The model answers once the database is down: what it says cannot be saved. */
function loseTheDatabaseOnNextAnswer(): void {
  h?.fake.setHandler(async () => {
    pg?.stop("immediate");
    return { text: "an answer nobody keeps" };
  });
}

async function bringBack(): Promise<void> {
  h?.fake.setHandler(undefined);
  await pg?.start();
}

describe.skipIf(skipWithoutPostgres())("serve loses its database mid-turn", () => {
  it("a stored session's turn is a 503 store_error; back up, the session holds whole messages", async () => {
    pg ??= await startPostgres();
    const url = pg.url().replace("iris@", "iris:hunter2@");
    h = await startHarness({ postgres: { url, schema: "faults_session" } });
    h.fake.enqueue({ text: "first answer" });
    const first = await post(
      "/chat/completions",
      { model: "iris", messages: [{ role: "user", content: "first question" }] },
      { "x-iris-session-id": "new" },
    );
    expect(first.status).toBe(200);
    const session = first.headers.get("x-iris-session-id") ?? "";
    expect(session).not.toBe("");

    loseTheDatabaseOnNextAnswer();
    let lost: Response;
    try {
      lost = await post(
        "/chat/completions",
        { model: "iris", messages: [{ role: "user", content: "second question" }] },
        { "x-iris-session-id": session },
      );
    } finally {
      await bringBack();
    }
    expect(lost.status).toBe(503);
    const body = (await lost.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("store_error");
    expect(body.error.message).toMatch(/^Stopped: the session could not be saved \(.*Postgres/);
    expect(body.error.message).not.toContain("hunter2");

    h.fake.enqueue({ text: "third answer" });
    const third = await post(
      "/chat/completions",
      { model: "iris", messages: [{ role: "user", content: "third question" }] },
      { "x-iris-session-id": session },
    );
    expect(third.status).toBe(200);
    const sent = sentBodies(h.fake).at(-1) ?? "";
    expect(sent).toContain("first answer");
    expect(sent).not.toContain("an answer nobody keeps");
  }, 120_000);

  it("a Responses answer that cannot be stored is a store_error, streamed or not, and nothing continues it", async () => {
    pg ??= await startPostgres();
    h = await startHarness({ postgres: { url: pg.url(), schema: "faults_responses" } });
    loseTheDatabaseOnNextAnswer();
    let plain: Response;
    try {
      plain = await post("/responses", { model: "iris", input: "question" });
    } finally {
      await bringBack();
    }
    expect(plain.status).toBe(503);
    expect(await plain.json()).toMatchObject({
      error: {
        code: "store_error",
        message: expect.stringMatching(/^Stopped: the response could not be stored/),
      },
    });

    loseTheDatabaseOnNextAnswer();
    const events: { type: string; response?: { id: string; error?: { code: string } } }[] = [];
    try {
      const streamed = await post("/responses", { model: "iris", input: "question", stream: true });
      for await (const f of sseFrames(streamed)) events.push(JSON.parse(f.data));
    } finally {
      await bringBack();
    }
    const last = events.at(-1);
    expect(last?.type).toBe("response.failed");
    expect(last?.response?.error?.code).toBe("store_error");
    expect(events.map((e) => e.type)).not.toContain("response.completed");
    // Nothing was kept: continuing from it is "not found", on a database that is back.
    const again = await post("/responses", {
      model: "iris",
      input: "go on",
      previous_response_id: last?.response?.id,
    });
    expect(again.status).toBe(404);
  }, 120_000);
});
