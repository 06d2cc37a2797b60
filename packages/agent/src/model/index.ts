// Retries, the fallback chain and cooldowns around the single-route LlmModelClient (SPEC F1, F2, U4).
export * from "./cooldown.js";
export * from "./fallback-chain.js";
export * from "./resilient-client.js";
export * from "./retry-policy.js";
export * from "./sleep.js";
export * from "./store-route-health.js";
