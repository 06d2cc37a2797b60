// Who uses a profile-scoped container: each session leaves a file named for its Iris process and
// session in the container, and takes it away when it ends. The last one to leave (no file of a
// live process remains) stops the container: "stopped when its scope ends". A killed Iris's file
// names a process that is gone, so it does not keep the container alive.
import { hostname } from "node:os";
import type { DockerContainer } from "./docker-container.js";
import { ownerGone } from "./docker-container.js";
import { runRaw } from "./docker-exec.js";

const USERS_DIR = "/tmp/.iris-users";

function userFile(sessionId: string): string {
  // host:pid (the owner label's form), then the session: names are kept to safe characters.
  return `${hostname()}:${process.pid}@${sessionId}`.replace(/[^A-Za-z0-9_.:@-]/g, "_");
}

/** This session now uses the container. */
export async function joinContainer(box: DockerContainer): Promise<void> {
  const file = `${USERS_DIR}/${userFile(box.settings.sessionId)}`;
  await runRaw(box, ["sh", "-c", `mkdir -p ${USERS_DIR} && : > '${file}'`]);
}

/** This session leaves; true when no live session uses the container any more. */
export async function leaveContainer(box: DockerContainer): Promise<boolean> {
  const file = `${USERS_DIR}/${userFile(box.settings.sessionId)}`;
  const r = await runRaw(box, ["sh", "-c", `rm -f '${file}'; ls -1 ${USERS_DIR} 2>/dev/null; true`]);
  const others = r.stdout
    .toString("utf8")
    .split("\n")
    .filter((name) => name !== "" && !ownerGone(name.split("@")[0]));
  return others.length === 0;
}
