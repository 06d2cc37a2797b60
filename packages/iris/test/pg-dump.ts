// Reads what `pg_dump` wrote (plain format) back into rows, and judges the conversations in it:
// the multi-process tests' last word on the shared database, read the way an operator would
// inspect a backup rather than through Iris's own code.

export type Row = Record<string, string | null>;

/** Every `COPY schema.table (columns) FROM stdin;` block of the dump, by "schema.table". */
export function dumpedTables(dump: string): Map<string, Row[]> {
  const tables = new Map<string, Row[]>();
  const lines = dump.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const head = /^COPY ([\w."]+) \(([^)]*)\) FROM stdin;$/.exec(lines[i] ?? "");
    if (!head) continue;
    const name = (head[1] ?? "").replaceAll('"', "");
    const columns = (head[2] ?? "").split(", ").map((c) => c.replaceAll('"', ""));
    const rows: Row[] = [];
    for (i++; i < lines.length && lines[i] !== "\\."; i++) {
      const values = (lines[i] ?? "").split("\t").map(copyValue);
      rows.push(Object.fromEntries(columns.map((c, k) => [c, values[k] ?? null])));
    }
    tables.set(name, rows);
  }
  return tables;
}

/** COPY's text format: \N is NULL; backslash escapes the rest. */
function copyValue(field: string): string | null {
  if (field === "\\N") return null;
  return field.replace(/\\(.)/g, (_, c: string) =>
    c === "n"
      ? "\n"
      : c === "t"
        ? "\t"
        : c === "r"
          ? "\r"
          : c === "b"
            ? "\b"
            : c === "f"
              ? "\f"
              : c === "v"
                ? "\v"
                : c,
  );
}

type Msg = { role: string; content?: unknown; callId?: string };

/**
 * What is half-written in one conversation (its messages in order): a turn (a user message and
 * what follows it) that does not end in an assistant message without tool calls, a tool call
 * without its result, a result that answers no call. Empty when every turn is whole.
 */
export function halfWritten(messages: readonly Msg[]): string[] {
  const problems: string[] = [];
  const open = new Set<string>();
  let turn: number | undefined; // the user message of a turn not yet answered in full
  const endTurn = () => {
    if (turn !== undefined) problems.push(`the turn of user message ${turn} has no final answer`);
    for (const id of open) problems.push(`tool call ${id} has no result`);
    open.clear();
  };
  for (const [i, m] of messages.entries()) {
    if (m.role === "user") {
      endTurn();
      turn = i;
    } else if (m.role === "assistant") {
      const parts = Array.isArray(m.content) ? (m.content as { type?: string; callId?: string }[]) : [];
      const calls = parts.filter((p) => p.type === "toolCall" && p.callId);
      for (const p of calls) open.add(p.callId as string);
      if (!calls.length && open.size === 0) turn = undefined;
    } else if (m.role === "tool") {
      if (!m.callId || !open.delete(m.callId)) problems.push(`tool result ${i} answers no call`);
    }
  }
  endTurn();
  return problems;
}
