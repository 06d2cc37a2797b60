// `/rewind [N]`: the conversation back to before user message N (default: the last one) and the
// files that write_file and patch changed since then back as they were. Each file is copied when
// the model has written out a call that edits it (`tool_gen`, before the call runs), once per user
// message, into the profile (rewind-copies.ts), so a resumed session can rewind too; a file the
// turn created is removed. Files a shell command changed are not tracked.
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Session } from "@iris/host";
import { RewindCopies } from "./rewind-copies.js";

const WRITERS = new Set(["write_file", "patch"]);

type Out = { write(s: string): unknown };

export class FileSnapshots {
  constructor(
    private readonly session: Session,
    private readonly cwd: string,
  ) {}

  attach(): () => void {
    return this.session.events.on("tool_gen", ({ call }) => {
      if (!WRITERS.has(call.name)) return;
      let path: unknown;
      try {
        path = (JSON.parse(call.argumentsJson) as { path?: unknown }).path;
      } catch {
        return; // the dispatcher refuses it: nothing is written
      }
      if (typeof path !== "string" || !path) return;
      this.before(resolve(this.cwd, path.replace(/^~(?=\/|$)/, process.env.HOME ?? "~")));
    });
  }

  private before(file: string): void {
    const turn = this.session.stored.userTurns().at(-1);
    if (!turn) return;
    // By the user message's node id: a branch's message 3 is not the other branch's.
    const copies = this.copies();
    if (copies.has(turn.node.id, file)) return;
    let bytes: Buffer | null;
    try {
      bytes = existsSync(file) ? readFileSync(file) : null;
    } catch {
      return; // unreadable (a folder, no permission): the write will fail or is not ours to undo
    }
    try {
      copies.keep(turn.node.id, file, bytes);
    } catch (err) {
      this.session.events.emit("status", {
        level: "warn",
        message: `/rewind cannot keep a copy of ${file}: ${(err as Error).message}`,
      });
    }
  }

  /** This session's copies (the session changes with /new, /resume and compression splits). */
  private copies(): RewindCopies {
    return new RewindCopies(join(this.session.profile.home.root, "rewind", this.session.id));
  }

  rewind(arg: string, out: Out): void {
    const turns = this.session.stored.userTurns();
    const n = arg ? Number(arg) : turns.length;
    const turn = turns[n - 1];
    if (!turns.length) {
      out.write("nothing to rewind yet\n");
      return;
    }
    if (!Number.isInteger(n) || !turn) {
      out.write(`! no user message ${arg} in this session (it has ${turns.length}; /branch lists them)\n`);
      return;
    }
    // The latest message first, so each file ends as it was before message N.
    const restored = new Set<string>();
    const removed = new Set<string>();
    const failed: string[] = [];
    const copies = this.copies();
    for (const t of turns.slice(n - 1).reverse()) {
      for (const [file, bytes] of copies.entries(t.node.id)) {
        try {
          if (bytes === null) {
            rmSync(file, { force: true });
            removed.add(file);
            restored.delete(file);
          } else {
            writeFileSync(file, bytes);
            restored.add(file);
            removed.delete(file);
          }
        } catch (err) {
          failed.push(`${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
        }
      }
      copies.drop(t.node.id);
    }
    this.session.rewindTo(turn.node.parentId);
    out.write(`rewound to before message ${n} ("${turn.preview}")\n`);
    for (const f of restored) out.write(`  restored ${f}\n`);
    for (const f of removed) out.write(`  removed ${f} (the turn created it)\n`);
    for (const f of failed) out.write(`! not restored: ${f}\n`);
    if (!restored.size && !removed.size && !failed.length) out.write("  no file was edited since then\n");
    out.write("  (files that shell commands changed are not restored)\n");
  }
}
