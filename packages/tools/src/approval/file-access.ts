// What a file tool's read, search or write means to the approval check (T4), judged on the real
// path (symlinks and `..` resolved): credentials and Iris's own configuration are asked about in
// every mode; reading outside the work folder asks unless `files.outside_workdir: allow`;
// writing outside it always asks; devices are never written.
import {
  isDeviceWrite,
  isInside,
  judgeWrite,
  type Place,
  readsCredential,
  realPath,
  searchReachesCredentials,
} from "./locations.js";

/** The same shape as detect.ts's Detection (not imported: detect.ts imports this file). */
interface Detection {
  blocked?: { key: string; description: string };
  matches: { key: string; description: string }[];
}

export interface FileAccessCheck {
  kind: "read" | "search" | "write";
  /** Absolute, as the tool will open it (symlinks not yet resolved). */
  path: string;
}

/** Asked about in every approval mode; neither "always" nor a skill's `allowed_tools` covers them. */
export const STRICT_KEYS: ReadonlySet<string> = new Set([
  "reads_credential",
  "self_modification",
  // A new skill's allowed_tools would pre-approve tools: Iris's own configuration too.
  "skill_manage:allowed_tools",
]);

export const FILE_ACCESS_REASONS = {
  reads_credential: "reads a credential",
  read_outside_workdir: "reads outside the work folder",
} as const;

export function judgeFileAccess(
  access: readonly FileAccessCheck[],
  place: Place & { outside: "ask" | "allow" },
): Detection {
  const matches: Detection["matches"] = [];
  const add = (key: string, description: string, path: string) => {
    if (!matches.some((m) => m.key === key)) matches.push({ key, description: `${description} (${path})` });
  };
  for (const a of access) {
    const real = realPath(a.path, place.workdir ?? "/") ?? a.path;
    if (a.kind === "write") {
      if (isDeviceWrite(real))
        return { blocked: { key: "write_block_device", description: `writes a device (${real})` }, matches };
      const judged = judgeWrite(a.path, place.workdir, place, false);
      if (judged) add(judged.key, judged.description, real === a.path ? a.path : `${a.path} → ${real}`);
      continue;
    }
    const credential =
      a.kind === "search"
        ? searchReachesCredentials(real, place)
        : readsCredential(real, place) || readsCredential(a.path, place);
    if (credential) add("reads_credential", FILE_ACCESS_REASONS.reads_credential, a.path);
    const workdir = place.workdir ? (realPath(place.workdir, "/") ?? place.workdir) : undefined;
    if (place.outside === "ask" && (workdir === undefined || !isInside(real, workdir)))
      add("read_outside_workdir", FILE_ACCESS_REASONS.read_outside_workdir, real);
  }
  return { matches };
}
