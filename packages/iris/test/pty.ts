// Drives the interactive CLI through a real pseudo-terminal (python3's pty module relays our
// pipes to the terminal's master side), reading the screen as a user would.
import { type ChildProcess, spawn } from "node:child_process";
import { IRIS_BIN } from "./helpers.js";

const RELAY = `
import os, pty, sys, select, signal
pid, fd = pty.fork()
if pid == 0:
    os.execvp(sys.argv[1], sys.argv[1:])
import fcntl, termios, struct
fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 100, 0, 0))
inp = sys.stdin.fileno()
watched = [fd, inp]
while True:
    r, _, _ = select.select(watched, [], [])
    if fd in r:
        try:
            data = os.read(fd, 65536)
        except OSError:
            break
        if not data:
            break
        os.write(sys.stdout.fileno(), data)
    if inp in r:
        data = os.read(inp, 65536)
        if not data:
            # Our stdin closed: stop watching it (at EOF it is always readable, a busy loop).
            watched = [fd]
            continue
        os.write(fd, data)
_, status = os.waitpid(pid, 0)
sys.exit(os.waitstatus_to_exitcode(status) if hasattr(os, "waitstatus_to_exitcode") else status >> 8)
`;

/**
 * Colour and cursor sequences removed: what a reader of the screen's text sees. What is drawn
 * with the cursor saved and restored (ESC 7 … ESC 8: the status line on the last row) is not part
 * of the scrolling text; statusOf reads it.
 */
export function plain(text: string): string {
  return text.replace(/\u001b7[\s\S]*?\u001b8/g, "").replace(/\u001b\[[0-9;?]*[A-Za-z~]/g, "");
}

/** The status line as last drawn on the terminal's last row, or undefined before it is. */
export function statusOf(text: string): string | undefined {
  const drawn = [...text.matchAll(/\u001b7([\s\S]*?)\u001b8/g)].map((m) => plain(m[1] ?? "")).filter(Boolean);
  return drawn.at(-1);
}

export interface PtySession {
  child: ChildProcess;
  /** The output as text, without colour and cursor sequences. */
  screen(): string;
  /** The output exactly as the terminal received it. */
  raw(): string;
  type(text: string): void;
  /** Waits until the screen's text matches, or (a function) until it returns true. */
  waitFor(pattern: RegExp | string | (() => boolean), timeoutMs?: number): Promise<void>;
  exited: Promise<number | null>;
}

export function startPty(args: string[], env: Record<string, string>, cwd?: string): PtySession {
  const child = spawn("python3", ["-c", RELAY, process.execPath, IRIS_BIN, ...args], {
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", TERM: "xterm", ...env },
    cwd: cwd ?? process.cwd(),
    stdio: ["pipe", "pipe", "pipe"],
  });
  let out = "";
  const waiters: (() => void)[] = [];
  child.stdout!.on("data", (d) => {
    out += d.toString("utf8");
    for (const w of waiters.splice(0)) w();
  });
  child.stderr!.on("data", (d) => {
    out += d.toString("utf8");
  });
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  return {
    child,
    screen: () => plain(out),
    raw: () => out,
    type: (text) => child.stdin!.write(text),
    waitFor: (pattern, timeoutMs = 15_000) =>
      new Promise<void>((resolve, reject) => {
        const test = () => {
          if (typeof pattern === "function") return pattern();
          const text = plain(out);
          return typeof pattern === "string" ? text.includes(pattern) : pattern.test(text);
        };
        // A condition on something else than the screen is also polled.
        const poll = typeof pattern === "function" ? setInterval(() => check(), 50) : undefined;
        const timer = setTimeout(() => {
          clearInterval(poll);
          reject(new Error(`timed out waiting for ${pattern}; screen so far:\n${plain(out)}`));
        }, timeoutMs);
        const check = () => {
          if (test()) {
            clearTimeout(timer);
            clearInterval(poll);
            resolve();
          } else if (!poll) waiters.push(check);
        };
        check();
      }),
    exited,
  };
}

/** Sets up `start`, a startPty that remembers its terminals, and `killOpen` (for afterEach) to kill those still running. */
export function trackedPtys(): { start: typeof startPty; killOpen: () => void } {
  const opened: PtySession[] = [];
  return {
    start: (...args) => {
      const t = startPty(...args);
      opened.push(t);
      return t;
    },
    killOpen: () => {
      for (const t of opened.splice(0)) if (t.child.exitCode === null) t.child.kill("SIGKILL");
    },
  };
}
