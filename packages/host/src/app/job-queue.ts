// The profile's work queue (config `queue:`): which engine, the server's URL from the variable
// `queue.url_env` names (environment or .env; its password is registered as a secret, so no log
// or message shows it), and the lock and stall times. Front ends open their queues here.
import { registerSecret } from "@iris/llm";
import { type ConnectionEvent, type JobQueue, openJobQueue } from "@iris/store";
import type { Profile } from "../config/profile.js";
import { QUEUE_URL_ENV_DEFAULT } from "../config/queue-schema.js";

export type {
  ConnectionEvent,
  JobContext,
  JobInfo,
  JobQueue,
  JobQueueBackend,
  JobState,
  QueueWorker,
} from "@iris/store";
export { QueueUnavailableError, redactUrl } from "@iris/store";

/** The queue's settings are unusable (no URL): the message names the config key and variable. */
export class QueueConfigError extends Error {}

/** What the queue settings of a profile come to (exported for `doctor`-style reports and tests). */
export function queueSettings(profile: Profile): {
  backend: "postgres" | "redis";
  urlEnv: string;
  url?: string;
} {
  const q = profile.config.queue;
  const store = profile.config.store;
  // A queue on Postgres beside a Postgres store uses the store's database unless told otherwise.
  const urlEnv =
    q.url_env ??
    (q.backend === "postgres" && store.backend === "postgres"
      ? store.url_env
      : QUEUE_URL_ENV_DEFAULT[q.backend]);
  const url = profile.env[urlEnv];
  return { backend: q.backend, urlEnv, ...(url ? { url } : {}) };
}

/**
 * Opens the profile's queue for `purpose` (its name is `queue.name` + "-" + purpose). Throws
 * QueueConfigError when the URL is missing, QueueUnavailableError when the server cannot be reached.
 */
export async function openProfileQueue<D, R>(
  profile: Profile,
  purpose: string,
  opts: { onConnection?: (e: ConnectionEvent) => void; onError?: (message: string) => void } = {},
): Promise<JobQueue<D, R>> {
  const { backend, urlEnv, url } = queueSettings(profile);
  if (!url)
    throw new QueueConfigError(
      `queue.url_env: ${urlEnv} is not set (in the environment or the profile's .env); it should hold the ${backend === "postgres" ? "postgres://" : "redis://"} URL of the queue's server`,
    );
  try {
    const password = new URL(url).password;
    if (password) registerSecret(decodeURIComponent(password));
  } catch {
    // Not a URL: openJobQueue says so.
  }
  const q = profile.config.queue;
  const lockMs = q.lock_seconds * 1000;
  return openJobQueue<D, R>({
    backend,
    url,
    name: `${q.name}-${purpose}`,
    lockMs,
    stalledCheckMs: (q.stalled_check_seconds ?? q.lock_seconds) * 1000,
    maxStalled: q.max_stalled,
    ...(opts.onConnection ? { onConnection: opts.onConnection } : {}),
    ...(opts.onError ? { onError: opts.onError } : {}),
  });
}
