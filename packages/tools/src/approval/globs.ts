// What a glob may match (T4): `cat .en?`, `grep -a . /home/*/.ssh/id_*`, `cat /etc/*.conf`. Where
// its folders exist here, the glob is expanded against them as bash would (a leading dot matched
// only by a literal dot); elsewhere (a remote workspace, a folder not made yet) it is matched
// against the places and names where credentials are kept.
import { readdirSync } from "node:fs";
import { posix } from "node:path";

const GLOB = /[*?[]/;
/** Names of the files kept in credential folders, for globs that reach any depth. */
const KEY_NAMES = ["id_rsa", "id_ed25519", "credentials", "config", "token", "hosts.yml"];
const MAX_ENTRIES = 2000;

/** One glob segment as a regular expression: `*`, `?`, `[…]`, `[!…]`; a leading dot only literally. */
function segmentRegex(segment: string): RegExp {
  let source = "";
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i] as string;
    if (c === "*") source += "[^/]*";
    else if (c === "?") source += "[^/]";
    else if (c === "[") {
      const end = segment.indexOf("]", i + 2);
      if (end === -1) source += "\\[";
      else {
        source += `[${segment
          .slice(i + 1, end)
          .replace(/^!/, "^")
          .replace(/\\/g, "\\\\")}]`;
        i = end;
      }
    } else source += c.replace(/[.+^${}()|\\]/g, "\\$&");
  }
  return new RegExp(`^${segment.startsWith(".") ? "" : "(?!\\.)"}${source}$`);
}

/** The paths `pattern` (absolute) expands to here, or undefined when a folder it needs is not here. */
export function expandGlob(pattern: string): string[] | undefined {
  if (pattern.includes("**")) return undefined;
  let paths = ["/"];
  let seen = 0;
  for (const segment of pattern.split("/").filter(Boolean)) {
    if (!GLOB.test(segment)) {
      paths = paths.map((p) => posix.join(p, segment));
      continue;
    }
    const re = segmentRegex(segment);
    const next: string[] = [];
    for (const dir of paths) {
      let names: string[];
      try {
        names = readdirSync(dir);
      } catch {
        return undefined;
      }
      seen += names.length;
      if (seen > MAX_ENTRIES) return undefined;
      for (const n of names) if (re.test(n)) next.push(posix.join(dir, n));
    }
    paths = next;
  }
  return paths;
}

/**
 * Whether `pattern` (absolute) could match one of `samples` (absolute), or a file below one:
 * segment by segment, as far as both go.
 */
export function globMayMatch(pattern: string, samples: readonly string[]): boolean {
  const parts = pattern.split("/");
  const at = parts.findIndex((s) => GLOB.test(s));
  if (at < 0) return false;
  const base = parts.slice(0, at).join("/") || "/";
  if (pattern.includes("**")) {
    // Any depth below the base: what the last segment may name (a sample, or a key file in one).
    const last = segmentRegex(parts.at(-1) ?? "*");
    return samples.some(
      (s) =>
        (s === base || s.startsWith(base === "/" ? "/" : `${base}/`)) &&
        [posix.basename(s), ...KEY_NAMES].some((n) => last.test(n)),
    );
  }
  const globs = parts.slice(at).map(segmentRegex);
  return samples.some((s) => {
    if (s !== base && !s.startsWith(base === "/" ? "/" : `${base}/`)) return false;
    const rel = s.slice(base.length).split("/").filter(Boolean);
    const n = Math.min(rel.length, globs.length);
    for (let i = 0; i < n; i++) if (!(globs[i] as RegExp).test(rel[i] as string)) return false;
    return true;
  });
}
