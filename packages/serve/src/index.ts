// @iris/serve: the OpenAI-compatible API server (`iris serve`, SPEC E3) over host's sessions.
export { createApp } from "./app.js";
export type { ServeDeps } from "./deps.js";
export { hashKey } from "./keys.js";
export { type RunningServer, type ServeOptions, ServeStartError, startServer } from "./server.js";
