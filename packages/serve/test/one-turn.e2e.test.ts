// One turn at a time per stored session, across front ends (SPEC D1, E3): a request with
// X-Iris-Session-Id for a session another turn holds (a terminal's `iris -r ID -p`, or another
// request of this server) is answered 409 session_busy with Retry-After before any work, and the
// stored history alternates user/assistant.
import { spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { StoreConversation } from "@iris/host";
import { storeOf } from "@iris/host/testing";
import { afterEach, expect, it } from "vitest";
import { ALICE, type Harness, startHarness } from "./helpers.js";

const IRIS_BIN = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "iris", "bin", "iris.js");

let h: Harness;
afterEach(async () => {
  await h.close();
});

async function chat(text: string, session: string) {
  const res = await fetch(`${h.baseURL}/chat/completions`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${ALICE}`,
      "content-type": "application/json",
      "X-Iris-Session-Id": session,
    },
    body: JSON.stringify({ model: "iris", messages: [{ role: "user", content: text }] }),
  });
  return {
    status: res.status,
    retryAfter: res.headers.get("retry-after"),
    session: res.headers.get("x-iris-session-id") ?? "",
    body: (await res.json()) as { error?: { code: string; message: string } },
  };
}

/** The model's next call is held until the returned function is called. */
function holdNextCall(answer: string): () => void {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  h.fake.setHandler(async () => {
    await held;
    return { text: answer };
  });
  return release;
}

const until = (pred: () => boolean) =>
  new Promise<void>((resolve) => {
    const check = () => (pred() ? resolve() : setImmediate(check));
    check();
  });

const roles = async (sessionId: string) =>
  (await (await StoreConversation.open(storeOf(h.server.deps.iris), sessionId)).history()).map((m) => m.role);

it("a request for a session a terminal's turn holds is answered 409 with Retry-After", async () => {
  h = await startHarness();
  h.fake.enqueue({ text: "first" });
  const first = await chat("one", "new");
  expect(first.status).toBe(200);
  const release = holdNextCall("terminal answer");
  const child = spawn(process.execPath, [IRIS_BIN, "-r", first.session, "-p", "two"], {
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", IRIS_HOME: h.home.path },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  await until(() => h.fake.requests.length === 2);
  const busy = await chat("three", first.session);
  expect(busy.status).toBe(409);
  expect(busy.body.error?.code).toBe("session_busy");
  expect(busy.body.error?.message).toMatch(/is busy: another iris \(pid \d+\)/);
  expect(Number(busy.retryAfter)).toBeGreaterThan(0);
  release();
  expect(await exited).toBe(0);
  expect(h.fake.requests).toHaveLength(2); // the refused request never reached the model
  expect(await roles(first.session)).toEqual(["user", "assistant", "user", "assistant"]);
  // Once the terminal's turn is over the session takes requests again.
  h.fake.setHandler(() => ({ text: "after" }));
  expect((await chat("four", first.session)).status).toBe(200);
  expect(await roles(first.session)).toEqual(["user", "assistant", "user", "assistant", "user", "assistant"]);
});

it("a second request for a session this server is running a turn in is answered 409", async () => {
  h = await startHarness();
  h.fake.enqueue({ text: "first" });
  const first = await chat("one", "new");
  const release = holdNextCall("second");
  const running = chat("two", first.session);
  await until(() => h.fake.requests.length === 2);
  const busy = await chat("three", first.session);
  expect(busy.status).toBe(409);
  expect(busy.body.error?.code).toBe("session_busy");
  expect(busy.retryAfter).not.toBeNull();
  release();
  expect((await running).status).toBe(200);
  expect(await roles(first.session)).toEqual(["user", "assistant", "user", "assistant"]);
});
