// @iris/cli: the terminal front end (SPEC E1, K5, K6): the chat, one-shot turns and the commands
// that read and edit a profile. The bin (packages/iris) parses arguments and loads one of the
// parts below: each is a dynamic import, so `iris -p` evaluates the one-shot turn and not the chat
// screen, and no command evaluates another's modules. Only the light modules are imported here.
export { endQuietlyOnClosedPipes } from "./epipe.js";
export type { GlobalFlags } from "./flags.js";
export { closest } from "./suggest.js";
export { IRIS_VERSION } from "./version.js";

/** The CLI's parts, each loaded when its command runs. */
export const cliParts = {
  promptInput: () => import("./prompt-input.js"),
  oneShot: () => import("./oneshot.js"),
  interactive: () => import("./interactive.js"),
  sessions: () => import("./commands/sessions.js"),
  usage: () => import("./commands/usage.js"),
  doctor: () => import("./commands/doctor.js"),
  migrate: () => import("./commands/migrate.js"),
  skills: () => import("./commands/skills.js"),
  tools: () => import("./commands/tools.js"),
  mcp: () => import("./commands/mcp.js"),
  effects: () => import("./commands/effects.js"),
  context: () => import("./commands/context.js"),
  models: () => import("./commands/models.js"),
  config: () => import("./commands/config.js"),
  setup: () => import("./commands/setup.js"),
};
