// What every doctor check returns, and the few facts about the machine it reads (through a probe,
// so tests running as root can still exercise the "cannot read" paths).
import { accessSync, constants, statSync } from "node:fs";

export type Status = "ok" | "warn" | "fail";

/** One line of the report. `fail` makes `iris doctor` exit 1; `warn` is shown but does not. */
export interface Finding {
  status: Status;
  /** What was checked, e.g. "main route", ".env", "session 1a2b3c4d". */
  subject: string;
  message: string;
  /** The exact key, command or chmod that fixes it. */
  fix?: string;
  /** Extra lines (e.g. what the sanitation would remove). */
  details?: string[];
}

export interface FileFacts {
  mode: number;
  uid: number;
  isFile: boolean;
  isDirectory: boolean;
}

export interface Probe {
  /** `fs.accessSync` semantics: throws when the current user lacks `mode` (R_OK, W_OK) on `path`. */
  access(path: string, mode: number): void;
  /** Undefined when nothing is at `path`. */
  stat(path: string): FileFacts | undefined;
  /** The effective user id; undefined where the platform has none. */
  uid: number | undefined;
  /** Whether a process with this pid exists (one owned by another user counts). */
  processAlive(pid: number): boolean;
  /** This process: a doctor run from inside the gateway must not flag itself. */
  selfPid: number;
}

export function systemProbe(): Probe {
  return {
    access: (path, mode) => accessSync(path, mode),
    stat: (path) => {
      const s = statSync(path, { throwIfNoEntry: false });
      return s ? { mode: s.mode, uid: s.uid, isFile: s.isFile(), isDirectory: s.isDirectory() } : undefined;
    },
    uid: typeof process.geteuid === "function" ? process.geteuid() : undefined,
    processAlive: (pid) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch (err) {
        return (err as NodeJS.ErrnoException).code === "EPERM";
      }
    },
    selfPid: process.pid,
  };
}

export interface Access {
  exists: boolean;
  isFile: boolean;
  readable: boolean;
  writable: boolean;
  facts?: FileFacts;
}

/** Whether the current user can read and write `path` as a file. */
export function fileAccess(probe: Probe, path: string): Access {
  const facts = probe.stat(path);
  if (!facts) return { exists: false, isFile: false, readable: false, writable: false };
  const can = (mode: number) => {
    try {
      probe.access(path, mode);
      return true;
    } catch {
      return false;
    }
  };
  return {
    exists: true,
    isFile: facts.isFile,
    readable: facts.isFile && can(constants.R_OK),
    writable: facts.isFile && can(constants.W_OK),
    facts,
  };
}

export const octal = (mode: number) => (mode & 0o777).toString(8).padStart(3, "0");

/** `chown UID PATH && chmod 600 PATH`, or just the chmod where there is no uid. */
export function ownAndRestrict(probe: Probe, path: string, mode = "600"): string {
  const chmod = `chmod ${mode} ${path}`;
  return probe.uid === undefined ? chmod : `chown ${probe.uid} ${path} && ${chmod}`;
}
