// The editor's working folder (SPEC E2; ACP `session/new` and friends): the protocol says an
// absolute path, and a session's tools run there, so a relative, missing or non-folder cwd is
// refused with invalid_params naming it, before a session is made.
import { statSync } from "node:fs";
import { isAbsolute } from "node:path";
import * as acp from "@agentclientprotocol/sdk/unstable";

export function checkedCwd(cwd: unknown): string {
  if (typeof cwd !== "string" || cwd === "")
    throw acp.RequestError.invalidParams(undefined, "cwd: the session's working folder is required");
  if (!isAbsolute(cwd))
    throw acp.RequestError.invalidParams(undefined, `cwd: ${JSON.stringify(cwd)} is not an absolute path`);
  let isDir = false;
  try {
    isDir = statSync(cwd).isDirectory();
  } catch {
    throw acp.RequestError.invalidParams(undefined, `cwd: ${cwd} does not exist`);
  }
  if (!isDir) throw acp.RequestError.invalidParams(undefined, `cwd: ${cwd} is not a folder`);
  return cwd;
}
