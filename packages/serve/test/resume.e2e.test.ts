// A background response (`background: true`, streamed) outlives its client: the client reads the
// first events, loses the connection, and reconnects with Last-Event-ID — to another replica on a
// Postgres profile while the turn still runs there (the rest follows live), to the same server
// after a restart on SQLite — and gets every later event once, in order, to response.completed,
// which a chain then continues. The official SDK resumes with `starting_after`. Bad cursors,
// foreground responses and other keys are refused by name; a replica that stops beating ends the
// reader's stream with an error instead of a wait.
import { type SseFrame, skipWithoutPostgres, sseFrames } from "@iris/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { type ApiKey, ownerOf } from "../src/keys.js";
import { ALICE, BOB, engineOptions, type Harness, sentBodies, startHarness } from "./helpers.js";

let h: Harness;
afterEach(async () => {
  await h?.close();
});

/** The harness on `engine`: a state.db, or a fresh schema of the file's Postgres server. */
const on = engineOptions("resume");

const ENGINES = (["sqlite", "postgres"] as const).filter((e) => e === "sqlite" || !skipWithoutPostgres());
const ANSWER = "a long answer that arrives in many small pieces";
const auth = (key = ALICE) => ({ authorization: `Bearer ${key}` });

/** Starts a background stream and reads it up to event `upTo`; then the connection is dropped. */
async function startAndDrop(base: string, upTo: number): Promise<{ id: string; seen: SseFrame[] }> {
  const abort = new AbortController();
  const res = await fetch(`${base}/v1/responses`, {
    method: "POST",
    headers: { ...auth(), "content-type": "application/json" },
    body: JSON.stringify({ model: "iris", input: "Tell me a story.", stream: true, background: true }),
    signal: abort.signal,
  });
  expect(res.status).toBe(200);
  const seen: SseFrame[] = [];
  for await (const f of sseFrames(res)) {
    seen.push(f);
    if (Number(f.id) >= upTo) break;
  }
  abort.abort();
  const id = (JSON.parse(seen[0]?.data ?? "{}") as { response?: { id?: string } }).response?.id ?? "";
  return { id, seen };
}

async function resume(base: string, id: string, lastEventId: string, key = ALICE): Promise<Response> {
  const get = () =>
    fetch(`${base}/v1/responses/${id}?stream=true`, {
      headers: { ...auth(key), "last-event-id": lastEventId },
    });
  // A kept-alive connection to the server before its restart fails once, as a client retries it.
  return get().catch(get);
}

async function framesOf(res: Response): Promise<SseFrame[]> {
  const out: SseFrame[] = [];
  for await (const f of sseFrames(res)) out.push(f);
  return out;
}

/** Every frame carries its sequence number as its id, and the answer's deltas add up. */
function checkWhole(frames: SseFrame[]): void {
  const seqs = frames.map((f) => (JSON.parse(f.data) as { sequence_number: number }).sequence_number);
  expect(frames.map((f) => Number(f.id))).toEqual(seqs);
  expect(seqs).toEqual(seqs.map((_, i) => i));
  const text = frames
    .filter((f) => f.event === "response.output_text.delta")
    .map((f) => (JSON.parse(f.data) as { delta: string }).delta)
    .join("");
  expect(text).toBe(ANSWER);
  expect(frames.at(-1)?.event).toBe("response.completed");
}

describe.each(ENGINES)("a background stream resumed with Last-Event-ID (%s)", (engine) => {
  it("gets the rest once and in order, and the chain goes on from it", async () => {
    h = await startHarness(await on(engine));
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    h.fake.setHandler(async () => {
      await gate;
      return { text: ANSWER, chunkSize: 3 };
    });
    // The client sees response.created and response.in_progress, then its connection drops while
    // the model has not answered yet.
    const { id, seen } = await startAndDrop(h.server.url, 1);
    expect(id).toMatch(/^resp_/);
    let rest: SseFrame[];
    if (engine === "postgres") {
      // Another replica follows the turn still running on the first one.
      const other = await h.replica();
      // Retrieved meanwhile, it is in progress.
      const meanwhile = await fetch(`${other.url}/v1/responses/${id}`, { headers: auth() });
      expect(await meanwhile.json()).toMatchObject({ id, status: "in_progress" });
      const res = await resume(other.url, id, "1");
      expect(res.status).toBe(200);
      const reading = framesOf(res);
      release();
      rest = await reading;
    } else {
      // One process: the turn ends without its client, the server restarts, the record stays.
      release();
      await completed(id);
      await h.restart();
      rest = await framesOf(await resume(h.server.url, id, "1"));
    }
    checkWhole([...seen, ...rest]);
    // The official SDK's way: retrieve with stream and starting_after.
    const client = h.client();
    const events = await client.responses.retrieve(id, { stream: true, starting_after: 3 });
    const types: string[] = [];
    let first: number | undefined;
    for await (const e of events) {
      first ??= e.sequence_number;
      types.push(e.type);
    }
    expect(first).toBe(4);
    expect(types.at(-1)).toBe("response.completed");
    // response.completed means stored: the chain continues from it (on the first server).
    h.fake.setHandler(undefined);
    h.fake.enqueue({ text: "the end" });
    const next = await client.responses.create({
      model: "iris",
      input: "And then?",
      previous_response_id: id,
    });
    expect(next.output_text).toBe("the end");
    expect(sentBodies(h.fake).at(-1)).toContain(ANSWER);
  });
});

