// The session row of a conversation that lives only in memory (stateless API requests): the
// same shape the store hands out, so the session reads it like any other, never written.
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
    ...fields,
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
