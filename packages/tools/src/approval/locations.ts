// Where a path really is, and what that place means to the approval check (T4). Paths are judged
// after resolution: `..` is folded and every symlink of the part that exists is followed, so
// `link → ~/.bashrc` is judged as ~/.bashrc. Judgements are data (a key and a reason), so the
// terminal's redirections and the file tools share them.
import { lstatSync, readlinkSync, realpathSync } from "node:fs";
import { posix } from "node:path";
import { expandGlob, globMayMatch } from "./globs.js";
import { isCredentialPath, isShellStartupPath, isSystemPath, normalizePath } from "./paths.js";

/** What the check knows of where a command runs and whose files it must keep. */
export interface Place {
  /** `~` and `$HOME`. */
  home: string;
  /** The folder the agent works in: writes inside it are ordinary. Default `cwd`. */
  workdir?: string;
  /** The Iris profile folder (config.yaml, .env, state.db, skills): Iris's own configuration. */
  profile?: string;
}

/** `path` made absolute against `cwd` and resolved through every existing symlink. */
export function realPath(path: string, cwd: string | undefined): string | undefined {
  if (!path.startsWith("/") && cwd === undefined) return undefined;
  const abs = posix.normalize(path.startsWith("/") ? path : posix.join(cwd as string, path));
  // The deepest part that exists is resolved; what does not exist yet is appended as written.
  const rest: string[] = [];
  let head = abs;
  for (let guard = 0; guard < 64; guard++) {
    try {
      const real = realpathSync.native(head);
      return rest.length ? posix.join(real, ...rest.reverse()) : real;
    } catch {
      if (head === "/") break;
      // A dangling link still says where a write would land: follow it by hand.
      const target = linkTarget(head);
      if (target !== undefined) {
        head = posix.normalize(target.startsWith("/") ? target : posix.join(posix.dirname(head), target));
        continue;
      }
      rest.push(posix.basename(head));
      head = posix.dirname(head);
    }
  }
  return abs;
}

function linkTarget(path: string): string | undefined {
  try {
    return lstatSync(path).isSymbolicLink() ? readlinkSync(path) : undefined;
  } catch {
    return undefined;
  }
}

export function isInside(path: string, folder: string): boolean {
  const f = normalizePath(folder);
  return path === f || path.startsWith(f === "/" ? "/" : `${f}/`);
}

/** Device files that read or write nothing of value. */
const HARMLESS_DEVICES =
  /^\/dev\/(?:null|zero|full|random|urandom|stdin|stdout|stderr|tty|ptmx|console|fd\/\d+|pts\/\d+|shm(?:\/.*)?)$/;

/** Any other device node: disks whatever their name (`/dev/disk/by-id/…`, `/dev/root`, `/dev/nvme0n1p1`). */
export function isDeviceWrite(path: string): boolean {
  const p = normalizePath(path);
  return (p.startsWith("/dev/") && !HARMLESS_DEVICES.test(p)) || /^\/proc\/sysrq-trigger$/.test(p);
}

/** Files of other processes that hold their secrets: environment, command line, memory. */
const PROC_SECRET = /^\/proc\/[^/]+\/(?:task\/[^/]+\/)?(?:environ|cmdline|mem|auxv)$/;

/** Folders that hold nothing but credentials: reading anything inside, or below a search, asks. */
function credentialFolders(place: Place): string[] {
  const h = place.home;
  return [
    `${h}/.ssh`,
    `${h}/.aws`,
    `${h}/.gnupg`,
    `${h}/.config/gcloud`,
    `${h}/.azure`,
    `${h}/.kube`,
    `${h}/.docker`,
    `${h}/.password-store`,
    `${h}/.local/share/keyrings`,
    `${h}/.config/gh`,
    // Containers' and clusters' mounted secrets, and the system's private TLS keys.
    "/run/secrets",
    "/var/run/secrets",
    "/etc/ssl/private",
  ].map(normalizePath);
}

/** The profile folder: the one given, else the default `~/.iris`. */
export function profileOf(place: Place): string {
  return normalizePath(place.profile ?? `${place.home}/.iris`);
}

/** The system's password hashes and host keys. */
const SYSTEM_SECRETS =
  /^\/etc\/(?:g?shadow-?|sudoers(?:\.d(?:\/.*)?)?|ssh\/ssh_host_[^/]*_key|security\/opasswd)$/;
/** Shell and REPL histories: tokens typed or pasted on a command line stay there. */
const HISTORY_FILE =
  /(?:^|\/)\.(?:bash|zsh|sh|ksh|fish|python|psql|mysql|sqlite|node_repl|rediscli|lesshst|irb|pry|php)_?history$|(?:^|\/)\.local\/share\/fish\/fish_history$/;

