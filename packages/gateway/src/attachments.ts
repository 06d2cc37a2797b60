// A chat turn's images (SPEC G1, H4): image attachments that carry their bytes go to the model
// as image parts, shrunk to the providers' limits; one that is not a readable image becomes a
// note in the text instead of failing the turn.
import { type ImagePart, prepareImage, type UserMessage } from "@iris/llm";
import type { Attachment } from "./message.js";

export async function withImages(
  text: string,
  attached: readonly Attachment[],
): Promise<string | UserMessage> {
  const images = attached.filter((a) => a.kind === "image" && a.data);
  if (images.length === 0) return text;
  const parts: ImagePart[] = [];
  const notes: string[] = [];
  for (const a of images) {
    try {
      const p = await prepareImage(Buffer.from(a.data ?? "", "base64"), a.name);
      parts.push({ type: "image", mediaType: p.mediaType, data: p.data });
    } catch (err) {
      notes.push(`[attachment ${a.name} left out: ${err instanceof Error ? err.message : String(err)}]`);
    }
  }
  const body = [text, ...notes].join("\n");
  return parts.length ? { role: "user", content: [{ type: "text", text: body }, ...parts] } : body;
}
