/**
 * Image parts as the real APIs check them: the shape of each mode's part, where an image may
 * appear (Chat Completions: user messages only; Anthropic: user content and tool results;
 * Responses: user messages and function_call_output), a supported media type, base64 that
 * decodes, bytes whose magic number matches the declared type, and the size limit.
 */
import { blocksOf, isObject, type Json, type RuleViolation, violation } from "./rule.js";

const MEDIA = ["image/png", "image/jpeg", "image/gif", "image/webp"] as const;
/** Anthropic's limit per image (base64 decoded); OpenAI's is larger, the stricter one is used. */
const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

function sniff(bytes: Buffer): string | undefined {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return "image/png";
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "image/jpeg";
  if (bytes.subarray(0, 4).toString("latin1") === "GIF8") return "image/gif";
  if (
    bytes.subarray(0, 4).toString("latin1") === "RIFF" &&
    bytes.subarray(8, 12).toString("latin1") === "WEBP"
  )
    return "image/webp";
  return undefined;
}

/** Checks base64 image data against its declared media type; a message, or undefined when fine. */
function checkData(mediaType: unknown, data: unknown): string | undefined {
  if (typeof mediaType !== "string" || !(MEDIA as readonly string[]).includes(mediaType))
    return `media_type must be one of ${MEDIA.join(", ")}, got ${JSON.stringify(mediaType)}`;
  if (typeof data !== "string" || data === "") return "image data must be a non-empty base64 string";
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(data) || data.length % 4 !== 0) return "image data is not valid base64";
  const bytes = Buffer.from(data, "base64");
  if (bytes.length > MAX_IMAGE_BYTES) return `image exceeds ${MAX_IMAGE_BYTES} bytes (${bytes.length})`;
  const actual = sniff(bytes);
  if (!actual) return "the image data is not a PNG, JPEG, GIF or WebP image";
  if (actual !== mediaType)
    return `the image was specified using the ${mediaType} media type, but it is ${actual}`;
  return undefined;
}

function checkUrl(url: unknown): string | undefined {
  if (typeof url !== "string") return "image url must be a string";
  if (/^https?:\/\//.test(url)) return undefined;
  const m = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  if (!m) return "image url must be an http(s) URL or a data:<media type>;base64,<data> URL";
  return checkData(m[1], m[2]);
}

function chat(body: Json): RuleViolation | undefined {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (!isObject(m)) continue;
    const parts = blocksOf(m.content);
    for (let j = 0; j < parts.length; j++) {
      const p = parts[j] as Json;
      const where = `messages[${i}].content[${j}]`;
      if (p.type === "image" || p.type === "input_image")
        return violation(
          "image.wrong_part_type",
          where,
          `unknown content part type '${String(p.type)}' (use image_url)`,
        );
      if (p.type !== "image_url") continue;
      if (m.role !== "user")
        return violation(
          "image.not_allowed_here",
          where,
          "Image URLs are only allowed for messages with role 'user'",
        );
      if (!isObject(p.image_url))
        return violation("image.bad_part", where, "image_url must be an object with a url");
      const detail = p.image_url.detail;
      if (detail !== undefined && !["auto", "low", "high"].includes(String(detail)))
        return violation("image.bad_detail", `${where}.image_url.detail`, "detail must be auto, low or high");
      const bad = checkUrl(p.image_url.url);
      if (bad) return violation("image.invalid", `${where}.image_url.url`, bad);
    }
  }
  return undefined;
}

function anthropicBlocks(blocks: Json[], where: string, role: unknown): RuleViolation | undefined {
  for (let j = 0; j < blocks.length; j++) {
    const b = blocks[j] as Json;
    const at = `${where}[${j}]`;
    if (b.type === "image_url" || b.type === "input_image")
      return violation(
        "image.wrong_part_type",
        at,
        `unknown content block type '${String(b.type)}' (use image)`,
      );
    if (b.type === "tool_result" && Array.isArray(b.content)) {
      const inner = anthropicBlocks(blocksOf(b.content), `${at}.content`, "user");
      if (inner) return inner;
      continue;
    }
    if (b.type !== "image") continue;
    if (role !== "user")
      return violation("image.not_allowed_here", at, "images are only allowed in user content");
    const s = b.source;
    if (!isObject(s)) return violation("image.bad_part", `${at}.source`, "source: Field required");
    if (s.type === "url") {
      if (typeof s.url !== "string" || !/^https?:\/\//.test(s.url))
        return violation("image.invalid", `${at}.source.url`, "url must be an http(s) URL");
      continue;
    }
    if (s.type !== "base64")
      return violation("image.bad_part", `${at}.source.type`, "source.type must be base64 or url");
    const bad = checkData(s.media_type, s.data);
    if (bad) return violation("image.invalid", `${at}.source`, bad);
  }
  return undefined;
}

function anthropic(body: Json): RuleViolation | undefined {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (!isObject(m)) continue;
    const bad = anthropicBlocks(blocksOf(m.content), `messages[${i}].content`, m.role);
    if (bad) return bad;
  }
  return undefined;
}

function responsesParts(parts: Json[], where: string, allowed: boolean): RuleViolation | undefined {
  for (let j = 0; j < parts.length; j++) {
    const p = parts[j] as Json;
    const at = `${where}[${j}]`;
    if (p.type === "image_url" || p.type === "image")
      return violation("image.wrong_part_type", at, `Invalid value: '${String(p.type)}' (use input_image)`);
    if (p.type !== "input_image") continue;
    if (!allowed) return violation("image.not_allowed_here", at, "input_image is only allowed in user input");
    if (p.detail !== undefined && !["auto", "low", "high"].includes(String(p.detail)))
      return violation("image.bad_detail", `${at}.detail`, "detail must be auto, low or high");
    if (typeof p.file_id === "string") continue;
    const bad = checkUrl(p.image_url);
    if (bad) return violation("image.invalid", `${at}.image_url`, bad);
  }
  return undefined;
}

function responses(body: Json): RuleViolation | undefined {
  const input = Array.isArray(body.input) ? body.input : [];
  for (let i = 0; i < input.length; i++) {
    const item = input[i];
    if (!isObject(item)) continue;
    const bad =
      item.type === "function_call_output"
        ? responsesParts(blocksOf(item.output), `input[${i}].output`, true)
        : responsesParts(blocksOf(item.content), `input[${i}].content`, item.role === "user");
    if (bad) return bad;
  }
  return undefined;
}

export function validateImages(mode: string, body: Json): RuleViolation | undefined {
  if (mode === "chat_completions") return chat(body);
  if (mode === "anthropic_messages") return anthropic(body);
  if (mode === "responses") return responses(body);
  return undefined;
}
