// Iris inside editors: the Agent Client Protocol over stdio (SPEC E2), a client of host.
export { AcpSession, type AcpSessionOptions, type SessionChannel } from "./acp-session.js";
export { type AcpAgentOptions, createAcpAgent, LIST_PAGE_SIZE, QUEUE_NOTE } from "./agent-app.js";
export { type AcpRunOptions, runAcpStdio } from "./stdio.js";
export { claimStdout } from "./stdout-guard.js";
