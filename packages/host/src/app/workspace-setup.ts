// The workspace a session's tools run in, chosen by the profile's `terminal.backend`.
import { localWorkspace, type Workspace } from "@iris/tools";
import type { Profile } from "../config/index.js";

/** A new workspace for one session working in `cwd`. */
export function sessionWorkspace(_profile: Profile, cwd: string): Workspace {
  return localWorkspace({ root: cwd });
}
