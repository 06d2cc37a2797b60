// What fills the context window, in words (SPEC L5 `context_exhausted`): said when compression
// cannot make room, so the user knows whether tool output, the conversation or the system prompt
// is to blame, and what to do.
import { estimateMessageTokens, estimateTokens, type Message } from "@iris/llm";

function n(x: number): string {
  return String(Math.round(x)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

export function describeWindowUse(
  messages: readonly Message[],
  system: string,
  route: { provider: string; model: string },
  window: number,
): string {
  let tools = 0;
  let assistant = 0;
  let user = 0;
  let largest: { name: string; tokens: number } | undefined;
  let results = 0;
  for (const m of messages) {
    const t = estimateMessageTokens(m);
    if (m.role === "tool") {
      tools += t;
      results++;
      if (!largest || t > largest.tokens) largest = { name: m.toolName, tokens: t };
    } else if (m.role === "assistant") assistant += t;
    else user += t;
  }
  const parts = [
    `tool results ${n(tools)} tokens in ${results} result${results === 1 ? "" : "s"}` +
      (largest ? ` (the largest, from ${largest.name}, ${n(largest.tokens)})` : ""),
    `assistant messages ${n(assistant)}`,
    `user messages ${n(user)}`,
    `the system prompt ${n(estimateTokens(system))}`,
  ];
  return (
    `The conversation no longer fits the context window of ${route.provider}/${route.model} ` +
    `(${n(window)} tokens) and compression could not make room. What fills it: ${parts.join(", ")}. ` +
    "Nothing was sent or dropped. Start a new session (/new), ask for smaller tool outputs, or use a model with a larger window."
  );
}
