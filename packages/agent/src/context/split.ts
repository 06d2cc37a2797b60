// Session split (SPEC C4): compression ends the session and starts a child session holding the
// compacted context. The originals stay in the old session, searchable; the compaction node
// points at the last node it summarised, so the full history can be expanded again.
import type { Message } from "@iris/llm";
import type { NodeInput, NodeRow, Store } from "@iris/store";
import { renderTranscript } from "./summarise.js";
import { isSummaryMessage, messageText, SUMMARY_PREFIX } from "./summary-text.js";

export const COMPRESSED_END_REASON = "compressed";

export interface SplitOptions {
  /**
   * The index, in the old session's history as loaded (message and compaction nodes of the
   * active path), of the last message the summary replaced: `summarised.end - 1` of the
   * compress result. Or give the node id directly.
   */
  lastSummarisedIndex?: number;
  lastSummarisedNodeId?: string;
  title?: string;
}

/** The active path's nodes that become messages, in the order the history loader reads them. */
export function historyNodes(path: readonly NodeRow[]): NodeRow[] {
  return path.filter((n) => (n.kind === "message" && n.message) || (n.kind === "compaction" && n.text));
}

function numberedTitle(title: string | null): string | undefined {
  if (!title) return undefined;
  const match = /^(.*) #(\d+)$/.exec(title);
  return match ? `${match[1]} #${Number(match[2]) + 1}` : `${title} #2`;
}

/**
 * Writes the child session and ends the old one; returns the child's id. The store's compaction
 * nodes are roots (they stand for the whole path up to `expandsTo`), so the child's history is
 * the compaction node followed by the messages after the summary; messages kept before the
 * summary (the head) are carried inside the compaction text, ahead of the summary, in order.
 */
export async function splitSession(
  store: Store,
  sessionId: string,
  compacted: readonly Message[],
  opts: SplitOptions,
): Promise<string> {
  const old = await store.getSession(sessionId);
  if (old.endedAt !== null)
    throw new Error(`session ${sessionId} has already ended (${old.endReason ?? "no reason"})`);
  const expandsTo = await resolveLastSummarised(store, sessionId, opts);
  const inputs = childNodeInputs(compacted, expandsTo);
  // One write: the old session ends only together with a child holding the history.
  const child = await store.startSession({
    session: {
      source: old.source,
      cwd: old.cwd ?? undefined,
      parentSessionId: old.id,
      systemPrompt: old.systemPrompt ?? undefined,
      model: old.model ?? undefined,
      provider: old.provider ?? undefined,
      title: opts.title ?? numberedTitle(old.title),
    },
    nodes: inputs,
    ends: { sessionId: old.id, reason: COMPRESSED_END_REASON },
  });
  return child.id;
}

async function resolveLastSummarised(
  store: Store,
  sessionId: string,
  opts: SplitOptions,
): Promise<string | undefined> {
  if (opts.lastSummarisedNodeId !== undefined) return opts.lastSummarisedNodeId;
  if (opts.lastSummarisedIndex === undefined) return undefined;
  const nodes = historyNodes(await store.activePath(sessionId));
  const node = nodes[opts.lastSummarisedIndex];
  if (!node) {
    throw new Error(
      `lastSummarisedIndex ${opts.lastSummarisedIndex} is outside the session's history (${nodes.length} messages)`,
    );
  }
  return node.id;
}

/**
 * The child's nodes for a compacted history: the summary becomes a root compaction node read as
 * a user message (carrying the verbatim head), the messages after it follow. Logs without nodes
 * (memory, JSONL) take the `message` of each, so a split reads the same on every log.
 */
export function childNodeInputs(compacted: readonly Message[], expandsTo?: string): NodeInput[] {
  const at = compacted.findIndex(isSummaryMessage);
  const inputs: NodeInput[] = [];
  if (at < 0) {
    for (const message of compacted) inputs.push({ kind: "message", message });
  } else {
    let summary = compacted[at] as Message;
    const head = compacted.slice(0, at);
    // A summary merged into the first tail message (both roles clashed): keep that message apart.
    let rest: Message | undefined;
    const first = summary.role === "assistant" ? summary.parts[0] : undefined;
    if (summary.role === "assistant" && summary.parts.length > 1 && first?.type === "text") {
      rest = { ...summary, parts: summary.parts.slice(1) };
      summary = { ...summary, parts: [first] };
    }
    const body = messageText(summary).slice(SUMMARY_PREFIX.length).trim();
    const opening = head.length
      ? `[Opening of the conversation, kept verbatim]\n${renderTranscript(head)}\n[End of the opening]\n\n`
      : "";
    // The child has no head: its history starts with the compaction, read as a user message
    // carrying the opening and the summary (an assistant message first would break Anthropic and
    // Gemini, and the head would be lost). A user message after it is merged at send time (H2).
    const text = `${opening}${body}`;
    inputs.push({
      kind: "compaction",
      text,
      message: { role: "user", content: `${SUMMARY_PREFIX}\n${text}` },
      expandsTo,
      parentId: null,
    });
    if (rest) inputs.push({ kind: "message", message: rest });
    for (const message of compacted.slice(at + 1)) inputs.push({ kind: "message", message });
  }
  return inputs;
}