const KEY_FILE =
  /\.(?:pem|key|p12|pfx|jks|keystore|asc|gpg|kdbx|ppk)$|(?:^|\/)id_(?:rsa|dsa|ecdsa|ed25519)[^/]*$/;
/** What of a profile folder decides what Iris may do, or holds its keys and conversations. */
const PROFILE_PROTECTED =
  /^(?:\.env(?:\..*)?|state\.db.*|config\.ya?ml|skills|hooks|cron|mcp.*|SOUL\.md|.*token.*|.*secret.*|auth.*|gateway.*|pairing.*|.*\.key|.*\.pid|.*\.lock)$/i;

/** `path` is a protected part of the profile folder (or of one of its named profiles). */
function inProfile(path: string, place: Place): boolean {
  const profile = profileOf(place);
  const real = realPath(profile, "/") ?? profile;
  for (const root of new Set([profile, real])) {
    if (path === root) return true;
    if (!isInside(path, root)) continue;
    const parts = path.slice(root.length + 1).split("/");
    // <home>/profiles/NAME/…: the same protected names one level down.
    const first = parts[0] === "profiles" ? (parts.length <= 2 ? "profiles" : parts[2]) : parts[0];
    if (first === "profiles" || PROFILE_PROTECTED.test(first ?? "")) return true;
  }
  return false;
}

const GLOB = /[*?[]/;

/** Names credentials are kept under, wherever they are: a glob that may match one may read it. */
const CREDENTIAL_NAMES = [
  ".env",
  ".env.local",
  ".netrc",
  ".npmrc",
  ".pypirc",
  ".pgpass",
  ".git-credentials",
  "credentials",
  "id_rsa",
  "id_ed25519",
  "server.key",
  "cert.pem",
  "keystore.jks",
];

/**
 * A glob's matches (`~/.iris/.en?`, `cat .en?`, a star for the user in /home): expanded here when its
 * folders exist, else matched against where credentials are kept and the names they have.
 */
function globMayReadCredential(p: string, place: Place): boolean {
  if (!GLOB.test(p)) return false;
  const expanded = p.startsWith("/") ? expandGlob(p) : undefined;
  if (expanded) return expanded.some((m) => !GLOB.test(m) && readsCredential(m, place));
  const parts = p.split("/");
  const at = parts.findIndex((s) => GLOB.test(s));
  const base = parts.slice(0, at).join("/") || (p.startsWith("/") ? "/" : ".");
  const samples = [
    ...credentialFolders(place),
    profileOf(place),
    ...CREDENTIAL_NAMES.map((n) => posix.join(base, n)),
  ];
  return globMayMatch(p, samples);
}

// Files a glob under /proc could match: `/proc/<star>/env<star>`, `/proc/[0-9]<star>/cmdl?ne`.
const PROC_SAMPLES = ["environ", "cmdline", "mem", "auxv"].flatMap((f) => [
  `/proc/1/${f}`,
  `/proc/self/${f}`,
  `/proc/1/task/1/${f}`,
]);

/** Reading this file would show a credential. */
export function readsCredential(path: string, place: Place): boolean {
  const p = normalizePath(path);
  // /proc/PID/root/… and /proc/PID/cwd/… are another way into the whole filesystem.
  const through = /^\/proc\/[^/]+\/(?:root|cwd)(\/.*)$/.exec(p);
  if (through?.[1] && readsCredential(through[1], place)) return true;
  if (
    PROC_SECRET.test(p.replace(/\[[^\]]*\]|\*/g, "x")) ||
    (p.startsWith("/proc/") && globMayMatch(p, PROC_SAMPLES))
  )
    return true;
  // A raw disk or the memory holds every file's and process's secrets.
  if (isDeviceWrite(p) || /^\/dev\/(?:mem|kmem|port)$|^\/proc\/kcore$/.test(p)) return true;
  if (globMayReadCredential(p, place)) return true;
  if (isCredentialPath(p) || KEY_FILE.test(p) || /(?:^|\/)\.netrc$|(?:^|\/)\.git-credentials$/.test(p))
    return true;
  if (SYSTEM_SECRETS.test(p) || HISTORY_FILE.test(p)) return true;
  if (inProfile(p, place)) return true;
  return credentialFolders(place).some((f) => isInside(p, f));
}

/** A recursive read starting here would pass through a credential folder (`grep -r sk- ~`). */
export function searchReachesCredentials(path: string, place: Place): boolean {
  const p = normalizePath(path);
  if (readsCredential(p, place)) return true;
  if (p === "/proc" || p === "/") return true;
  return [...credentialFolders(place), profileOf(place)].some((f) => isInside(f, p));
}

