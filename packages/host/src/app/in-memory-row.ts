// The session row of a conversation that lives only in memory (stateless API requests): the
// same shape the store hands out, so the session reads it like any other, never written. Written
// out field by field: in a CPU profile of stateless requests the spread form (a spread, then
// fourteen more fields) was 1 % of each request; this form does not show.
import type { SessionRow } from "@iris/store";

export function inMemoryRow(fields: {
  id: string;
  source: string;
  cwd: string;
  systemPrompt: string;
  model: string;
  provider: string;
}): SessionRow {
  return {
    id: fields.id,
    source: fields.source,
    cwd: fields.cwd,
    systemPrompt: fields.systemPrompt,
    model: fields.model,
    provider: fields.provider,
    title: null,
    parentSessionId: null,
    startedAt: Date.now(),
    endedAt: null,
    endReason: null,
    activeLeafId: null,
    apiCalls: 0,
    inputTokens: 0,
    outputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
    costUsd: 0,
  };
}
