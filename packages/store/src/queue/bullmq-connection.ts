// How BullMQ reaches the queue's server: on PostgreSQL its backend factory is the last
// constructor argument (passing it as `connection` crashes) and `migrate: true` makes the first
// client create or upgrade the queue's tables (several processes at once are fine); on Redis an
// ioredis connection that retries with a growing pause and never gives up on a command (BullMQ's
// workers need `maxRetriesPerRequest: null`). BullMQ is loaded on first use.
import type * as BullMq from "bullmq";
import type { JobQueueOptions } from "./job-queue.js";

export type BullMqModule = typeof BullMq;

/** The one difference between the engines: the connection, and on Postgres the backend factory. */
export type BullMqParts =
  | { mod: BullMqModule; backend: "redis"; connection: BullMq.ConnectionOptions }
  | { mod: BullMqModule; backend: "postgres"; connection: BullMq.PostgresPoolConfig };

export type Queue = BullMq.Queue;
export type Worker = BullMq.Worker;
export type QueueEvents = BullMq.QueueEvents;
export type Job = BullMq.Job;

export function newQueue(p: BullMqParts, name: string): Queue {
  return p.backend === "postgres"
    ? (new p.mod.Queue(name, { connection: p.connection }, p.mod.createPostgresBackend) as unknown as Queue)
    : new p.mod.Queue(name, { connection: p.connection });
}

export function newQueueEvents(p: BullMqParts, name: string): QueueEvents {
  return p.backend === "postgres"
    ? (new p.mod.QueueEvents(
        name,
        { connection: p.connection },
        p.mod.createPostgresBackend,
      ) as unknown as QueueEvents)
    : new p.mod.QueueEvents(name, { connection: p.connection });
}

export type WorkerSettings = Omit<BullMq.WorkerOptions, "connection">;

export function newWorker(
  p: BullMqParts,
  name: string,
  processor: (job: Job, token?: string) => Promise<unknown>,
  settings: WorkerSettings,
): Worker {
  return p.backend === "postgres"
    ? (new p.mod.Worker(
        name,
        processor,
        { ...settings, connection: p.connection },
        p.mod.createPostgresBackend,
      ) as unknown as Worker)
    : new p.mod.Worker(name, processor, { ...settings, connection: p.connection });
}

/** A wait that grows from 100 ms to 5 s (ioredis calls it per attempt; 1 is the first). */
export function reconnectDelayMs(attempt: number): number {
  return Math.min(5000, 100 * 2 ** Math.min(attempt - 1, 6));
}

/** The URL with its password (and user) left out, for messages and logs. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = "";
    u.password = "";
    return u.toString();
  } catch {
    return "(an unreadable URL)";
  }
}

function redisConnection(url: string): BullMq.ConnectionOptions {
  const u = new URL(url);
  if (u.protocol !== "redis:" && u.protocol !== "rediss:")
    throw new Error(`the Redis queue needs a redis:// or rediss:// URL, not ${u.protocol}//`);
  const db = u.pathname.replace(/^\//, "");
  return {
    host: u.hostname || "127.0.0.1",
    port: u.port ? Number(u.port) : 6379,
    ...(u.username ? { username: decodeURIComponent(u.username) } : {}),
    ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
    ...(db ? { db: Number(db) } : {}),
    ...(u.protocol === "rediss:" ? { tls: {} } : {}),
    maxRetriesPerRequest: null,
    retryStrategy: reconnectDelayMs,
  };
}

function postgresConnection(url: string): BullMq.PostgresPoolConfig {
  const u = new URL(url);
  if (u.protocol !== "postgres:" && u.protocol !== "postgresql:")
    throw new Error(`the Postgres queue needs a postgres:// URL, not ${u.protocol}//`);
  return { connectionString: url, migrate: true };
}

export async function bullMqParts(opts: JobQueueOptions): Promise<BullMqParts> {
  if (opts.backend === "redis") {
    const connection = redisConnection(opts.url);
    return { mod: (await import("bullmq")) as BullMqModule, backend: "redis", connection };
  }
  const connection = postgresConnection(opts.url);
  return { mod: (await import("bullmq")) as BullMqModule, backend: "postgres", connection };
}