/** Places whose files run later by themselves: hooks, autostart, PATH folders, schedulers. */
const PERSISTENCE: readonly RegExp[] = [
  /(?:^|\/)\.git\/(?:hooks(?:\/|$)|config$)/,
  /(?:^|\/)\.envrc$/,
  /\/\.config\/(?:systemd|autostart|autostart-scripts|environment\.d|plasma-workspace\/(?:env|shutdown)|upstart)(?:\/|$)/,
  /\/\.config\/[^/]+(?:\/[^/]+)?\/autostart(?:\.sh)?$|\/\.kde4?\/Autostart(?:\/|$)/,
  /\/\.local\/share\/(?:systemd\/user|dbus-1\/services|applications)(?:\/|$)/,
  // Python runs .pth files and usercustomize.py of the user site at every start.
  /\/\.local\/lib\/python[^/]*\/site-packages\/(?:[^/]+\.pth|usercustomize\.py|sitecustomize\.py)$/,
  // Build tools' per-user scripts and wrappers that run with every build.
  /\/\.gradle\/(?:init\.d(?:\/|$)|init\.gradle(?:\.kts)?$)|\/\.cargo\/config(?:\.toml)?$|\/\.m2\/extensions\.xml$/,
  /\/\.ssh\/environment$|\/\.(?:xsession|gnomerc|Xsession)$/,
  /\/\.local\/bin(?:\/|$)/,
  /^\/home\/[^/]+\/bin(?:\/|$)|^\/root\/bin(?:\/|$)/,
  /\/\.(?:gitconfig|bash_logout|xprofile|xsessionrc|xinitrc|pam_environment|inputrc|vimrc|exrc|tmux\.conf|screenrc|npmrc|yarnrc|curlrc|wgetrc)$/,
  /\/\.config\/git\/(?:config|attributes)$/,
  /\/\.(?:vim|emacs\.d|config\/nvim)\//,
  /\/Library\/Launch(?:Agents|Daemons)(?:\/|$)/,
  /^\/etc\/(?:cron|profile\.d|init\.d|systemd|rc\.|sudoers|ld\.so)/,
  /^\/var\/spool\/cron/,
  /(?:^|\/)authorized_keys2?$/,
  /\/\.ssh\/(?:config|rc)$/,
];

export interface WriteJudgement {
  key: string;
  description: string;
}

/**
 * What writing `path` means: undefined when it is an ordinary file of the work folder or a temp
 * folder, else the pattern to ask under. Device writes are the hard block's (hardline.ts).
 */
export function judgeWrite(
  path: string,
  cwd: string | undefined,
  place: Place,
  /** Whether temp folders count as ordinary (the terminal's `> /tmp/x`); the file tools ask. */
  tempIsOrdinary = true,
): WriteJudgement | undefined {
  // `> /dev/stderr`: the command's own output, wherever that link points.
  if (HARMLESS_DEVICES.test(normalizePath(path))) return undefined;
  const real = realPath(path, cwd);
  if (real === undefined)
    return { key: "write_unknown_place", description: WRITE_REASONS.write_unknown_place };
  if (HARMLESS_DEVICES.test(real)) return undefined;
  if (inProfile(real, place))
    return { key: "self_modification", description: WRITE_REASONS.self_modification };
  if (isShellStartupPath(real))
    return { key: "write_shell_startup", description: WRITE_REASONS.write_shell_startup };
  if (isCredentialPath(real) || KEY_FILE.test(real))
    return { key: "write_credentials", description: WRITE_REASONS.write_credentials };
  if (PERSISTENCE.some((re) => re.test(real)))
    return { key: "persistence", description: WRITE_REASONS.persistence };
  if (isSystemPath(real))
    return { key: "write_system_config", description: WRITE_REASONS.write_system_config };
  const workdir = place.workdir ?? cwd;
  if (workdir !== undefined && isInside(real, realPath(workdir, "/") ?? workdir)) return undefined;
  if (tempIsOrdinary && TEMP.some((t) => isInside(real, t))) return undefined;
  return { key: "write_outside_workdir", description: WRITE_REASONS.write_outside_workdir };
}

const TEMP = ["/tmp", "/var/tmp", ...(process.env.TMPDIR ? [normalizePath(process.env.TMPDIR)] : [])];

export const WRITE_REASONS = {
  write_unknown_place: "writes to a relative path while the folder it runs in is unknown",
  self_modification: "changes Iris's own configuration (config.yaml, .env, skills, state)",
  write_shell_startup: "changes a shell start-up file (.bashrc, .zshrc, .profile, …)",
  write_credentials: "writes a credential or key file (.env, ~/.ssh, .aws/credentials, .netrc, …)",
  persistence:
    "writes a place whose files run later by themselves (git hooks, autostart, ~/.local/bin, cron, …)",
  write_system_config: "writes into a system folder (/etc, /usr, /boot, …)",
  write_outside_workdir: "writes outside the work folder",
} as const;
