// Iris's own configuration, named in a line the check cannot prove harmless (T4): `python3 -c
// '…expanduser("~")+"/.iris/config.yaml"…'`, `echo x > $IRIS_HOME/config.yaml`, `rm -rf ~/.iris`.
// Where the text writes is only known when it runs, so the line counts as changing Iris's own
// configuration, which is asked about in every approval mode, `off` included.
import { posix } from "node:path";
import { type Place, profileOf } from "./locations.js";
import type { ParsedCommand } from "./parse.js";
import type { Finding } from "./program-rule.js";

/** Findings that prove nothing about where a line writes: they do not make it a self-modification. */
const HARMLESS_ALONE = new Set(["reads_credential", "self_modification"]);

export function profileMention(
  parsed: ParsedCommand,
  place: Place,
  findings: readonly Finding[],
): Finding | undefined {
  if (!findings.some((f) => !HARMLESS_ALONE.has(f.key))) return undefined;
  const profile = profileOf(place);
  const names = [profile, "IRIS_HOME"];
  const base = posix.basename(profile);
  // `~/.iris`, `$HOME/.iris`, `/.iris/` inside code: the default profile's folder by name.
  if (base.startsWith(".")) names.push(`/${base}`, `~/${base}`);
  if (profile.startsWith(`${place.home}/`)) names.push(`~/${profile.slice(place.home.length + 1)}`);
  const texts = [
    ...(parsed.texts ?? [parsed.raw]),
    ...parsed.commands.flatMap((c) => [...c.args, ...c.heredocs]),
  ];
  const named = names.find((n) => texts.some((t) => t.includes(n)));
  return named === undefined
    ? undefined
    : {
        key: "self_modification",
        description: `changes Iris's own configuration (config.yaml, .env, skills, state): the line names ${named} and may write it`,
      };
}
