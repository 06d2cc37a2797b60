// Commands run in their own process group (spawned detached), so one signal to -pid reaches
// every child and grandchild, not just the shell.

export const KILL_GRACE_MS = 2000;

/** Sends `signal` to the whole group; false when the group no longer exists. */
export function signalGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

/** SIGTERM now, SIGKILL after the grace period for whatever ignored it. */
export function terminateGroup(pid: number, graceMs = KILL_GRACE_MS): void {
  if (!signalGroup(pid, "SIGTERM")) return;
  setTimeout(() => signalGroup(pid, "SIGKILL"), graceMs).unref();
}

/** Whether any process of the group is alive (signal 0 only checks). */
export function groupAlive(pid: number): boolean {
  return signalGroup(pid, 0);
}

// Groups still running when Node exits are killed so no command outlives the agent.
const liveGroups = new Set<number>();
let exitHookInstalled = false;

export function trackGroup(pid: number): void {
  liveGroups.add(pid);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once("exit", () => {
      for (const g of liveGroups) signalGroup(g, "SIGKILL");
    });
  }
}

export function untrackGroup(pid: number): void {
  liveGroups.delete(pid);
}
