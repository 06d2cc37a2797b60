/** What a shape rule reports when it fires. */
export interface RuleViolation {
  /** e.g. "chat.tool_call_without_result" */
  rule: string;
  /** e.g. "messages[3]" */
  where: string;
  detail: string;
}

export function violation(rule: string, where: string, detail: string): RuleViolation {
  return { rule, where, detail };
}

export function describeViolation(v: RuleViolation): string {
  return `fake-llm shape rule ${v.rule} at ${v.where}: ${v.detail}`;
}

export type Json = Record<string, unknown>;

export function isObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Content as a list of blocks; a plain string has none. */
export function blocksOf(content: unknown): Json[] {
  return Array.isArray(content) ? content.filter(isObject) : [];
}
