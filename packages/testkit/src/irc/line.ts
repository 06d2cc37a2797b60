// One IRC line (RFC 1459 with IRCv3 message tags): `@tags :prefix COMMAND params :trailing`.
// The fake IRC server parses what clients send with it, strictly: a line over the limits is
// refused as a real server does, never cut silently.

export interface IrcMessage {
  tags: Record<string, string>;
  prefix: string;
  command: string;
  /** Every parameter, the trailing one last (without its colon). */
  params: string[];
}

/** RFC 1459: 512 bytes with CR LF for the prefix, command and parameters. */
export const MAX_LINE_BYTES = 512;
/** IRCv3 message tags: 4094 bytes of client tags plus the `@` and the space. */
export const MAX_TAG_BYTES = 4096;

export function parseLine(raw: string): IrcMessage {
  let rest = raw;
  const tags: Record<string, string> = {};
  if (rest.startsWith("@")) {
    const sp = rest.indexOf(" ");
    const block = rest.slice(1, sp < 0 ? undefined : sp);
    for (const tag of block.split(";")) {
      if (!tag) continue;
      const eq = tag.indexOf("=");
      tags[eq < 0 ? tag : tag.slice(0, eq)] = eq < 0 ? "" : unescapeTag(tag.slice(eq + 1));
    }
    rest = sp < 0 ? "" : rest.slice(sp + 1).trimStart();
  }
  let prefix = "";
  if (rest.startsWith(":")) {
    const sp = rest.indexOf(" ");
    prefix = rest.slice(1, sp < 0 ? undefined : sp);
    rest = sp < 0 ? "" : rest.slice(sp + 1).trimStart();
  }
  const params: string[] = [];
  let command = "";
  while (rest.length > 0) {
    if (command && rest.startsWith(":")) {
      params.push(rest.slice(1));
      break;
    }
    const sp = rest.indexOf(" ");
    const word = sp < 0 ? rest : rest.slice(0, sp);
    if (!command) command = word.toUpperCase();
    else params.push(word);
    rest = sp < 0 ? "" : rest.slice(sp + 1).replace(/^ +/, "");
  }
  return { tags, prefix, command, params };
}

function unescapeTag(v: string): string {
  return v.replace(/\\(.)/g, (_, c: string) => ({ ":": ";", s: " ", r: "\r", n: "\n", "\\": "\\" })[c] ?? c);
}

export function escapeTag(v: string): string {
  return v.replace(
    /[\\; \r\n]/g,
    (c) => ({ "\\": "\\\\", ";": "\\:", " ": "\\s", "\r": "\\r", "\n": "\\n" })[c] ?? c,
  );
}

/** A line to send: the last parameter gets a colon (always, as most servers write it). */
export function formatLine(prefix: string, command: string, params: readonly string[], tags = ""): string {
  const head = params.slice(0, -1);
  const last = params.at(-1);
  const parts = [...(tags ? [`@${tags}`] : []), `:${prefix}`, command, ...head];
  if (last !== undefined) parts.push(`:${last}`);
  return parts.join(" ");
}

/** The byte sizes a server checks: the tag block and the rest of the line. */
export function lineSizes(raw: string): { tagBytes: number; restBytes: number } {
  if (!raw.startsWith("@")) return { tagBytes: 0, restBytes: Buffer.byteLength(raw) + 2 };
  const sp = raw.indexOf(" ");
  const tagPart = sp < 0 ? raw : raw.slice(0, sp + 1);
  return {
    tagBytes: Buffer.byteLength(tagPart),
    restBytes: Buffer.byteLength(raw) - Buffer.byteLength(tagPart) + 2,
  };
}

/** IRC's rfc1459 case mapping: `[]\~` are the upper case of `{}|^`. */
export function ircFold(s: string): string {
  return s.toLowerCase().replace(/[[\]\\~]/g, (c) => ({ "[": "{", "]": "}", "\\": "|", "~": "^" })[c] ?? c);
}
