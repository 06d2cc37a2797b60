// `/workspace [local|ssh|docker]` in the chat: which workspace this session's tools use and which
// the profile configures; with a name, this session moves there (the profile's choice stays).
// The new backend is reached first: one that is down changes nothing and says why.
import { availableBackends, type Session, WORKSPACE_BACKENDS, type WorkspaceBackend } from "@iris/host";

type Out = { write(s: string): unknown };

export const WORKSPACE_HELP: [string, string] = [
  "/workspace [local|ssh|docker]",
  "where this session's tools run; with a name, move this session there",
];

export async function workspaceCommand(
  session: Session,
  arg: string,
  out: Out,
  busy: boolean,
): Promise<boolean> {
  const configured = availableBackends(session.config);
  const name = arg.trim();
  if (!name) {
    out.write(`workspace: ${session.workspace.description}\n`);
    out.write(`configured: ${configured.join(", ")} (profile default: ${session.config.terminal.backend})\n`);
    return true;
  }
  if (!WORKSPACE_BACKENDS.includes(name as WorkspaceBackend)) {
    out.write(`! unknown workspace '${name}': use ${WORKSPACE_BACKENDS.join(", ")}\n`);
    return true;
  }
  if (busy) {
    out.write("! a turn is running: /workspace waits until it has ended (or /stop it)\n");
    return true;
  }
  if (name === session.workspace.kind) {
    out.write(`already on ${session.workspace.description}\n`);
    return true;
  }
  try {
    const now = await session.switchWorkspace(name as WorkspaceBackend);
    out.write(`this session's tools now run on ${now}\n`);
  } catch (e) {
    out.write(`! ${(e as Error).message}; still on ${session.workspace.description}\n`);
  }
  return true;
}
