// Path classes the approval rules care about. Paths arrive with ~ and $HOME already expanded.
import { posix } from "node:path";

/** `/etc/` → `/etc`, `/usr/./bin/..` → `/usr`, `/*` → `/`, `~/*` → home. Relative paths stay relative. */
export function normalizePath(path: string): string {
  let p = path.trim();
  if (p === "") return p;
  p = p.replace(/\/\*+$/, "/");
  p = posix.normalize(p);
  if (p.length > 1) p = p.replace(/\/+$/, "");
  return p;
}

const TOP_LEVEL = [
  "bin",
  "boot",
  "dev",
  "etc",
  "home",
  "lib",
  "lib32",
  "lib64",
  "libx32",
  "media",
  "mnt",
  "opt",
  "proc",
  "root",
  "run",
  "sbin",
  "snap",
  "srv",
  "sys",
  "usr",
  "var",
  "Applications",
  "Library",
  "System",
  "Users",
  "Volumes",
  "private",
];

const PROTECTED = new Set([
  "/",
  ...TOP_LEVEL.map((d) => `/${d}`),
  ...["bin", "sbin", "lib", "lib64", "local", "share", "include", "libexec"].map((d) => `/usr/${d}`),
  ...["lib", "log", "cache", "spool", "mail", "www", "backups"].map((d) => `/var/${d}`),
]);

/** The folders no command may delete recursively: `/`, the home folder, the system folders. */
export function isProtectedRoot(path: string, home: string): boolean {
  const p = normalizePath(path);
  if (p === "") return false;
  return PROTECTED.has(p) || p === normalizePath(home);
}

const SYSTEM_PREFIXES = [
  "/etc/",
  "/usr/",
  "/bin/",
  "/sbin/",
  "/lib/",
  "/lib64/",
  "/boot/",
  "/sys/",
  "/proc/",
];
const SYSTEM_EXCEPTIONS = ["/var/tmp/", "/var/folders/"];

/** Inside a folder the operating system owns (system config, binaries, libraries). */
export function isSystemPath(path: string): boolean {
  const p = `${normalizePath(path)}/`;
  if (SYSTEM_EXCEPTIONS.some((x) => p.startsWith(x))) return false;
  return SYSTEM_PREFIXES.some((x) => p.startsWith(x)) || p.startsWith("/var/") || p.startsWith("/Library/");
}

const BLOCK_DEVICE =
  /^\/dev\/(?:sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme\d|mmcblk\d|disk\d|rdisk\d|md\d|dm-\d|mapper\/|loop\d|sr\d)/;

export function isBlockDevice(path: string): boolean {
  return BLOCK_DEVICE.test(normalizePath(path));
}

const CREDENTIAL = [
  /(?:^|\/)\.ssh(?:\/|$)/,
  /(?:^|\/)\.aws\/(?:credentials|config)$/,
  /(?:^|\/)\.netrc$/,
  /(?:^|\/)\.env(?:\.(?!(?:example|sample|template|dist)(?:\.|$))[\w.-]+)?$/,
  /(?:^|\/)\.git-credentials$/,
  /(?:^|\/)\.npmrc$/,
  /(?:^|\/)\.pypirc$/,
  /(?:^|\/)\.pgpass$/,
  /(?:^|\/)\.docker\/config\.json$/,
  /(?:^|\/)\.kube\/config$/,
  /(?:^|\/)\.gnupg(?:\/|$)/,
  /(?:^|\/)\.config\/gh\/hosts\.yml$/,
  /(?:^|\/)authorized_keys$/,
  // Database, storage and cloud tools' saved passwords and tokens.
  /(?:^|\/)\.(?:my|mylogin)\.cnf$|(?:^|\/)\.(?:s3cfg|boto|vault-token|authinfo(?:\.gpg)?|msmtprc|fetchmailrc|dockercfg|terraformrc)$/,
  /(?:^|\/)\.config\/(?:rclone\/rclone\.conf|hcloud\/cli\.toml|doctl\/config\.yaml|netlify\/config\.json|ngrok\/ngrok\.yml|hub|configstore\/firebase-tools\.json|composer\/auth\.json|sops\/age\/keys\.txt)$/,
  /(?:^|\/)\.(?:terraform\.d\/credentials\.tfrc\.json|cargo\/credentials(?:\.toml)?|gem\/credentials|composer\/auth\.json|ngrok2\/ngrok\.yml|pulumi\/credentials\.json|fly\/config\.yml|oci\/config)$/,
  // Build tools' settings that hold repository passwords and signing keys.
  /(?:^|\/)\.m2\/settings(?:-security)?\.xml$|(?:^|\/)\.gradle\/gradle\.properties$|(?:^|\/)\.yarnrc\.yml$/,
  // Tokens of model hubs and coding agents.
  /(?:^|\/)huggingface\/(?:token|stored_tokens)$|(?:^|\/)\.codex\/auth\.json$|(?:^|\/)\.claude\/\.credentials\.json$|(?:^|\/)\.config\/github-copilot\/(?:hosts|apps)\.json$/,
  // Browsers' saved passwords, keys and cookies.
  /\/\.mozilla\/firefox\/[^/]+\/(?:logins\.json|key[34]\.db|cookies\.sqlite)$/,
  /\/\.config\/(?:google-chrome|chromium|BraveSoftware\/[^/]+|microsoft-edge)\/[^/]+\/(?:Login Data|Cookies|Web Data)$/,
];

const SHELL_STARTUP = [
  /(?:^|\/)\.(?:bashrc|bash_profile|bash_login|profile|zshrc|zshenv|zprofile|zlogin|zlogout|kshrc|mkshrc|cshrc|tcshrc|login|logout|bash_aliases)$/,
  // Folders a start-up file reads every file of (Fedora's ~/.bashrc.d, fish's conf.d and functions).
  /(?:^|\/)\.(?:bashrc\.d|zshrc\.d|profile\.d)(?:\/|$)/,
  /(?:^|\/)\.config\/fish\/(?:config\.fish$|conf\.d(?:\/|$)|functions(?:\/|$))/,
  /(?:^|\/)\.oh-my-zsh\/custom(?:\/|$)|(?:^|\/)\.config\/zsh\/\.z(?:shrc|shenv|profile|login)$/,
];

export function isCredentialPath(path: string): boolean {
  const p = normalizePath(path);
  return CREDENTIAL.some((re) => re.test(p));
}

export function isShellStartupPath(path: string): boolean {
  const p = normalizePath(path);
  return SHELL_STARTUP.some((re) => re.test(p));
}
