// The media type a sent file goes with: a picture by its bytes (llm's sniffImage, as Telegram's
// photo check does), anything else by its extension, as chat servers guess it too. The type
// decides whether a platform shows the file as a picture.
import { extname } from "node:path";
import { sniffImage } from "@iris/llm";

const TYPES: Record<string, string> = {
  ".pdf": "application/pdf",
  ".txt": "text/plain",
  ".md": "text/markdown",
  ".csv": "text/csv",
  ".json": "application/json",
  ".html": "text/html",
  ".zip": "application/zip",
  ".ogg": "audio/ogg",
  ".mp3": "audio/mpeg",
  ".mp4": "video/mp4",
};

/** The file's media type (application/octet-stream when neither bytes nor extension say). */
export function typeOfFile(file: { name: string; data: Buffer }): string {
  return sniffImage(file.data) ?? TYPES[extname(file.name).toLowerCase()] ?? "application/octet-stream";
}

export const isPicture = (type: string) => type.startsWith("image/");
