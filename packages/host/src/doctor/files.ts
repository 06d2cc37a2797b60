// The profile's folder and files (SPEC K1, K3): who may read and write them. The seeds' outage:
// a credential file whose owner had drifted made both the 401 refresh and the fallback fail, so
// the .env must be readable AND writable by the user iris runs as.
import type { HomePaths } from "../config/index.js";
import { type Finding, fileAccess, octal, ownAndRestrict, type Probe } from "./types.js";

/** The home folder: 0700-ish. Others must have no access; the group may not write. */
export function checkHomeFolder(probe: Probe, root: string): Finding {
  const subject = "profile folder";
  const facts = probe.stat(root);
  if (!facts?.isDirectory)
    return {
      status: "fail",
      subject,
      message: `${root} ${facts ? "is not a folder" : "does not exist"}`,
      fix: facts ? `move ${root} away; iris creates the folder on its next start` : `mkdir -m 700 -p ${root}`,
    };
  const mode = facts.mode & 0o777;
  const fix = `chmod 700 ${root}`;
  if (mode & 0o007 || mode & 0o020)
    return {
      status: "fail",
      subject,
      message: `${root} has mode ${octal(mode)}: ${mode & 0o007 ? "other users" : "the group"} can get at the profile's history and keys`,
      fix,
    };
  const owner = ownership(probe, root, facts.uid);
  if (owner) return { status: "warn", subject, message: owner, fix: `chown -R ${probe.uid} ${root}` };
  if (mode & 0o050)
    return {
      status: "warn",
      subject,
      message: `${root} has mode ${octal(mode)}: the group can read it`,
      fix,
    };
  return { status: "ok", subject, message: `${root} (mode ${octal(mode)})` };
}

/**
 * The .env holds the profile's keys: readable (every start and every fallback activation reads
 * it), writable (a credential refresh writes it) and private (mode 600).
 */
export function checkDotenv(probe: Probe, path: string): Finding[] {
  const subject = ".env";
  const a = fileAccess(probe, path);
  if (!a.exists)
    return [
      { status: "ok", subject, message: `none at ${path} (keys come from the environment or config.yaml)` },
    ];
  const fix = ownAndRestrict(probe, path);
  if (!a.isFile)
    return [
      {
        status: "fail",
        subject,
        message: `${path} is not a file: no key in it can be read`,
        fix: `mv ${path} ${path}.bak && install -m 600 /dev/null ${path}, then put the keys back in`,
      },
    ];
  const out: Finding[] = [];
  if (!a.readable || !a.writable) {
    const cannot = !a.readable
      ? "cannot be read by you: no key in it resolves, so the main route and every fallback that needs one fail"
      : "cannot be written by you: a credential refresh after a 401 cannot store a new key";
    out.push({ status: "fail", subject, message: `${path} ${cannot}${uidNote(probe)}`, fix });
  }
  const mode = (a.facts?.mode ?? 0) & 0o777;
  if (mode & 0o077)
    out.push({
      status: "fail",
      subject,
      message: `${path} has mode ${octal(mode)}: other users can ${mode & 0o022 ? "change" : "read"} your keys`,
      fix: `chmod 600 ${path}`,
    });
  const owner = a.facts ? ownership(probe, path, a.facts.uid) : undefined;
  if (owner && !out.length) out.push({ status: "warn", subject, message: owner, fix });
  if (!out.length)
    out.push({
      status: "ok",
      subject,
      message: `${path}: readable and writable by you, mode ${octal(mode)}`,
    });
  return out;
}

/** config.yaml decides where keys are sent: nobody else may change it; with keys in it, read it. */
export function checkConfigFile(probe: Probe, path: string, holdsKeys: boolean): Finding {
  const subject = "config.yaml";
  const facts = probe.stat(path);
  if (!facts) return { status: "ok", subject, message: `none at ${path} (defaults apply)` };
  const mode = facts.mode & 0o777;
  if (mode & 0o002)
    return {
      status: "fail",
      subject,
      message: `${path} has mode ${octal(mode)}: any user can change where your keys are sent`,
      fix: `chmod 600 ${path}`,
    };
  if (holdsKeys && mode & 0o044)
    return {
      status: "fail",
      subject,
      message: `${path} holds a providers.*.api_key and has mode ${octal(mode)}: others can read it`,
      fix: `chmod 600 ${path} (better: move the key to the .env and name it with providers.ID.api_key_env)`,
    };
  if (mode & 0o020)
    return {
      status: "warn",
      subject,
      message: `${path} has mode ${octal(mode)}: the group can change it`,
      fix: `chmod 600 ${path}`,
    };
  return { status: "ok", subject, message: `${path} (mode ${octal(mode)})` };
}

/** The store holds every conversation: not for other users' eyes. */
export function checkStoreFile(probe: Probe, path: string): Finding | undefined {
  const facts = probe.stat(path);
  if (!facts || !(facts.mode & 0o004)) return undefined;
  return {
    status: "warn",
    subject: "state.db",
    message: `${path} has mode ${octal(facts.mode)}: other users can read your conversations`,
    fix: `chmod 600 ${path}*`,
  };
}

function ownership(probe: Probe, path: string, owner: number): string | undefined {
  if (probe.uid === undefined || owner === probe.uid) return undefined;
  return `${path} belongs to uid ${owner}, but iris runs as uid ${probe.uid}: a refresh or a fallback run as either user may fail`;
}

function uidNote(probe: Probe): string {
  return probe.uid === undefined ? "" : ` (you are uid ${probe.uid})`;
}

export function fileChecks(
  probe: Probe,
  paths: HomePaths,
  root: string,
  configHoldsKeys: boolean,
): Finding[] {
  const out = [checkHomeFolder(probe, root), ...checkDotenv(probe, paths.env)];
  out.push(checkConfigFile(probe, paths.config, configHoldsKeys));
  const db = checkStoreFile(probe, paths.db);
  if (db) out.push(db);
  return out;
}
