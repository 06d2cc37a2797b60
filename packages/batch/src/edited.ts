// Lines with an `id` keep their key when edited, so the key alone cannot tell that a done item's
// line changed (SPEC E4). A row says what its item was — prompt, metadata and (rows of this
// version) its own system text — so an item whose row disagrees with its line now was edited:
// resume reports it and stops until --force, which runs it again.
import type { BatchItem } from "./input.js";
import type { TrajectoryRow } from "./trajectory.js";

function promptOfRow(row: TrajectoryRow): string | undefined {
  const turn = row.conversations?.find((c) => c.from === "human");
  if (turn) return turn.value;
  const message = row.messages?.find((m) => m.role === "user");
  return message?.content;
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Keys of items whose line no longer matches their row. */
export function editedKeys(items: readonly BatchItem[], rows: ReadonlyMap<string, TrajectoryRow>): string[] {
  const edited: string[] = [];
  for (const item of items) {
    const row = rows.get(item.key);
    if (!row || item.id === undefined) continue; // a line without an id that changed has a new key
    const prompt = promptOfRow(row);
    const systemKnown = row.tools !== undefined; // rows of earlier versions did not write it
    if (
      (prompt !== undefined && prompt !== item.prompt) ||
      !sameJson(row.metadata, item.metadata) ||
      (systemKnown && row.system !== item.system)
    )
      edited.push(item.key);
  }
  return edited;
}
