// One run per output file: a second `iris batch … --out OUT --resume` started while the first
// still runs would run the same items twice. OUT.lock holds the owner's pid; a lock whose process
// is gone (killed with -9) is taken over.
import { closeSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";

export class RunLockError extends Error {}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Takes the lock or throws RunLockError naming the process that holds it. Returns the release. */
export function takeRunLock(path: string): () => void {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, "wx", 0o644);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return () => rmSync(path, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      let pid = Number.NaN;
      try {
        pid = Number.parseInt(readFileSync(path, "utf8"), 10);
      } catch {
        // Removed in between: try again.
      }
      if (Number.isInteger(pid) && pid !== process.pid && alive(pid))
        throw new RunLockError(`another iris batch (pid ${pid}) is writing this output (${path})`);
      rmSync(path, { force: true }); // stale: its process is gone
    }
  }
  throw new RunLockError(`could not take the lock ${path}`);
}
