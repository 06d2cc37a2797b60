export * from "./errors.js";
export * from "./events.js";
export * from "./types.js";
export * from "./shaping/sanitize.js";
export * from "./wire/stream.js";
export * from "./runtime.js";
