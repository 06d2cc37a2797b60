// Where each e-mail thread stands (SPEC G1): its subject and the Message-IDs a reply must name
// (In-Reply-To: the newest mail; References: the chain), kept in a small JSON file so a reply
// sent after a restart still lands in its thread. The newest 2,000 threads are kept.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { ThreadHeaders } from "./parse.js";

const KEEP = 2000;
/** References grow with each reply; mail clients cut long chains the same way (root + newest). */
const MAX_REFS = 20;

export class EmailThreads {
  private readonly threads = new Map<string, ThreadHeaders>();

  constructor(private readonly file: string) {
    try {
      const saved = JSON.parse(readFileSync(file, "utf8")) as Record<string, ThreadHeaders>;
      for (const [k, v] of Object.entries(saved))
        if (typeof v?.subject === "string" && typeof v.inReplyTo === "string" && Array.isArray(v.references))
          this.threads.set(k, v);
    } catch {
      // No file yet (or an unreadable one): replies then start from the thread id alone.
    }
  }

  /** The headers a reply in `thread` carries. */
  replyHeaders(thread: string | undefined): ThreadHeaders | undefined {
    if (!thread) return undefined;
    return this.threads.get(thread) ?? { subject: "", inReplyTo: thread, references: [thread] };
  }

  /** A mail of the thread arrived (or was sent): it is what the next reply answers. */
  note(thread: string, headers: ThreadHeaders): void {
    const refs = headers.references.filter((r, i, all) => all.indexOf(r) === i);
    const cut = refs.length > MAX_REFS ? [refs[0] ?? "", ...refs.slice(-(MAX_REFS - 1))] : refs;
    const old = this.threads.get(thread);
    this.threads.delete(thread);
    this.threads.set(thread, { ...headers, subject: headers.subject || old?.subject || "", references: cut });
    while (this.threads.size > KEEP) {
      const first = this.threads.keys().next().value;
      if (first === undefined) break;
      this.threads.delete(first);
    }
    this.save();
  }

  private save(): void {
    mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 });
    const tmp = `${this.file}.tmp`;
    writeFileSync(tmp, JSON.stringify(Object.fromEntries(this.threads)), { mode: 0o600 });
    renameSync(tmp, this.file);
  }
}

/** "Re: " before a subject that has none ("Re:", "RE:", "Aw:" count). */
export function replySubject(subject: string): string {
  const s = subject.trim();
  if (s === "") return "Re: your message";
  return /^(re|aw|sv|antw)\s*:/i.test(s) ? s : `Re: ${s}`;
}
