// Session hygiene (SPEC C1, C2): before the agent for a message is created, a history over 0.85
// of the window is compressed, and the firing is logged as an alarm — in normal operation the
// agent layer keeps the history below it, so a firing means that layer is broken.
import { budgetFor, type Session, sessionHygiene } from "@iris/host";
import type { Logger } from "@iris/llm";

export interface HygieneOutcome {
  fired: boolean;
  tokens: number;
  compressed?: boolean;
}

export async function runHygiene(session: Session, logger: Logger): Promise<HygieneOutcome> {
  const row = session.session;
  const config = session.config;
  const { provider, model } = session.runtime;
  const messages = await session.history();
  // The last measured prompt plus an estimate of what was appended since (not the bare
  // measurement: a history that grew after the last call must count).
  const size = await session.context.promptSize(row.id, messages, row.systemPrompt ?? "");
  const result = sessionHygiene({
    messages,
    lastPromptTokens: size.tokens,
    budget: budgetFor(config, provider, model).budget,
    compressionEnabled: config.compression.enabled,
    system: row.systemPrompt ?? "",
  });
  if (!result.fire) return { fired: false, tokens: result.tokens };
  logger.error(result.alarm ?? "context alarm", { sessionId: row.id, tokens: result.tokens });
  const done = await session.compressNow();
  return { fired: true, tokens: result.tokens, compressed: done.ok };
}
