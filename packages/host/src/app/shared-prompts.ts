// The frozen prompts of stateless conversations, built once per working directory and route and
// shared (SPEC S2, E3): an API server's stateless request is a new session each time, and
// gathering context files and skills for each was most of a request's own cost. An entry is
// rebuilt when the files the prompt quotes (SOUL.md, MEMORY.md, USER.md) change, when the day
// changes (the prompt names the date), and at the latest after ENTRY_FRESH_MS, so a new skill or
// project file shows in the requests that start after that. The quoted files' changes are told by
// their folder's watch (file-changes.ts), so a request reads none of them; a folder that cannot be
// watched has its files stat'ed for every request instead.
import { statSync } from "node:fs";
import type { Menu, SkillLibrary } from "@iris/tools";
import { FileChanges, type WatchFolder } from "./file-changes.js";

/** The longest an entry is used without being rebuilt. */
export const ENTRY_FRESH_MS = 2_000;
/** Working directories remembered (an API server's pool of request folders is smaller). */
const MAX_ENTRIES = 128;

/** What a built prompt was built from, besides its key: the session takes these over. */
export interface SharedPrompt {
  /** Iris's own prompt, before an API client's instructions. */
  prompt: string;
  skills: SkillLibrary;
  menu: Menu;
}

interface Entry {
  value: SharedPrompt;
  builtAt: number;
  /** The next midnight after it was built (local time, as the prompt's date). */
  dayEnds: number;
  /** The quoted files' change count then, or their sizes and times where they are not watched. */
  stamp: number | string;
}

export class SharedPrompts {
  private readonly entries = new Map<string, Entry>();
  private readonly changes: FileChanges;

  constructor(
    private readonly now: () => number = Date.now,
    watchFolder?: WatchFolder,
  ) {
    this.changes = new FileChanges(watchFolder);
  }

  /** The prompt under `key`, built by `build` when missing or stale; `watched`: the files it quotes. */
  get(key: string, watched: readonly string[], build: () => SharedPrompt): SharedPrompt {
    const at = this.now();
    const stamp = this.changes.count(watched) ?? statStamp(watched);
    const hit = this.entries.get(key);
    if (hit && hit.stamp === stamp && at < hit.dayEnds && at - hit.builtAt < ENTRY_FRESH_MS) return hit.value;
    const value = build();
    this.entries.delete(key);
    this.entries.set(key, { value, builtAt: at, dayEnds: nextMidnight(at), stamp });
    // The oldest entry goes first (a Map keeps insertion order).
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
    return value;
  }

  /** Stops watching (the process is closing). */
  close(): void {
    this.changes.close();
    this.entries.clear();
  }
}

/** The files' sizes and times (absent ones as such). */
function statStamp(paths: readonly string[]): string {
  const parts: string[] = [];
  for (const path of paths) {
    const s = statSync(path, { throwIfNoEntry: false });
    parts.push(s ? `${s.size}:${s.mtimeMs}` : "-");
  }
  return parts.join("|");
}

function nextMidnight(at: number): number {
  const day = new Date(at);
  day.setHours(24, 0, 0, 0);
  return day.getTime();
}
