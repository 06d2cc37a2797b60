// An image made ready for any provider (SPEC H4): the stricter of their limits — long edge at most
// 1568 px (Anthropic scales anything larger down anyway and bills it), 8000 px on any side, and
// under 3.75 MB so its base64 stays within Anthropic's 5 MB — by resizing with sharp (loaded on
// first use), keeping PNG for screenshots and graphics that fit, JPEG otherwise.
import type { ImagePart } from "../types.js";

export const MAX_IMAGE_EDGE = 1568;
export const MAX_IMAGE_BYTES = 3_750_000;
const MEDIA = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

export class ImageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ImageError";
  }
}

/** The media type from the bytes' magic number, or undefined for anything else. */
export function sniffImage(bytes: Uint8Array): string | undefined {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 16));
  if (b.subarray(0, 4).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47]))) return "image/png";
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return "image/jpeg";
  if (b.subarray(0, 4).toString("latin1") === "GIF8") return "image/gif";
  if (b.subarray(0, 4).toString("latin1") === "RIFF" && b.subarray(8, 12).toString("latin1") === "WEBP")
    return "image/webp";
  return undefined;
}

export interface PreparedImage extends ImagePart {
  data: string;
  width: number;
  height: number;
  /** Set when the image was made smaller. */
  resizedFrom?: { width: number; height: number; bytes: number };
}

/** Checks and, when needed, shrinks an image; `label` names it in errors (a file name). */
export async function prepareImage(bytes: Uint8Array, label = "image"): Promise<PreparedImage> {
  const type = sniffImage(bytes);
  if (!type || !MEDIA.has(type)) throw new ImageError(`${label} is not a PNG, JPEG, GIF or WebP image`);
  const { default: sharp } = await import("sharp");
  let meta: { width?: number; height?: number };
  try {
    meta = await sharp(bytes).metadata();
  } catch (err) {
    throw new ImageError(
      `${label} cannot be read as ${type}: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  if (width <= MAX_IMAGE_EDGE && height <= MAX_IMAGE_EDGE && bytes.byteLength <= MAX_IMAGE_BYTES)
    return { type: "image", mediaType: type, data: Buffer.from(bytes).toString("base64"), width, height };
  const resized = sharp(bytes)
    .rotate()
    .resize({ width: MAX_IMAGE_EDGE, height: MAX_IMAGE_EDGE, fit: "inside", withoutEnlargement: true });
  let out = await resized.clone().png({ compressionLevel: 9 }).toBuffer({ resolveWithObject: true });
  let mediaType = "image/png";
  if (out.data.length > MAX_IMAGE_BYTES || type === "image/jpeg") {
    out = await resized
      .clone()
      .flatten({ background: "#ffffff" })
      .jpeg({ quality: 82, mozjpeg: true })
      .toBuffer({ resolveWithObject: true });
    mediaType = "image/jpeg";
  }
  if (out.data.length > MAX_IMAGE_BYTES)
    throw new ImageError(`${label} is still over ${MAX_IMAGE_BYTES} bytes after resizing`);
  return {
    type: "image",
    mediaType,
    data: out.data.toString("base64"),
    width: out.info.width,
    height: out.info.height,
    resizedFrom: { width, height, bytes: bytes.byteLength },
  };
}
