// The home folder of one profile (SPEC K1): every file of a profile lives under one root, and a
// named profile is a sibling tree under `<home>/profiles/NAME/` that shares nothing with the rest.
import { mkdirSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";

export interface HomePaths {
  config: string;
  env: string;
  db: string;
  soul: string;
  memory: string;
  user: string;
  skills: string;
  cron: string;
  logs: string;
  gatewayPid: string;
}

export interface Home {
  /** `IRIS_HOME` or `~/.iris`: the folder that holds the default profile and `profiles/`. */
  base: string;
  /** The folder of the selected profile (equals `base` for the default profile). */
  root: string;
  /** "default" or the validated profile name. */
  profile: string;
  paths: HomePaths;
}

export const DEFAULT_PROFILE = "default";

// Letters, digits, "_" and "-", starting with a letter or digit: no "/", "..", or hidden names,
// so a profile can never point outside `<home>/profiles/`.
const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

export class ProfileNameError extends Error {
  constructor(name: string) {
    super(
      `invalid profile name ${JSON.stringify(name)}: use 1-64 letters, digits, "_" or "-", starting with a letter or digit`,
    );
    this.name = "ProfileNameError";
  }
}

export function isValidProfileName(name: string): boolean {
  return PROFILE_NAME.test(name);
}

function expandTilde(p: string, userHome: string): string {
  if (p === "~") return userHome;
  if (p.startsWith("~/")) return join(userHome, p.slice(2));
  return p;
}

/**
 * Works out where a profile lives; touches nothing on disk (see `ensureHome`).
 * Throws `ProfileNameError` for a name that could escape the profiles folder.
 */
export function resolveHome(opts: { env: Record<string, string | undefined>; profile?: string }): Home {
  const userHome = opts.env["HOME"] || homedir();
  const fromEnv = opts.env["IRIS_HOME"]?.trim();
  const raw = fromEnv ? expandTilde(fromEnv, userHome) : join(userHome, ".iris");
  // A relative IRIS_HOME is taken from the current folder, like any other path argument.
  const base = resolve(raw);

  const profile = opts.profile ?? DEFAULT_PROFILE;
  if (!isValidProfileName(profile)) throw new ProfileNameError(profile);
  const root = profile === DEFAULT_PROFILE ? base : join(base, "profiles", profile);
  return { base, root, profile, paths: homePaths(root) };
}

export function homePaths(root: string): HomePaths {
  return {
    config: join(root, "config.yaml"),
    env: join(root, ".env"),
    db: join(root, "state.db"),
    soul: join(root, "SOUL.md"),
    memory: join(root, "MEMORY.md"),
    user: join(root, "USER.md"),
    skills: join(root, "skills"),
    cron: join(root, "cron"),
    logs: join(root, "logs"),
    gatewayPid: join(root, "gateway.pid"),
  };
}

/** Creates the profile folder (and `base`, `profiles/` on the way) with mode 0700 when missing. */
export function ensureHome(home: Home): void {
  // `recursive` applies the mode to every folder it creates and leaves existing ones alone.
  mkdirSync(home.root, { recursive: true, mode: 0o700 });
}
