// Broken stored history (SPEC U1, H3): the send-time sanitation runs over the active path of
// every stored session; where it would remove something, the store lost a result (or kept a
// stray one). `--repair` persists the repair as a new branch; old nodes stay as they were.
import { existsSync } from "node:fs";
import { messagesOfPath } from "@iris/agent";
import { sanitizeHistory } from "@iris/llm";
import { type NodeRow, openStore, type Store } from "@iris/store";
import { planRepair, type StoredMessage, type UncertainEffect } from "./repair.js";
import type { Finding } from "./types.js";

const MAX_DETAILS = 3;

function storedMessages(path: readonly NodeRow[]): StoredMessage[] {
  const out: StoredMessage[] = [];
  for (const node of path) {
    const [message] = messagesOfPath([node]);
    if (message) out.push({ nodeId: node.id, message });
  }
  return out;
}

function uncertainIn(store: Store, sessionId: string): UncertainEffect {
  const open = store.listUnresolved(sessionId);
  return (nodeId, call) =>
    open.find(
      (e) => e.nodeId === nodeId && (e.callId === call.callId || (e.callId === null && e.tool === call.name)),
    )?.id;
}

function details(items: readonly string[]): string[] {
  const shown = items.slice(0, MAX_DETAILS);
  return items.length > shown.length ? [...shown, `… and ${items.length - shown.length} more`] : shown;
}

/** Appends the repaired branch; returns what was done. */
export function repairSession(
  store: Store,
  sessionId: string,
): { appended: number; actions: string[] } | undefined {
  const plan = planRepair(storedMessages(store.activePath(sessionId)), uncertainIn(store, sessionId));
  if (!plan) return undefined;
  if (plan.append.length === 0) {
    // Only drops: the repaired history is a prefix of the stored one.
    if (plan.parentId !== null) store.setActiveLeaf(sessionId, plan.parentId);
    return { appended: 0, actions: plan.actions };
  }
  const [first, ...rest] = plan.append;
  store.appendNodes(sessionId, [
    { kind: "message", message: first!, parentId: plan.parentId },
    ...rest.map((message) => ({ kind: "message" as const, message })),
  ]);
  return { appended: plan.append.length, actions: plan.actions };
}

export function checkHistory(dbPath: string, repair: boolean): Finding[] {
  const subject = "stored history";
  if (!existsSync(dbPath)) return [{ status: "ok", subject, message: "no sessions stored yet" }];
  let store: Store;
  try {
    store = openStore(dbPath);
  } catch (err) {
    return [
      {
        status: "fail",
        subject,
        message: `${dbPath} cannot be opened: ${err instanceof Error ? err.message : String(err)}`,
        fix: `check the file's owner and mode (ls -l ${dbPath}*)`,
      },
    ];
  }
  try {
    return scan(store, repair);
  } finally {
    store.close();
  }
}

function scan(store: Store, repair: boolean): Finding[] {
  const sessions = store.listSessions({ limit: Number.MAX_SAFE_INTEGER });
  const out: Finding[] = [];
  for (const s of sessions) {
    const removed = sanitizeHistory(messagesOfPath(store.activePath(s.id))).removed;
    if (!removed.length) continue;
    const subject = `session ${s.id.slice(0, 8)}`;
    if (!repair) {
      out.push({
        status: "fail",
        subject,
        message: `the history is broken: every request would drop ${removed.length} item${removed.length === 1 ? "" : "s"}`,
        details: details(removed),
        fix: "iris doctor --repair (appends a repaired branch; no stored message is changed; stop any iris process using the session first)",
      });
      continue;
    }
    const done = repairSession(store, s.id);
    const still = sanitizeHistory(messagesOfPath(store.activePath(s.id))).removed;
    if (still.length)
      out.push({
        status: "fail",
        subject,
        message: "the repair did not make the history whole",
        details: details(still),
        fix: `iris sessions show ${s.id}, then branch from an earlier message`,
      });
    else
      out.push({
        status: "ok",
        subject,
        message: `repaired: ${done?.appended ?? 0} message${done?.appended === 1 ? "" : "s"} appended as a new branch (old nodes kept)`,
        details: details(done?.actions ?? []),
      });
  }
  if (!out.length)
    out.push({
      status: "ok",
      subject: "stored history",
      message: `${sessions.length} session${sessions.length === 1 ? "" : "s"}, none broken`,
    });
  return out;
}
