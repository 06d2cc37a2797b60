// Opaque reasoning blobs (Responses encrypted_content, Anthropic thinking signatures) signed
// with a secret of this server instance: a blob another instance issued, or one edited on the
// way, is rejected like the real APIs reject reasoning they cannot verify.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export class BlobSigner {
  private readonly secret = randomBytes(32);

  private mac(kind: string, payload: string): string {
    return createHmac("sha256", this.secret).update(`${kind}\u0000${payload}`).digest("base64url");
  }

  /** `kind:payload.mac`, where payload is the base64 of text. */
  sign(kind: string, text: string): string {
    const payload = Buffer.from(text, "utf8").toString("base64");
    return `${kind}:${payload}.${this.mac(kind, payload)}`;
  }

  /** Whether this instance issued the blob, unchanged, for the given text (when given). */
  verify(kind: string, blob: string, text?: string): boolean {
    const prefix = `${kind}:`;
    if (!blob.startsWith(prefix)) return false;
    const dot = blob.lastIndexOf(".");
    if (dot < prefix.length) return false;
    const payload = blob.slice(prefix.length, dot);
    const given = Buffer.from(blob.slice(dot + 1));
    const expected = Buffer.from(this.mac(kind, payload));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false;
    return text === undefined || Buffer.from(payload, "base64").toString("utf8") === text;
  }
}
