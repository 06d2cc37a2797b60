// Who may talk to the bot (SPEC G1): allow-all, the platform's allowlist, users approved through
// pairing. A stranger's DM gets a pairing code for the host's owner to approve with
// `iris pairing approve CODE`; a stranger in a group is ignored (no code spam in channels).
// Identities cannot be borrowed: pairing approves the speaker's whole id (on IRC
// `nick!user@host`), an allowlist entry is an id, a pattern over ids (`bob!*@home.example`), or
// a name, which is bound to the first id that speaks under it; the name from any other id is a
// stranger.

import type { InboundMessage } from "../message.js";
import type { GatewayIdentities, GatewayState } from "../state/index.js";

export interface AuthPolicy {
  allowAll: boolean;
  /** Platforms whose users the platform itself authenticated (the web chat's token). */
  trusted?: ReadonlySet<string>;
  /** Per platform: user ids or names allowed without pairing. */
  allowed: Record<string, readonly string[]>;
  codeTtlMs: number;
  maxPending: number;
}

export type AuthDecision =
  | { allow: true }
  | {
      allow: false;
      reply?: string;
      /** The allowlisted name spoke from another id than the one it is bound to (worth a log line). */
      borrowed?: { name: string; boundTo: string };
    };

export async function authorise(
  msg: InboundMessage,
  policy: AuthPolicy,
  state: GatewayState,
  identities: Pick<GatewayIdentities, "bind">,
  now = Date.now(),
): Promise<AuthDecision> {
  if (policy.allowAll || policy.trusted?.has(msg.platform)) return { allow: true };
  const listed = await allowlisted(msg, policy.allowed[msg.platform] ?? [], identities, now);
  if (listed === true) return { allow: true };
  if (await state.isApproved(msg.platform, msg.userId)) return { allow: true };
  const borrowed = listed ? { borrowed: listed } : {};
  if (msg.chatType !== "dm") return { allow: false, ...borrowed };
  const issued = await state.issueCode(msg.platform, msg.userId, msg.userName, {
    now,
    ttlMs: policy.codeTtlMs,
    maxPending: policy.maxPending,
  });
  if (!issued.ok)
    return { allow: false, reply: `I can't pair you right now: ${issued.reason}.`, ...borrowed };
  // The code goes out once; asking again within its lifetime gets a short reminder only.
  if (!issued.fresh)
    return { allow: false, reply: "Your pairing request is still waiting for approval.", ...borrowed };
  const minutes = Math.round(policy.codeTtlMs / 60_000);
  return {
    allow: false,
    ...borrowed,
    reply:
      `I don't know you yet. Your pairing code is ${issued.code} (valid ${minutes} min). ` +
      `Ask the owner to run: iris pairing approve ${issued.code}`,
  };
}

/**
 * Whether an allowlist entry admits the speaker: true, or the name and id it is bound to when
 * the speaker's name is listed but was bound to someone else first.
 */
async function allowlisted(
  msg: InboundMessage,
  list: readonly string[],
  identities: Pick<GatewayIdentities, "bind">,
  now: number,
): Promise<true | { name: string; boundTo: string } | undefined> {
  const id = msg.userId.toLowerCase();
  let borrowed: { name: string; boundTo: string } | undefined;
  for (const entry of list) {
    const e = entry.toLowerCase();
    if (e === id) return true;
    if (/[*?]/.test(e)) {
      if (globOf(e).test(id)) return true;
      continue;
    }
    if (e !== (msg.handle ?? msg.userName).toLowerCase()) continue;
    const boundTo = await identities.bind(msg.platform, e, msg.userId, now);
    if (boundTo === msg.userId) return true;
    borrowed = { name: entry, boundTo };
  }
  return borrowed;
}

/** `*` any run of characters, `?` one; everything else literal. */
function globOf(pattern: string): RegExp {
  const body = pattern
    .replace(/[.+^${}()|[\]\\]/g, "\\$&")
    .replace(/\*/g, ".*")
    .replace(/\?/g, ".");
  return new RegExp(`^${body}$`);
}
