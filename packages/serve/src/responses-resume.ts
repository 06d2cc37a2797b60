// GET /v1/responses/{id}?stream=true (SPEC E3): a background response's stream again,
// on any replica, from the event after `Last-Event-ID` (the SSE reconnect header) or after
// `starting_after` (the official SDK's `responses.retrieve(id, {stream: true, starting_after})`),
// else from the start. What the running replica recorded goes out at once; while the turn still
// runs (here or elsewhere) the record is polled and each new event follows, until the last one.
// A replica that stops beating before the end (killed, its database gone) ends the stream with
// an `error` event naming that, instead of leaving the client waiting.
import type { Context } from "hono";
import { streamSSE } from "hono/streaming";
import type { ServeDeps, ServeEnv } from "./deps.js";
import { badRequest } from "./errors.js";

/** How often a reader looks for new events of a running stream (ms). */
const POLL_MS = 100;
/** Events read per query. */
const PAGE = 500;

/** The stream of a background response, or undefined when the id has none (the caller's 404). */
export async function resumeStream(
  c: Context<ServeEnv>,
  deps: ServeDeps,
  id: string,
): Promise<Response | undefined> {
  const owner = c.get("owner");
  const log = deps.responses.streams;
  let cursor = cursorOf(c);
  if (!(await log.status(owner, id, Date.now()))) return undefined;
  const staleMs = deps.streamBeatMs * 5;
  c.header("x-accel-buffering", "no");
  return streamSSE(c, async (stream) => {
    let wake: (() => void) | undefined;
    stream.onAbort(() => wake?.());
    while (!stream.aborted) {
      const events = await log.after(id, cursor, PAGE);
      for (const e of events) await stream.writeSSE({ id: String(e.seq), event: e.type, data: e.data });
      cursor = events.at(-1)?.seq ?? cursor;
      if (events.length === PAGE) continue;
      const status = await log.status(owner, id, Date.now());
      if (!status) return; // expired or trimmed meanwhile
      if (status.done) {
        // Events recorded with `done` were committed before it was read: one last look.
        for (const e of await log.after(id, cursor, Number.MAX_SAFE_INTEGER))
          await stream.writeSSE({ id: String(e.seq), event: e.type, data: e.data });
        return;
      }
      if (Date.now() - status.aliveAt > staleMs) {
        const message = `the server running response ${id} stopped before it ended (no sign of it for ${Math.round(staleMs / 1000)} s); the response was not completed`;
        await stream.writeSSE({
          event: "error",
          data: JSON.stringify({
            type: "error",
            code: "stream_lost",
            message,
            param: null,
            sequence_number: cursor + 1,
          }),
        });
        return;
      }
      if (events.length) continue;
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, POLL_MS);
      });
    }
  });
}

/**
 * A background response still running (here or on another replica), as `responses.retrieve`
 * shows one: the response object it started with, `in_progress`. Undefined once it ended (then
 * the stored response answers) or when there is no such stream.
 */
export async function runningResponse(
  deps: ServeDeps,
  owner: string,
  id: string,
): Promise<Record<string, unknown> | undefined> {
  const log = deps.responses.streams;
  const status = await log.status(owner, id, Date.now());
  if (!status || status.done) return undefined;
  const created = (await log.after(id, -1, 1))[0];
  return created ? (JSON.parse(created.data) as { response?: Record<string, unknown> }).response : undefined;
}

/** Where to start: after Last-Event-ID, else after starting_after, else from the first event. */
function cursorOf(c: Context<ServeEnv>): number {
  const header = c.req.header("last-event-id");
  const [raw, param] =
    header !== undefined ? [header, "Last-Event-ID"] : [c.req.query("starting_after"), "starting_after"];
  if (raw === undefined || raw.trim() === "") return -1;
  const n = Number(raw.trim());
  if (!Number.isSafeInteger(n) || n < -1)
    throw badRequest(
      `${param}: a sequence number (an integer, the last event received) is expected, got ${JSON.stringify(raw)}`,
      param,
    );
  return n;
}
