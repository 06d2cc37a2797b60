// A worker process for the queue contract suite: takes jobs from the queue named on the command
// line, says which one it took on stdout, and never finishes them (the test then kills it).
import { openBullMqQueue } from "../bullmq-queue.js";
import type { JobQueueBackend } from "../job-queue.js";

const [backend, url, name, lockMs, stalledCheckMs] = process.argv.slice(2);
const queue = await openBullMqQueue<unknown, unknown>({
  backend: backend as JobQueueBackend,
  url: url ?? "",
  name: name ?? "",
  lockMs: Number(lockMs),
  stalledCheckMs: Number(stalledCheckMs),
  maxStalled: 1,
});
await queue.work(
  async (job) => {
    process.stdout.write(`took ${job.id} attempt ${job.attempt}\n`);
    return new Promise(() => undefined);
  },
  { concurrency: 1, identity: `hanging/${process.pid}` },
);
process.stdout.write("ready\n");
