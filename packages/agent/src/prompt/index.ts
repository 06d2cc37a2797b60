export * from "./build.js";
export * from "./gather.js";
export * from "./identity.js";
export * from "./types.js";
