// Broken stored history (SPEC U1, H3): the send-time sanitation runs over the active path of
// every stored session; where it would remove something, the store lost a result (or kept a
// stray one). `--repair` persists the repair as a new branch; old nodes stay as they were.
import { existsSync } from "node:fs";
import { messagesOfPath } from "@iris/agent";
import { sanitizeHistory } from "@iris/llm";
import {
  checkDatabase,
  type NodeRow,
  openStore,
  type Store,
  StoreError,
  salvageDatabase,
  shortId,
} from "@iris/store";
import { planRepair, type StoredMessage, type UncertainEffect } from "./repair.js";
import { type ShapeReport, shapeOf } from "./shape.js";
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

async function uncertainIn(store: Store, sessionId: string): Promise<UncertainEffect> {
  const open = await store.listUnresolved(sessionId);
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
export async function repairSession(
  store: Store,
  sessionId: string,
): Promise<{ appended: number; actions: string[] } | undefined> {
  const plan = planRepair(
    storedMessages(await store.activePath(sessionId)),
    await uncertainIn(store, sessionId),
  );
  if (!plan) return undefined;
  if (plan.append.length === 0) {
    // Only drops: the repaired history is a prefix of the stored one.
    if (plan.parentId !== null) await store.setActiveLeaf(sessionId, plan.parentId);
    return { appended: 0, actions: plan.actions };
  }
  const [first, ...rest] = plan.append;
  await store.appendNodes(sessionId, [
    { kind: "message", message: first!, parentId: plan.parentId },
    ...rest.map((message) => ({ kind: "message" as const, message })),
  ]);
  return { appended: plan.append.length, actions: plan.actions };
}

export async function checkHistory(dbPath: string, repair: boolean): Promise<Finding[]> {
  const subject = "stored history";
  if (!existsSync(dbPath)) return [{ status: "ok", subject, message: "no sessions stored yet" }];
  // A damaged file fails only the queries that reach its bad pages: check it whole first.
  const health = checkDatabase(dbPath);
  // (A file that is no database at all is left to the open error below: nothing to recover.)
  if (!health.ok && !/not a database/.test(health.problem)) return damaged(dbPath, health.problem, repair);
  let store: Store;
  try {
    store = openStore(dbPath);
  } catch (err) {
    return [
      {
        status: "fail",
        subject,
        message: `${dbPath} cannot be opened: ${err instanceof Error ? err.message : String(err)}`,
        fix: openFix(err, dbPath),
      },
    ];
  }
  try {
    return await scan(store, repair);
  } finally {
    await store.close();
  }
}

async function scan(store: Store, repair: boolean): Promise<Finding[]> {
  const sessions = await store.listSessions({ limit: Number.MAX_SAFE_INTEGER });
  const out: Finding[] = [];
  for (const s of sessions) {
    const messages = messagesOfPath(await store.activePath(s.id));
    const removed = sanitizeHistory(messages).removed;
    const subject = `session ${shortId(s.id)}`;
    out.push(...shapeFindings(subject, s.id, shapeOf(messages)));
    if (!removed.length) continue;
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
    const done = await repairSession(store, s.id);
    const still = sanitizeHistory(messagesOfPath(await store.activePath(s.id))).removed;
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
  if (!out.some((f) => f.status === "fail"))
    out.push({
      status: "ok",
      subject: "stored history",
      message: `${sessions.length} session${sessions.length === 1 ? "" : "s"}, none broken`,
    });
  return out;
}

/** Two user messages in a row (H1): interleaved writers, or a failed turn stored before the repair. */
function shapeFindings(subject: string, sessionId: string, shape: ShapeReport): Finding[] {
  const out: Finding[] = [];
  if (shape.userPairs.length)
    out.push({
      status: "fail",
      subject,
      message: `user messages follow each other without an answer (${shape.userPairs.length}×): an unanswered failed turn, or two processes writing the session at once`,
      details: details(shape.userPairs.map((p) => `message ${p} follows another user message`)),
      fix: `iris sessions show ${sessionId}, then continue from an earlier message (providers reject this shape)`,
    });
  else if (shape.endsUnanswered)
    out.push({
      status: "warn",
      subject,
      message: "ends with a user message that got no answer; the next turn stores a note before going on",
    });
  return out;
}

/** The fix for a store that would not open: the file's damage is not a matter of its owner. */
/** The database is damaged: say which file and how to recover; with --repair, recover it. */
function damaged(dbPath: string, problem: string, repair: boolean): Finding[] {
  const subject = "stored history";
  if (!repair)
    return [
      {
        status: "fail",
        subject,
        message: `${dbPath} is damaged (${problem})`,
        fix: "iris doctor --repair (keeps a copy of the file, then copies every readable row into a new one)",
      },
    ];
  try {
    const r = salvageDatabase(dbPath);
    const rows = Object.values(r.copied).reduce((a, b) => a + b, 0);
    const lost = r.lost.length ? `; not readable: ${r.lost.slice(0, MAX_DETAILS).join("; ")}` : "";
    return [
      {
        status: r.lost.length ? "warn" : "ok",
        subject,
        message: `${dbPath} was damaged (${problem}): recovered ${rows} rows (${r.copied.sessions ?? 0} sessions, ${r.copied.nodes ?? 0} messages); the damaged file is kept as ${r.kept}${lost}`,
        ...(r.lost.length
          ? { fix: `sqlite3 ${r.kept} .recover may read more of it (the sqlite3 shell's recovery)` }
          : {}),
      },
    ];
  } catch (err) {
    return [
      {
        status: "fail",
        subject,
        message: `${dbPath} is damaged (${problem}) and could not be recovered: ${(err as Error).message}`,
        fix: `mv ${dbPath} ${dbPath}.broken (Iris starts a new one; sqlite3 ${dbPath}.broken .recover may save its sessions)`,
      },
    ];
  }
}

function openFix(err: unknown, dbPath: string): string {
  const code = err instanceof StoreError ? err.code : undefined;
  if (code === "db_corrupt")
    return `mv ${dbPath} ${dbPath}.broken (Iris starts a new one; sqlite3 ${dbPath}.broken .recover may save its sessions)`;
  if (code === "db_too_new") return "upgrade Iris";
  if (code === "db_busy") return `wait for the other iris process to finish (fuser ${dbPath})`;
  return `check the file's owner and mode and its folder's (ls -ld ${dbPath}* $(dirname ${dbPath}))`;
}
