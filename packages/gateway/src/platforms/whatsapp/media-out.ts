// What the bot sends WhatsApp as media: an upload to POST /{phone_number_id}/media (multipart,
// with the file's type), then a message naming the upload's id. The Cloud API takes JPEG and PNG
// pictures (known by their bytes) up to 5 MB, and text, PDF and Office documents up to 100 MB;
// anything else is refused here with what it does take, before anything is uploaded.
import { extname } from "node:path";
import { sniffImage } from "@iris/llm";
import type { OutboundFile } from "../../adapter.js";
import type { WhatsappConfig } from "./config.js";

export const WHATSAPP_MAX_DOCUMENT = 100 * 1024 * 1024;
const MAX_PICTURE = 5 * 1024 * 1024;

/** The pictures the Cloud API shows as images. */
const PICTURES = new Set(["image/jpeg", "image/png"]);
const DOCUMENTS: Record<string, string> = {
  ".txt": "text/plain",
  ".csv": "text/plain",
  ".md": "text/plain",
  ".json": "text/plain",
  ".log": "text/plain",
  ".pdf": "application/pdf",
  ".doc": "application/msword",
  ".xls": "application/vnd.ms-excel",
  ".ppt": "application/vnd.ms-powerpoint",
  ".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  ".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  ".pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
};

export interface GraphPlace {
  config: WhatsappConfig;
  token: string;
}

/** How a file goes: a picture (shown as one) or a document; throws for what WhatsApp refuses. */
export function mediaKindOf(file: OutboundFile): { type: "image" | "document"; mime: string } {
  const ext = extname(file.name).toLowerCase();
  const picture = sniffImage(file.data);
  if (picture && PICTURES.has(picture)) {
    if (file.data.length > MAX_PICTURE)
      throw new Error(`whatsapp: a picture goes up to 5 MB (${file.name} is larger)`);
    return { type: "image", mime: picture };
  }
  const document = DOCUMENTS[ext];
  if (!document)
    throw new Error(
      `whatsapp cannot send ${file.name} (${ext || "no extension"}): it takes JPEG and PNG pictures, text, PDF and Office documents`,
    );
  return { type: "document", mime: document };
}

/** Uploads bytes as `mime`; the media id a message names. */
export async function uploadMedia(
  place: GraphPlace,
  bytes: Buffer,
  mime: string,
  name: string,
): Promise<string> {
  const { api_root, api_version, phone_number_id } = place.config;
  const form = new FormData();
  form.append("messaging_product", "whatsapp");
  form.append("type", mime);
  form.append("file", new Blob([new Uint8Array(bytes)], { type: mime }), name);
  const res = await fetch(`${api_root.replace(/\/+$/, "")}/${api_version}/${phone_number_id}/media`, {
    method: "POST",
    headers: { authorization: `Bearer ${place.token}` },
    body: form,
    signal: AbortSignal.timeout(120_000),
  });
  const up = (await res.json().catch(() => ({}))) as { id?: unknown; error?: { message?: string } };
  if (!res.ok || typeof up.id !== "string")
    throw new Error(
      `whatsapp: the media upload answered HTTP ${res.status}${up.error?.message ? ` (${up.error.message})` : ""}`,
    );
  return up.id;
}
