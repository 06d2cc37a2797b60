// Edits config.yaml's text where the change is and nowhere else: the value's characters are
// replaced, a new key is one line added under its parent (or `, key: value` inside a flow map), a
// removed key takes its lines with it. yaml's Document.toString() re-renders the whole file
// (flow maps padded and folded, a one-line JSON file spread over many lines, comment spacing
// changed), which moves every line number the user and our error messages refer to. The caller
// checks the result parses to what the Document API would have produced and falls back if not.
import type * as Yaml from "yaml";
import { yaml } from "./yaml-lib.js";

type Doc = ReturnType<typeof Yaml.parseDocument>;
type Key = string | number;
type Range = [number, number, number];

export type TextEdit = { op: "set"; keys: Key[]; value: unknown } | { op: "unset"; keys: Key[] };

/** The edited text, or undefined where a minimal edit is not possible (the caller re-renders). */
export function editText(text: string, doc: Doc, edit: TextEdit): string | undefined {
  return edit.op === "set" ? setText(text, doc, edit.keys, edit.value) : unsetText(text, doc, edit.keys);
}

function flowValue(value: unknown, json: boolean): string {
  if (json || (value !== null && typeof value === "object")) return JSON.stringify(value);
  return yaml().stringify(value, { lineWidth: 0 }).trimEnd();
}

function lineStart(text: string, at: number): number {
  return text.lastIndexOf("\n", at - 1) + 1;
}

function columnOf(text: string, at: number): number {
  return at - lineStart(text, at);
}

/** The value written as block lines under a key at `indent` (nested maps for the keys left). */
function blockLines(keys: Key[], value: unknown, indent: number, step: number): string {
  const [first, ...rest] = keys;
  const pad = " ".repeat(indent);
  if (!rest.length) {
    const isCollection = value !== null && typeof value === "object";
    if (!isCollection || Object.keys(value).length === 0)
      return `${pad}${String(first)}: ${flowValue(value, false)}\n`;
    // A map or list goes in block style, as the rest of a block file.
    const inner = " ".repeat(indent + step);
    const body = yaml()
      .stringify(value, { indent: step, lineWidth: 0 })
      .trimEnd()
      .split("\n")
      .map((l) => `${inner}${l}`)
      .join("\n");
    return `${pad}${String(first)}:\n${body}\n`;
  }
  return `${pad}${String(first)}:\n${blockLines(rest, value, indent + step, step)}`;
}

/** Nested flow maps for the keys left: `a: {b: value}`. */
function flowPair(keys: Key[], value: unknown, json: boolean): string {
  const [first, ...rest] = keys;
  const k = json ? JSON.stringify(String(first)) : String(first);
  const v = rest.length ? `{${flowPair(rest, value, json)}}` : flowValue(value, json);
  return `${k}: ${v}`;
}

function setText(text: string, doc: Doc, keys: Key[], value: unknown): string | undefined {
  const Y = yaml();
  const existing = doc.getIn(keys, true);
  if (existing !== undefined) {
    const range = (existing as { range?: Range }).range;
    if (!range || !Y.isScalar(existing)) return undefined; // a collection replaced: re-render
    const json = (existing as Yaml.Scalar).type === "QUOTE_DOUBLE" && isJsonish(text);
    return text.slice(0, range[0]) + flowValue(value, json) + text.slice(range[1]);
  }
  // The deepest map on the path that exists: the new key goes into it.
  let depth = keys.length - 1;
  let parent: unknown = depth === 0 ? doc.contents : doc.getIn(keys.slice(0, depth), true);
  while (depth > 0 && parent === undefined) {
    depth--;
    parent = depth === 0 ? doc.contents : doc.getIn(keys.slice(0, depth), true);
  }
  const missing = keys.slice(depth);
  if (parent === null || parent === undefined) {
    // An empty file (or only comments): the key goes at the end.
    if (depth > 0) return undefined;
    const sep = text === "" || text.endsWith("\n") ? "" : "\n";
    return `${text}${sep}${blockLines(missing, value, 0, 2)}`;
  }
  if (!Y.isMap(parent)) return undefined;
  const range = parent.range as Range | undefined;
  if (!range) return undefined;
  if (parent.flow) {
    const close = text.lastIndexOf("}", range[1]);
    if (close < range[0]) return undefined;
    const json = isJsonish(text);
    const before = text.slice(range[0], close).trimEnd();
    const comma = parent.items.length ? ", " : "";
    const at = range[0] + before.length;
    return `${text.slice(0, at)}${comma}${flowPair(missing, value, json)}${text.slice(at)}`;
  }
  const firstKey = parent.items[0]?.key as { range?: Range } | undefined;
  if (!firstKey?.range) return undefined;
  const indent = columnOf(text, firstKey.range[0]);
  const step = indentStep(text);
  // After the map's last item, before blank lines and comments that follow it.
  const last = parent.items.at(-1);
  const lastEnd = endOfPair(last);
  if (lastEnd === undefined) return undefined;
  const lineEnd = text.indexOf("\n", Math.max(lastEnd - 1, 0));
  const at = lineEnd === -1 ? text.length : lineEnd + 1;
  const sep = at === text.length && !text.endsWith("\n") ? "\n" : "";
  return `${text.slice(0, at)}${sep}${blockLines(missing, value, indent, step)}${text.slice(at)}`;
}

function unsetText(text: string, doc: Doc, keys: Key[]): string | undefined {
  const Y = yaml();
  const parentKeys = keys.slice(0, -1);
  const parent = parentKeys.length ? doc.getIn(parentKeys, true) : doc.contents;
  if (!Y.isMap(parent)) return undefined;
  const pair = parent.items.find((p) => Y.isScalar(p.key) && String(p.key.value) === String(keys.at(-1)));
  if (!pair) return text;
  // A map left empty goes too: its default applies, as for the key.
  if (parent.items.length === 1 && parentKeys.length > 0 && !parent.flow)
    return unsetText(text, doc, parentKeys);
  const keyRange = (pair.key as { range?: Range }).range;
  const end = endOfPair(pair);
  if (!keyRange || end === undefined) return undefined;
  if (parent.flow) {
    const i = parent.items.indexOf(pair);
    if (i > 0) {
      const prevEnd = endOfPair(parent.items[i - 1]);
      if (prevEnd === undefined) return undefined;
      return text.slice(0, prevEnd) + text.slice(end);
    }
    const next = parent.items[1]?.key as { range?: Range } | undefined;
    return text.slice(0, keyRange[0]) + text.slice(next?.range ? next.range[0] : end);
  }
  const from = lineStart(text, keyRange[0]);
  if (text.slice(from, keyRange[0]).trim() !== "") return undefined; // `- key: v` in a list item
  const lineEnd = text.indexOf("\n", Math.max(end - 1, keyRange[0]));
  return text.slice(0, from) + text.slice(lineEnd === -1 ? text.length : lineEnd + 1);
}

/** Where a pair's value ends (its value node's value end, or the key's for `key:`). */
function endOfPair(pair: unknown): number | undefined {
  const p = pair as { key?: { range?: Range }; value?: { range?: Range } | null } | undefined;
  return p?.value?.range?.[1] ?? p?.key?.range?.[1];
}

/** The file's indentation step (2 unless its first indented line says otherwise). */
function indentStep(text: string): number {
  const m = /\n( +)\S/.exec(text);
  return m ? Math.min(8, (m[1] as string).length) : 2;
}

/** A JSON file (its first character opens a map): new keys and strings are written as JSON. */
function isJsonish(text: string): boolean {
  return text.trimStart().startsWith("{");
}
