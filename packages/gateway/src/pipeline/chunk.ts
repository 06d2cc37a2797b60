// Long replies split at the platform's limit (SPEC U3, U7): cuts fall on grapheme boundaries
// (never inside a UTF-16 surrogate pair, a Hangul syllable built of jamo, or an emoji sequence),
// preferably at a line end, else at a space; a cut inside a ``` block closes the fence at the end
// of the part and reopens it, with its language, at the start of the next.

export type Measure = (text: string) => number;

/** Length in UTF-16 code units (what most chat APIs count). */
export const utf16Length: Measure = (s) => s.length;
/** Length in UTF-8 bytes (what a protocol line such as IRC's counts). */
export const utf8Bytes: Measure = (s) => Buffer.byteLength(s, "utf8");

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });
const FENCE = /^\s*(```|~~~)/;
const CLOSE = "\n```";

/** Splits `text` into parts of at most `max` by `measure` (which must be additive). */
export function splitMessage(text: string, max: number, measure: Measure = utf16Length): string[] {
  if (measure(text) <= max) return [text];
  const gs = graphemes(text);
  const sizes = gs.map(measure);
  const parts: string[] = [];
  let openFence: string | undefined; // the opening line of a fence the previous part left open
  let i = 0;
  while (i < gs.length) {
    const prefix = openFence ? `${openFence}\n` : "";
    // Room for the prefix and for a closing fence this part may need.
    let room = max - measure(prefix) - measure(CLOSE);
    if (room < Math.max(1, Math.floor(max / 4))) {
      // A limit too small for fences: plain cuts.
      openFence = undefined;
      room = max;
    }
    let j = i;
    let used = 0;
    while (j < gs.length && used + (sizes[j] ?? 0) <= room) used += sizes[j++] ?? 0;
    if (j === i) j = i + 1; // a single grapheme larger than the limit goes alone
    if (j < gs.length) j = bestCut(gs, i, j);
    const body = gs.slice(i, j).join("");
    const fence = fenceAfter(openFence, body);
    const usePrefix = room !== max ? prefix : "";
    parts.push(`${usePrefix}${body}${fence && j < gs.length ? (body.endsWith("\n") ? "```" : CLOSE) : ""}`);
    openFence = room !== max && j < gs.length ? fence : undefined;
    i = j;
  }
  return parts;
}

/**
 * The text's graphemes, segmented a few thousand characters at a time, each window ending after
 * a line feed (never inside a grapheme): V8's segmenter slows down steeply on one long string
 * (125,000 characters of Hangul took 90 s in one piece).
 */
function graphemes(text: string): string[] {
  const out: string[] = [];
  for (let from = 0; from < text.length; ) {
    const lf = text.indexOf("\n", from + 4096);
    const to = lf < 0 ? text.length : lf + 1;
    for (const s of segmenter.segment(text.slice(from, to))) out.push(s.segment);
    from = to;
  }
  return out;
}

/** The latest line end, else space, in the second half of [from, to); else `to`. */
function bestCut(gs: string[], from: number, to: number): number {
  const half = from + Math.floor((to - from) / 2);
  for (let k = to - 1; k > half; k--) if (gs[k] === "\n") return k + 1;
  for (let k = to - 1; k > half; k--) if (gs[k] === " ") return k + 1;
  return to;
}

/** The fence line still open after `body`, given the one open before it. */
function fenceAfter(open: string | undefined, body: string): string | undefined {
  let fence = open;
  for (const line of body.split("\n")) {
    if (!FENCE.test(line)) continue;
    fence = fence ? undefined : line.trim();
  }
  return fence;
}
