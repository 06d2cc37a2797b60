// JSON nested deeper than a bound (SPEC E3, E4: bad input is a clear error): `JSON.parse` takes a
// 20,000-deep text, but everything after it that walks the value recursively (zod, JSON.stringify,
// schema shaping) overflows the stack, a crash instead of an answer. Every boundary that parses
// outside JSON scans its nesting first, in one pass without recursion, and refuses what is too deep
// with a message naming the bound and where it was passed.

/** The deepest nesting of objects and arrays accepted from outside (a JSON Schema needs ~20). */
export const MAX_JSON_DEPTH = 128;

/** Where `text` nests objects and arrays deeper than `max`: a message, or undefined when it does not. */
export function jsonTooDeep(text: string, max = MAX_JSON_DEPTH): string | undefined {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max)
        return `JSON nested deeper than ${max} levels (objects and arrays, at character ${i + 1})`;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return undefined;
}

export class JsonDepthError extends Error {
  override readonly name = "JsonDepthError";
}

/** `JSON.parse`, refusing nesting deeper than `max` first (a JsonDepthError saying where). */
export function parseBoundedJson(text: string, max = MAX_JSON_DEPTH): unknown {
  const deep = jsonTooDeep(text, max);
  if (deep) throw new JsonDepthError(deep);
  return JSON.parse(text);
}
