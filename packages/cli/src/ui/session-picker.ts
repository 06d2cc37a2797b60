// A session picker (`iris -r` without an id, `/resume` without an id): the recent sessions,
// numbered, newest first, with their titles; the answer is a number, a short id or empty (cancel).
import type { SessionRow, StoredSessions } from "@iris/host";
import { shortId } from "../session-ref.js";
import { worthResuming } from "./session-browser.js";
import { padToWidth, truncateToWidth } from "./width.js";

const when = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace("T", " ");

export function pickerList(rows: readonly SessionRow[], width: number, current?: string): string {
  return rows
    .map((s, i) => {
      const mark = s.id === current ? "*" : " ";
      const title = s.title ?? "(untitled)";
      return truncateToWidth(
        `${mark}${padToWidth(String(i + 1), 3)} ${shortId(s.id)}  ${when(s.startedAt)}  ${padToWidth(s.source, 6)} ${title}`,
        width,
      );
    })
    .join("\n");
}

/** For `/resume`: the sessions worth resuming, this folder's first. */
export async function recentForPicker(
  sessions: Pick<StoredSessions, "recent">,
  cwd?: string,
): Promise<SessionRow[]> {
  const rows = (await sessions.recent({ limit: 200 })).filter(worthResuming);
  const here = rows.filter((s) => s.cwd === cwd);
  return [...here, ...rows.filter((s) => s.cwd !== cwd)].slice(0, 15);
}

/** The row the answer names: a list number or an id reference; undefined = cancelled/unknown. */
export function pickedRow(rows: readonly SessionRow[], answer: string): SessionRow | "cancel" | undefined {
  const a = answer.trim();
  if (!a) return "cancel";
  const n = Number(a);
  if (Number.isInteger(n) && n >= 1 && n <= rows.length) return rows[n - 1];
  return rows.find((r) => r.id === a || (a.length >= 4 && (r.id.endsWith(a) || r.id.startsWith(a))));
}

export const PICKER_QUESTION = "resume which session? number or id (Enter to cancel): ";
