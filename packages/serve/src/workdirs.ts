// Working directories of API sessions (SPEC E3): one per stored session under the profile
// (`serve/sessions/<random>`, kept), and a temporary one per stateless request
// (`serve/requests/<random>`). A request's directory that is still empty afterwards is reused
// by a later request (it holds nothing to leak); one with files in it is removed. Creating and
// removing a directory per request was most of the server's own CPU time on a loaded disk, and
// a request that ran no tool left its directory as it got it: it is not even read.
import { randomUUID } from "node:crypto";
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";

const POOL_MAX = 64;

export class Workdirs {
  private readonly idle: string[] = [];

  constructor(private readonly root: string) {}

  /** A fresh directory for a stored session (kept: the session may come back). */
  forSession(): string {
    return this.make(join(this.root, "sessions"));
  }

  /** An empty directory for one stateless request; give it back with `release`. */
  forRequest(): string {
    return this.idle.pop() ?? this.make(join(this.root, "requests"));
  }

  /** `written`: a tool ran there (without one, the directory is as empty as it was given). */
  release(path: string, written = true): void {
    let empty = !written;
    if (written)
      try {
        empty = readdirSync(path).length === 0;
      } catch {
        return; // already gone
      }
    if (empty && this.idle.length < POOL_MAX) this.idle.push(path);
    else rmSync(path, { recursive: true, force: true });
  }

  private make(parent: string): string {
    const path = join(parent, randomUUID());
    mkdirSync(path, { recursive: true, mode: 0o700 });
    return path;
  }
}
