// Credentials named at run time (T4): `cat $(find ~/.iris -name .env)`, `F=~/.iris/.env; cat $F`,
// `find ~/.ssh -type f | xargs cat`, `for f in ~/.aws/*; do cat "$f"; done`. The reader's operand
// is only known when the line runs, so it cannot be judged as a path; the line is judged instead:
// a program that reads files given at run time (a substitution, a variable, xargs) in a line that
// names a place holding credentials (or a variable that may point to one) reads a credential.
import { type Place, readsCredential, realPath, searchReachesCredentials } from "./locations.js";
import type { Command, ParsedCommand } from "./parse.js";
import { type Finding, finding } from "./program-rule.js";
import { PROGRAMS } from "./proof.js";

/** An argument whose value is only known at run time (`$(…)`, `$x`, `${x}`, backquotes). */
const RUNTIME = /\$\(|`|\$\{?[A-Za-z_][A-Za-z0-9_]*/;
/** Variables that name where credentials are kept (`$IRIS_HOME/.env`, `$AWS_SHARED_CREDENTIALS_FILE`). */
const CREDENTIAL_VARIABLE =
  /\$\{?[A-Za-z0-9_]*(?:IRIS|XDG_CONFIG|CRED|SECRET|TOKEN|PASS|AUTH|SSH|AWS|GNUPG|GCLOUD|KUBE|DOCKER_CONFIG|NETRC|KEY)[A-Za-z0-9_]*/i;

/** Escapes and decoders that can spell any file name. */
const ENCODED_NAME =
  /\\x[0-9a-fA-F]{2}|\\[0-3][0-7]{2}|\\u[0-9a-fA-F]{4}|\$'|(?:^|[\s|;&(`])(?:base64|base32|basenc|xxd|uudecode|rev|openssl)(?=[\s|;&)`]|$)/;

/** Whether `cmd` reads the contents of files it is given only at run time. */
function readsRuntimeOperands(cmd: Command): boolean {
  // fd -x/-X runs its command on every file it finds.
  if (
    (cmd.name === "fd" || cmd.name === "fdfind") &&
    cmd.args.some((a) => /^(?:-x|-X|--exec(?:-batch)?)$/.test(a))
  )
    return true;
  // `cat < "$F"`, `exec 3< $(…)`: a file read by redirection, named at run time.
  if (cmd.redirects.some((r) => (r.op === "<" || r.op === "<>") && RUNTIME.test(r.target))) return true;
  if (cmd.name === "" || PROGRAMS[cmd.name]?.namesOnly) return false;
  if (["xargs", "parallel", "find-exec", "fd-exec"].some((w) => cmd.via.includes(w))) return true;
  if (cmd.args.includes("{}")) return true;
  return cmd.args.some((a) => RUNTIME.test(a.replace(/\$HOME\b|\$\{HOME\}/g, "")));
}

/** Path-like words of the whole line (every text read, opened scripts included), `~` expanded. */
function pathWords(parsed: ParsedCommand, home: string): string[] {
  const words = new Set<string>();
  for (const c of parsed.commands) for (const a of c.args) words.add(a.replace(/^[^=]*=(?=[~/.])/, ""));
  for (const text of parsed.texts ?? [parsed.raw])
    for (const w of text.split(/[\s;|&()<>`"'=]+/)) if (w) words.add(w);
  // `"%s/.ssh/id_rsa"`, `$DIR/.aws/credentials`: the path after whatever the run time puts first.
  for (const w of [...words]) {
    const at = w.indexOf("/.");
    if (at > 0) words.add(w.slice(at));
  }
  return [...words]
    .map((w) => w.replace(/^~(?=\/|$)/, home).replace(/^\$\{?HOME\}?(?=\/|$)/, home))
    .filter((w) => w.startsWith("/") || w.startsWith(".") || w.startsWith(home));
}

/** The reads_credential finding for a line whose reader gets its files at run time, or undefined. */
export function runtimeCredentialRead(parsed: ParsedCommand, place: Place): Finding | undefined {
  const readers = parsed.commands.filter(readsRuntimeOperands);
  if (readers.length === 0) return undefined;
  const variable = readers.flatMap((c) => c.args).find((a) => CREDENTIAL_VARIABLE.test(a));
  if (variable) return finding("reads_credential", `${variable} may name a credential`);
  // A name spelled in escapes or encoded text (`printf '\x2essh'`, `base64 -d`) could be any file.
  const texts = parsed.texts ?? [parsed.raw];
  if (texts.some((t) => ENCODED_NAME.test(t)))
    return finding("reads_credential", "files named at run time from escaped or encoded text");
  const cwd = readers[0]?.cwd ?? place.workdir;
  for (const w of pathWords(parsed, place.home)) {
    const real = realPath(w, cwd);
    const hit = readsCredential(w, place) || (real !== undefined && searchReachesCredentials(real, place));
    if (hit) return finding("reads_credential", `files named at run time, from ${w}`);
  }
  return undefined;
}
