// One rate limiter per route for the whole process (issue 18): a 429 with Retry-After on one
// session's call holds back the next call of every other session on that route, not only the
// retry of the session that was told off.
import { join } from "node:path";
import type { FakeLlm, RecordedRequest, Step, TempDir } from "@iris/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { IrisProcess } from "../src/app/process.js";
import { RouteLimiter } from "../src/app/route-limiter.js";
import { openProcess, startSession } from "./process.js";

let fake: FakeLlm;
let dir: TempDir;
let iris: IrisProcess;

let close: () => Promise<void>;

beforeEach(async () => {
  ({ fake, dir, iris, close } = await openProcess("iris-limiter"));
});
afterEach(() => close());

const userText = (req: RecordedRequest) => {
  const messages = (req.body as { messages: { role: string; content: unknown }[] }).messages;
  return String(messages.filter((m) => m.role === "user").at(-1)?.content ?? "");
};

function open(name: string) {
  return startSession(iris, fake, join(dir.path, name));
}

describe("the process's route limiter", () => {
  it("makes a second session wait out a 429's Retry-After that the first session got", async () => {
    const arrivals: { who: string; at: number }[] = [];
    let limitedAt = 0;
    fake.setHandler((req): Step => {
      const who = userText(req);
      arrivals.push({ who, at: Date.now() });
      if (who === "A" && limitedAt === 0) {
        limitedAt = Date.now();
        return { fault: "status", status: 429, headers: { "retry-after": "2" } };
      }
      return { text: `hello ${who}` };
    });
    const a = await open("a");
    const b = await open("b");
    const told = new Promise<void>((resolve) =>
      iris.subscribe((e) => {
        if (e.name === "llm_call_retried") resolve();
      }),
    );
    const first = a.send("A");
    await told; // A's client has read the 429; only now does B start its call
    const second = await b.send("B");
    expect(second.text).toBe("hello B");
    expect((await first).text).toBe("hello A");
    const bArrived = arrivals.find((x) => x.who === "B")?.at ?? 0;
    // B was held back until A's Retry-After ran out, although B itself was never rate limited.
    expect(bArrived - limitedAt).toBeGreaterThanOrEqual(1900);
    expect(iris.routeLimiter.pauses).toBe(1);
  });
});

describe("RouteLimiter", () => {
  it("holds a route until the latest pause ends and lets other routes through", async () => {
    let now = 1000;
    const slept: number[] = [];
    const limiter = new RouteLimiter({
      now: () => now,
      sleep: async (ms) => {
        slept.push(ms);
        now += ms;
        return true;
      },
    });
    limiter.pause("r1", 3000);
    limiter.pause("r1", 1000); // an earlier end does not shorten the pause
    expect(limiter.remainingMs("r1")).toBe(3000);
    expect(limiter.remainingMs("r2")).toBe(0);
    expect(await limiter.ready("r2", new AbortController().signal)).toBe(true);
    expect(slept).toEqual([]);
    expect(await limiter.ready("r1", new AbortController().signal)).toBe(true);
    expect(slept).toEqual([3000]);
    expect(limiter.pauses).toBe(1);
  });

  it("gives up waiting when the caller aborts", async () => {
    const limiter = new RouteLimiter();
    limiter.pause("r", 60_000);
    const c = new AbortController();
    const waiting = limiter.ready("r", c.signal);
    c.abort();
    expect(await waiting).toBe(false);
  });
});
