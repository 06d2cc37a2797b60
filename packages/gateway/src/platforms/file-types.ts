// The media type a sent file goes with, by its extension (as chat servers guess it too): what
// decides whether a platform shows it as a picture.
import { extname } from "node:path";

const TYPES: Record<string, string> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
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

/** The file's media type (application/octet-stream when the extension says nothing). */
export function typeOfFile(name: string): string {
  return TYPES[extname(name).toLowerCase()] ?? "application/octet-stream";
}

export const isPicture = (type: string) => type.startsWith("image/");
