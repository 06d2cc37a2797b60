// Who may talk to the bot (SPEC G1): allow-all, the platform's allowlist, users approved through
// pairing. A stranger's DM gets a pairing code for the host's owner to approve with
// `iris pairing approve CODE`; a stranger in a group is ignored (no code spam in channels).
import type { GatewayState } from "@iris/host";
import type { InboundMessage } from "../message.js";

export interface AuthPolicy {
  allowAll: boolean;
  /** Platforms whose users the platform itself authenticated (the web chat's token). */
  trusted?: ReadonlySet<string>;
  /** Per platform: user ids or names allowed without pairing. */
  allowed: Record<string, readonly string[]>;
  codeTtlMs: number;
  maxPending: number;
}

export type AuthDecision = { allow: true } | { allow: false; reply?: string };

export function authorise(
  msg: InboundMessage,
  policy: AuthPolicy,
  state: GatewayState,
  now = Date.now(),
): AuthDecision {
  if (policy.allowAll || policy.trusted?.has(msg.platform)) return { allow: true };
  const list = policy.allowed[msg.platform] ?? [];
  if (list.includes(msg.userId) || list.includes(msg.userName)) return { allow: true };
  if (state.isApproved(msg.platform, msg.userId)) return { allow: true };
  if (msg.chatType !== "dm") return { allow: false };
  const issued = state.issueCode(msg.platform, msg.userId, msg.userName, {
    now,
    ttlMs: policy.codeTtlMs,
    maxPending: policy.maxPending,
  });
  if (!issued.ok) return { allow: false, reply: `I can't pair you right now: ${issued.reason}.` };
  // The code goes out once; asking again within its lifetime gets a short reminder only.
  if (!issued.fresh) return { allow: false, reply: "Your pairing request is still waiting for approval." };
  const minutes = Math.round(policy.codeTtlMs / 60_000);
  return {
    allow: false,
    reply:
      `I don't know you yet. Your pairing code is ${issued.code} (valid ${minutes} min). ` +
      `Ask the owner to run: iris pairing approve ${issued.code}`,
  };
}
