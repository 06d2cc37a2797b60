// "The backend is down" apart from "the command failed" (Hermes's environment-unavailable
// error): a command that ran and exited 1 is a result; a workspace that cannot run anything
// (sshd gone, no container engine on the socket) throws this, naming what it tried.
export class WorkspaceUnavailable extends Error {
  override readonly name = "WorkspaceUnavailable";
  constructor(
    /** Which workspace: "ssh", "docker", … */
    readonly backend: string,
    /** What it tried to reach, as the user configured it (host:port, the socket path). */
    readonly target: string,
    reason: string,
  ) {
    super(`the ${backend} workspace (${target}) is unavailable: ${reason}`);
  }
}

export function isWorkspaceUnavailable(e: unknown): e is WorkspaceUnavailable {
  return e instanceof WorkspaceUnavailable;
}