describe("a background turn and its server", () => {
  it.each(ENGINES)(
    "a server that stops ends its background streams for their readers, at once (%s)",
    async (engine) => {
      h = await startHarness(await on(engine));
      let release!: () => void;
      const gate = new Promise<void>((r) => {
        release = r;
      });
      h.fake.setHandler(async () => {
        await gate;
        return { text: ANSWER };
      });
      const { id } = await startAndDrop(h.server.url, 1);
      await until(async () => h.fake.requests.length > 0);
      // Restarted while the model has not answered: the turn stops, its record ends as failed.
      await h.restart();
      release();
      const rest = await framesOf(await resume(h.server.url, id, "1"));
      expect(rest.map((f) => f.event)).toEqual(["response.failed"]);
      expect(JSON.parse(rest[0]?.data ?? "{}")).toMatchObject({
        response: { status: "failed", error: { code: "cancelled" } },
      });
    },
  );
});

describe("resuming: what is refused", () => {
  it("names a bad cursor, a foreground response, another key's, and background without a stream", async () => {
    h = await startHarness();
    h.fake.enqueue({ text: "in the background" }, { text: "in the foreground" });
    const { id } = await startAndDrop(h.server.url, 1);
    await completed(id);

    const bad = await resume(h.server.url, id, "abc");
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { param: "Last-Event-ID" } });
    const badQuery = await fetch(`${h.baseURL}/responses/${id}?stream=true&starting_after=-5`, {
      headers: auth(),
    });
    expect(badQuery.status).toBe(400);
    expect(await badQuery.json()).toMatchObject({ error: { param: "starting_after" } });
    expect((await resume(h.server.url, id, "1", BOB)).status).toBe(404);

    const fg = await h.client().responses.create({ model: "iris", input: "hi" });
    const notRecorded = await resume(h.server.url, fg.id, "0");
    expect(notRecorded.status).toBe(400);
    expect(await notRecorded.json()).toMatchObject({ error: { param: "stream" } });

    await expect(
      h.client().responses.create({ model: "iris", input: "hi", background: true }),
    ).rejects.toMatchObject({ status: 400, param: "background" });
  });

  it.skipIf(skipWithoutPostgres())(
    "a replica that stopped beating ends the reader's stream with an error",
    async () => {
      h = await startHarness(await on("postgres"));
      // What a replica killed right after its first event leaves: a running record, long quiet.
      const log = h.server.deps.responses.streams;
      const long = Date.now() - 600_000;
      const owner = ownerOf(h.server.deps.keys.find((k) => k.name === "alice") as ApiKey);
      await log.open(owner, "resp_dead", { expiresAt: Date.now() + 600_000, max: 100, now: long });
      await log.append("resp_dead", [{ seq: 0, type: "response.created", data: '{"sequence_number":0}' }], {
        done: false,
        now: long,
      });
      const frames = await framesOf(await resume(h.server.url, "resp_dead", "-1"));
      expect(frames.map((f) => f.event)).toEqual(["response.created", "error"]);
      expect(JSON.parse(frames[1]?.data ?? "{}")).toMatchObject({ code: "stream_lost" });
    },
  );
});

/** Waits until the response is stored as completed (retrieve shows a running one in progress). */
async function completed(id: string): Promise<void> {
  await until(async () => {
    const res = await fetch(`${h.baseURL}/responses/${id}`, { headers: auth() });
    return res.ok && ((await res.json()) as { status: string }).status === "completed";
  });
}

async function until(test: () => Promise<boolean>): Promise<void> {
  const end = Date.now() + 30_000;
  while (!(await test())) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 50));
  }
}
