// config.yaml `queue:` — the work queue that spreads work over processes and machines
// (ARCHITECTURE.md: BullMQ, on PostgreSQL by default, Redis as the tested twin). Used by
// `iris worker` and `iris batch --queue`; the server's URL is read from an environment variable
// (or .env), never from this file.
import { z } from "zod";

export const QUEUE_URL_ENV_DEFAULT = { postgres: "IRIS_DATABASE_URL", redis: "IRIS_REDIS_URL" } as const;

export const queueSchema = z.strictObject({
  backend: z
    .enum(["postgres", "redis"])
    .default("postgres")
    .describe(
      "Where the queue lives: PostgreSQL (BullMQ's Postgres backend, its tables in schema bullmq) or Redis.",
    ),
  url_env: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "an environment variable name")
    .optional()
    .describe(
      "The environment variable (or .env key) that holds the server's URL (default: a Postgres store's own store.url_env, else IRIS_DATABASE_URL for postgres; IRIS_REDIS_URL for redis).",
    ),
  name: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,80}$/, "letters, digits, '-', '_' and '.'")
    .default("iris")
    .describe(
      "Prefix of the queues' names: workers take only the jobs of their own, so profiles that share a server keep apart with different names.",
    ),
  lock_seconds: z
    .number()
    .min(0.5)
    .max(3600)
    .default(30)
    .describe(
      "How long a worker's claim on a job lasts without its heartbeat: a worker that died loses its jobs to the others this long after.",
    ),
  stalled_check_seconds: z
    .number()
    .min(0.25)
    .max(3600)
    .optional()
    .describe("How often the workers look for jobs whose worker died (default lock_seconds)."),
  max_stalled: z
    .int()
    .min(0)
    .max(100)
    .default(1)
    .describe("How many times a job whose worker died is started again by another worker before it fails."),
});
