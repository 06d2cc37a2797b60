// @iris/gateway: the messaging gateway (SPEC G1–G4, U3) — one long-running process per profile
// serving chats on messaging platforms through one adapter interface.
export * from "./adapter.js";
export * from "./commands.js";
export * from "./cron-commands.js";
export * from "./lock.js";
export * from "./message.js";
export * from "./run.js";
export * from "./runner.js";
