// GET /v1/responses/{id}, DELETE /v1/responses/{id} and GET /v1/responses/{id}/input_items
// (SPEC E3), as the official SDK calls them (`responses.retrieve`, `delete`, `inputItems.list`).
// Only the API key that made a response reaches it; another key's, an expired one, one made with
// `store: false` and an unknown id are the same 404.
import type { Context } from "hono";
import type { ServeDeps, ServeEnv } from "./deps.js";
import { ApiError, badRequest } from "./errors.js";
import { itemsPage } from "./response-items.js";
import type { ResponseRecord } from "./response-store.js";
import { resumeStream, runningResponse } from "./responses-resume.js";

export async function retrieveResponse(c: Context<ServeEnv>, deps: ServeDeps): Promise<Response> {
  if (c.req.query("stream") === "true") {
    const id = c.req.param("id") ?? "";
    const resumed = isResponseId(id) ? await resumeStream(c, deps, id) : undefined;
    if (resumed) return resumed;
    // A response that ran in the foreground was not recorded: it is retrieved whole.
    await recordOf(c, deps);
    throw badRequest(
      "stream: only a response created with background: true can be streamed again; retrieve this one without stream=true",
      "stream",
    );
  }
  const id = c.req.param("id") ?? "";
  const running = isResponseId(id) ? await runningResponse(deps, c.get("owner"), id) : undefined;
  if (running) return c.json(running);
  return c.json((await recordOf(c, deps)).response);
}

export async function deleteResponse(c: Context<ServeEnv>, deps: ServeDeps): Promise<Response> {
  const id = c.req.param("id") ?? "";
  if (!isResponseId(id) || !(await deps.responses.delete(c.get("owner"), id))) throw notFound(id);
  return c.json({ id, object: "response", deleted: true });
}

export async function listInputItems(c: Context<ServeEnv>, deps: ServeDeps): Promise<Response> {
  const { inputItems } = await recordOf(c, deps);
  return c.json(itemsPage(inputItems, c.req.query()));
}

async function recordOf(c: Context<ServeEnv>, deps: ServeDeps): Promise<ResponseRecord> {
  const id = c.req.param("id") ?? "";
  // A conversation's key (`conv:…`) is no response id: never reachable here.
  const record = isResponseId(id) ? (await deps.responses.get(c.get("owner"), id))?.record : undefined;
  if (!record) throw notFound(id);
  return record;
}

const isResponseId = (id: string) => id.startsWith("resp_");

/** OpenAI's own wording and shape for a response that is not there. */
function notFound(id: string): ApiError {
  return new ApiError(404, `Response with id '${id}' not found.`, "invalid_request_error", null, null);
}
