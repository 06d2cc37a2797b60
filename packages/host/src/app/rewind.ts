// `/rewind`: the conversation back to before a user message, and the files the turns since then
// wrote back as they were. What to restore comes from the effect receipts: each receipted call that
// writes files (write_file, patch) kept them as they were right before it ran (store
// effect-snapshots.ts); the calls anchored on the nodes being taken back are undone newest first,
// so each file ends as it was before the earliest of them. Files shell commands changed have no
// snapshot and are not restored. The snapshots of an abandoned branch stay with its receipts.
import { rmSync, writeFileSync } from "node:fs";
import type { Store } from "@iris/store";
import { shellQuote, type Workspace } from "@iris/tools";
import { type UserTurn, userTurns } from "./branching.js";

export interface RewindResult {
  turn: UserTurn;
  /** Files written back with their earlier bytes. */
  restored: string[];
  /** Files removed (a rewound call created them). */
  removed: string[];
  /** Files that could not be put back, each with why. */
  failed: string[];
}

/**
 * Rewinds session `sessionId` to before user message `n` (default: the last): the files first,
 * then the conversation (`moveTo`, the session's own rewindTo).
 */
export async function rewindSession(
  store: Store,
  sessionId: string,
  n: number | undefined,
  workspace: Workspace,
  moveTo: (leafId: string | null) => void,
): Promise<RewindResult | { error: string }> {
  const turns = userTurns(store, sessionId);
  if (!turns.length) return { error: "nothing to rewind yet" };
  const at = n ?? turns.length;
  const turn = turns[at - 1];
  if (!Number.isInteger(at) || !turn)
    return { error: `no user message ${at} in this session (it has ${turns.length}; /branch lists them)` };
  const path = store.activePath(sessionId).map((node) => node.id);
  const files = await restoreFiles(store, path.slice(path.indexOf(turn.node.id)), workspace);
  moveTo(turn.node.parentId);
  return { turn, ...files };
}

/** Puts back the files the receipted calls anchored on `nodeIds` wrote, newest call first. */
async function restoreFiles(
  store: Store,
  nodeIds: string[],
  workspace: Workspace,
): Promise<Omit<RewindResult, "turn">> {
  const restored = new Set<string>();
  const removed = new Set<string>();
  const failed = new Map<string, string>();
  for (const snap of store.fileSnapshots(nodeIds)) {
    const file = snap.path;
    restored.delete(file);
    removed.delete(file);
    failed.delete(file);
    if (snap.skipped) {
      failed.set(file, `no copy was kept (${snap.skipped})`);
      continue;
    }
    try {
      await putBack(workspace, file, snap.content);
      (snap.content ? restored : removed).add(file);
    } catch (err) {
      failed.set(file, (err as NodeJS.ErrnoException).code ?? (err as Error).message);
    }
  }
  return {
    restored: [...restored],
    removed: [...removed],
    failed: [...failed].map(([f, why]) => `${f}: ${why}`),
  };
}

/** Writes `content` back (null: removes the file) where the tools wrote it. */
async function putBack(ws: Workspace, file: string, content: Buffer | null): Promise<void> {
  // On this machine byte for byte; elsewhere through the workspace, as the tool wrote it.
  if (ws.kind === "local") {
    if (content) writeFileSync(file, content);
    else rmSync(file, { force: true });
    return;
  }
  if (!content) {
    const r = await ws.exec({ command: `rm -f -- ${shellQuote(file)}`, cwd: ws.root, timeoutMs: 30_000 });
    if (r.exitCode !== 0) throw new Error(r.output.trim() || `rm exited with ${r.exitCode}`);
    return;
  }
  const text = content.toString("utf8");
  if (!Buffer.from(text, "utf8").equals(content))
    throw new Error(`not text, and the ${ws.kind} workspace writes text only`);
  await ws.writeFile(file, text);
}
