// The queue contract (ARCHITECTURE.md: one suite, every engine): run unchanged against BullMQ on
// PostgreSQL and on Redis, each a real server started by the test. Lock and stall times are short
// so a dead worker's job comes back within seconds; every wait is for a condition, never a sleep.
import { type ChildProcess, spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openBullMqQueue } from "../bullmq-queue.js";
import type {
  ConnectionEvent,
  JobQueue,
  JobQueueBackend,
  JobQueueOptions,
  QueueWorker,
} from "../job-queue.js";

export interface QueueServer {
  url: string;
  /** Takes the server down as a crash would, its data kept. */
  stop(): Promise<void> | void;
  start(): Promise<void>;
  close(): Promise<void>;
}

const HERE = dirname(fileURLToPath(import.meta.url));
const LOCK_MS = 1000;
const STALLED_CHECK_MS = 500;

/** Polls `test` until it is true (a condition, not a timed sleep); fails after `ms`. */
export async function until(
  test: () => boolean | Promise<boolean>,
  what: string,
  ms = 20_000,
): Promise<void> {
  const end = Date.now() + ms;
  while (!(await test())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

function deferred<T = void>(): { promise: Promise<T>; resolve: (v: T) => void } {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

export function queueContract(backend: JobQueueBackend, startServer: () => Promise<QueueServer>): void {
  describe(`JobQueue on BullMQ (${backend})`, () => {
    let server: QueueServer;
    let n = 0;
    const open: JobQueue<unknown, unknown>[] = [];
    const workers: QueueWorker[] = [];
    const children: ChildProcess[] = [];

    beforeAll(async () => {
      server = await startServer();
    });
    afterEach(async () => {
      for (const c of children.splice(0)) c.kill("SIGKILL");
      await Promise.all(workers.splice(0).map((w) => w.close("hand-back")));
      await Promise.all(open.splice(0).map((q) => q.close()));
    });
    afterAll(async () => {
      await server?.close();
    });

    const options = (extra: Partial<JobQueueOptions> = {}): JobQueueOptions => ({
      backend,
      url: server.url,
      name: `contract-${process.pid}-${++n}`,
      lockMs: LOCK_MS,
      stalledCheckMs: STALLED_CHECK_MS,
      maxStalled: 1,
      ...extra,
    });
    async function queueOf<D, R>(opts: JobQueueOptions): Promise<JobQueue<D, R>> {
      const q = await openBullMqQueue<D, R>(opts);
      open.push(q as JobQueue<unknown, unknown>);
      return q;
    }
    async function work<D, R>(
      q: JobQueue<D, R>,
      handler: Parameters<JobQueue<D, R>["work"]>[0],
      concurrency = 1,
    ): Promise<QueueWorker> {
      const w = await q.work(handler, { concurrency });
      workers.push(w);
      return w;
    }
    /** A worker in its own process that takes a job and hangs; resolves with what it printed. */
    function hangingWorker(opts: JobQueueOptions): { child: ChildProcess; took: Promise<string> } {
      const args = [backend, opts.url, opts.name, String(LOCK_MS), String(STALLED_CHECK_MS)];
      const child = spawn(process.execPath, ["--import", "tsx", join(HERE, "hanging-worker.ts"), ...args], {
        stdio: ["ignore", "pipe", "pipe"],
      });
      children.push(child);
      let out = "";
      let err = "";
      child.stderr?.on("data", (d: Buffer) => {
        err += d.toString();
      });
      const took = new Promise<string>((resolve, reject) => {
        child.stdout?.on("data", (d: Buffer) => {
          out += d.toString();
          const m = /took .*\n/.exec(out);
          if (m) resolve(m[0].trim());
        });
        child.on("exit", (code) => reject(new Error(`the worker process exited (${code}): ${err}`)));
      });
      return { child, took };
    }

    it("runs an added job and shows its result to the producer, by event and by id", async () => {
      const q = await queueOf<{ x: number }, { doubled: number }>(options());
      const finished: string[] = [];
      const stored: string[] = [];
      await q.onFinished((id) => finished.push(id));
      await q.add("item:1", { x: 21 });
      const w = await q.work(async (job) => ({ doubled: job.data.x * 2 }), {
        concurrency: 1,
        onCompleted: (id) => stored.push(id),
      });
      workers.push(w);
      await until(() => finished.includes("item:1") && stored.includes("item:1"), "the finish event");
      expect(await q.get("item:1")).toEqual({
        id: "item:1",
        state: "completed",
        result: { doubled: 42 },
        attempts: 1,
      });
      expect(await q.get("no-such-job")).toBeUndefined();
    });

    it("ignores a second add with the same id, whatever its state", async () => {
      const q = await queueOf<{ v: string }, string>(options());
      await q.add("same", { v: "first" });
      await q.add("same", { v: "second" });
      expect((await q.counts()).waiting).toBe(1);
      const seen: string[] = [];
      await work(q, async (job) => {
        seen.push(job.data.v);
        return job.data.v;
      });
      await until(async () => (await q.get("same"))?.state === "completed", "completion");
      await q.add("same", { v: "third" }); // finished jobs count too
      expect((await q.counts()).waiting).toBe(0);
      expect(seen).toEqual(["first"]);
      expect((await q.get("same"))?.result).toBe("first");
    });

    it("runs at most `concurrency` jobs at once in one worker, and that many in parallel", async () => {
      const q = await queueOf<number, number>(options());
      for (let i = 0; i < 7; i++) await q.add(`c${i}`, i);
      let running = 0;
      let most = 0;
      const three = deferred();
      await work(
        q,
        async (job) => {
          running++;
          most = Math.max(most, running);
          if (running === 3) three.resolve();
          await three.promise; // nobody finishes before three ran side by side
          running--;
          return job.data;
        },
        3,
      );
      await until(async () => (await q.counts()).completed === 7, "all seven done");
      expect(most).toBe(3);
    });

    it("records a failure with its error for the producer", async () => {
      const q = await queueOf<unknown, unknown>(options());
      const finished: string[] = [];
      await q.onFinished((id) => finished.push(id));
      await q.add("bad", {});
      await work(q, async () => {
        throw new Error("the model was unreachable");
      });
      await until(() => finished.includes("bad"), "the failure event");
      expect(await q.get("bad")).toMatchObject({ state: "failed", error: "the model was unreachable" });
    });

    it("gives the job of a worker that was killed to another worker, once", async () => {
      const opts = options();
      const q = await queueOf<{ n: number }, string>(opts);
      await q.add("job-a", { n: 1 });
      const first = hangingWorker(opts);
      expect(await first.took).toBe("took job-a attempt 1");
      first.child.kill("SIGKILL");
      const attempts: { attempt: number; previous?: string }[] = [];
      await work(q, async (job) => {
        attempts.push({
          attempt: job.attempt,
          ...(job.previousWorker ? { previous: job.previousWorker } : {}),
        });
        return "done";
      });
      await until(async () => (await q.get("job-a"))?.state === "completed", "the retried job");
      expect(attempts).toEqual([{ attempt: 2, previous: `hanging/${first.child.pid}` }]);
    });

    it("fails a job whose workers died more often than maxStalled allows", async () => {
      const opts = options();
      const q = await queueOf<unknown, unknown>(opts);
      const finished: string[] = [];
      await q.onFinished((id) => finished.push(id));
      await q.add("doomed", {});
      for (const attempt of [1, 2]) {
        const w = hangingWorker(opts);
        expect(await w.took).toBe(`took doomed attempt ${attempt}`);
        w.child.kill("SIGKILL");
      }
      // A live worker keeps the stalled-job check going; the job must not reach it.
      const ran: string[] = [];
      await work(q, async (job) => {
        ran.push(job.id);
      });
      await until(() => finished.includes("doomed"), "the job to fail");
      expect((await q.get("doomed"))?.state).toBe("failed");
      expect((await q.get("doomed"))?.error).toMatch(/stalled/);
      expect(ran).toEqual([]);
    });

    it("hands running jobs back on close('hand-back'), and another worker finishes them", async () => {
      const q = await queueOf<unknown, string>(options());
      await q.add("long", {});
      const started = deferred();
      let aborted = false;
      const first = await work(q, (job) => {
        started.resolve();
        return new Promise<string>((_, reject) => {
          job.signal.addEventListener("abort", () => {
            aborted = true;
            reject(new Error("stopped"));
          });
        });
      });
      await started.promise;
      await first.close("hand-back");
      expect(aborted).toBe(true);
      expect((await q.get("long"))?.state).toBe("waiting");
      const attempts: number[] = [];
      await work(q, async (job) => {
        attempts.push(job.attempt);
        return "finished elsewhere";
      });
      await until(async () => (await q.get("long"))?.state === "completed", "the handed-back job");
      expect((await q.get("long"))?.result).toBe("finished elsewhere");
      expect(attempts).toEqual([2]);
    });

    it("close('finish') lets the running job finish and takes no more", async () => {
      const q = await queueOf<unknown, string>(options());
      await q.add("one", {});
      const started = deferred();
      const release = deferred();
      const w = await work(q, async () => {
        started.resolve();
        await release.promise;
        return "finished";
      });
      await started.promise;
      expect(await q.remove("one")).toBe(false); // running: stays
      const closing = w.close("finish");
      expect(w.running).toBe(1);
      release.resolve();
      await closing;
      expect(await q.get("one")).toMatchObject({ state: "completed", result: "finished" });
      await q.add("two", {});
      expect((await q.get("two"))?.state).toBe("waiting");
      expect(await q.remove("two")).toBe(true);
      expect(await q.get("two")).toBeUndefined();
    });

    it("a worker keeps working after its server went down and came back", async () => {
      const events: ConnectionEvent["kind"][] = [];
      const opts = options({ onConnection: (e) => events.push(e.kind) });
      const q = await queueOf<number, number>(opts);
      const done: number[] = [];
      await work(q, async (job) => {
        done.push(job.data);
        return job.data;
      });
      await q.add("before", 1);
      await until(() => done.includes(1), "the first job");
      await server.stop();
      await until(() => events.includes("lost"), "the worker to notice the outage");
      await server.start();
      await until(() => events.includes("back"), "the worker to reconnect");
      const producer = await queueOf<number, number>({ ...opts, onConnection: () => undefined });
      await producer.add("after", 2);
      await until(() => done.includes(2), "a job added after the restart");
      expect(events).toEqual(["lost", "back"]);
    });

    it("says clearly, without the password, that it cannot reach a server", async () => {
      const url =
        backend === "postgres" ? "postgres://iris:s3cret@127.0.0.1:1/x" : "redis://:s3cret@127.0.0.1:1";
      const err = await openBullMqQueue({ ...options(), url, openTimeoutMs: 2000 }).catch((e: Error) => e);
      expect(err).toBeInstanceOf(Error);
      expect((err as Error).message).toMatch(
        new RegExp(`cannot reach the ${backend} queue at .*127\\.0\\.0\\.1:1`),
      );
      expect((err as Error).message).not.toContain("s3cret");
    });
  });
}
