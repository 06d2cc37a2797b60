// The status line under each finished turn (SPEC E1): model, context used and left, the
// session's tokens and cost — what a user otherwise asks /context and /usage for.
import { budgetFor, type Session } from "@iris/host";

const k = (n: number) =>
  n >= 10_000 ? `${Math.round(n / 1000)}K` : n >= 1000 ? `${(n / 1000).toFixed(1)}K` : String(n);

export async function statusLine(session: Session): Promise<string> {
  const r = session.runtime;
  const window = budgetFor(session.config, r.provider, r.model).budget.window;
  // The last measured prompt: this process's, else the store's usage rows.
  const used = (await session.context.lastPromptTokens(session.id)) ?? 0;
  const left = Math.max(0, window - used);
  const pct = window > 0 ? Math.round((used / window) * 100) : 0;
  let input = 0;
  let output = 0;
  let cost = 0;
  for (const u of await session.usage()) {
    input += u.inputTokens;
    output += u.outputTokens;
    cost += u.costUsd;
  }
  return `${r.provider}/${r.model} · context ${k(used)}/${k(window)} (${pct} %, ${k(left)} left) · ${k(input)} in ${k(output)} out · $${cost.toFixed(4)}`;
}
