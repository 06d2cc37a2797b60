// The fake's tokenizer: what it counts against a model's window and reports as input usage.
// Like a real BPE it counts the text the model reads (every string of the body, JSON framing
// aside), about four ASCII characters a token and one token per wider character (CJK, emoji).
// Inline image data is charged per image, as the vision APIs do, not per base64 byte.

export const IMAGE_TOKENS = 1_600;
/** Role markers and separators per message or item, as real chat templates add them. */
const PER_OBJECT = 3;

export function countTextTokens(text: string): number {
  let ascii = 0;
  let wide = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) ascii++;
    else if (c >= 0xdc00 && c <= 0xdfff)
      continue; // low surrogate: counted with its pair
    else wide++;
  }
  return Math.ceil(ascii / 4) + wide;
}

function isImageData(s: string): boolean {
  return s.startsWith("data:image/") || s.length > 20_000;
}

/** Tokens of a request body: every string leaf, plus a little per object. */
export function countBodyTokens(value: unknown): number {
  if (typeof value === "string") return isImageData(value) ? IMAGE_TOKENS : countTextTokens(value);
  if (Array.isArray(value)) return value.reduce((n: number, v) => n + countBodyTokens(v), 0);
  if (typeof value !== "object" || value === null) return 0;
  const record = value as Record<string, unknown>;
  // Base64 image sources (Anthropic) are charged once per image.
  if (record.type === "base64" && typeof record.data === "string") return IMAGE_TOKENS;
  let n = PER_OBJECT;
  for (const [key, v] of Object.entries(record)) {
    // Opaque reasoning blobs and the model name are not prompt text the model reads.
    if (key === "model" || key === "encrypted_content" || key === "signature") continue;
    n += countBodyTokens(v);
  }
  return n;
}
