// Time-ordered ids in the UUID version 7 layout, monotonic within a process (RFC 9562 method 1:
// a 12-bit counter in rand_a). New rows land at the right edge of the id and parent indexes, so
// a commit touches one leaf page of each instead of one or two random ones.
import { randomUUID } from "node:crypto";

let lastMs = 0;
let counter = 0;

export function newId(): string {
  const random = randomUUID(); // xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx; the last 62 bits are random
  let ms = Date.now();
  if (ms > lastMs) {
    lastMs = ms;
    counter = 0;
  } else {
    // Same millisecond (or the clock stepped back): count on; borrow the next ms on overflow.
    counter += 1;
    if (counter > 0xfff) {
      lastMs += 1;
      counter = 0;
    }
    ms = lastMs;
  }
  const time = ms.toString(16).padStart(12, "0");
  const seq = counter.toString(16).padStart(3, "0");
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${seq}${random.slice(18)}`;
}

/** The first string after every string that starts with `prefix` (its last character plus one):
 *  a prefix is the range `>= prefix AND < prefixEnd(prefix)` of a byte-ordered index. */
export function prefixEnd(prefix: string): string {
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}

/** How many characters a short id has (shortId). */
export const SHORT_ID_LENGTH = 8;

/** The name people see for a session: its last 8 characters, which are random (the first 8 are
 *  a timestamp shared by every id made within about a minute). */
export function shortId(id: string): string {
  return id.length > 12 ? id.slice(-SHORT_ID_LENGTH) : id;
}
