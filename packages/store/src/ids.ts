// Time-ordered ids (UUID version 7 layout): new rows land at the right edge of the id and
// parent indexes, so a commit touches a few adjacent pages instead of random ones.
import { randomUUID } from "node:crypto";

export function newId(): string {
  const random = randomUUID(); // xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx
  const time = Date.now().toString(16).padStart(12, "0");
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${random.slice(15)}`;
}
