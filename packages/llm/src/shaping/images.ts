// Text-only targets get a note in place of each image (SPEC H4), in user messages and tool
// results alike, so the model knows something was there instead of the image vanishing.
import type { ImagePart, Message, UserPart } from "../types.js";

export const IMAGE_OMITTED = "[image omitted: the model cannot read images]";

/** The note, naming the file when a (non-data) URL gives one. */
export function imageNote(part: ImagePart): string {
  if (!part.url || part.url.startsWith("data:")) return IMAGE_OMITTED;
  const name = part.url.split(/[?#]/)[0]?.split("/").pop();
  return name ? `[image omitted (${name}): the model cannot read images]` : IMAGE_OMITTED;
}

function withoutImages(content: string | UserPart[]): { content: string | UserPart[]; count: number } {
  if (typeof content === "string" || !content.some((p) => p.type === "image")) return { content, count: 0 };
  let count = 0;
  const parts = content.map((p): UserPart => {
    if (p.type !== "image") return p;
    count++;
    return { type: "text", text: imageNote(p) };
  });
  return { content: parts, count };
}

export function replaceImages(history: readonly Message[]): { messages: Message[]; replaced: number } {
  let replaced = 0;
  const messages = history.map((m): Message => {
    if (m.role === "assistant") return m;
    const { content, count } = withoutImages(m.content);
    if (count === 0) return m;
    replaced += count;
    return { ...m, content };
  });
  return { messages, replaced };
}
