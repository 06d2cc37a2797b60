// What the gateway's tools need of a running gateway (tools.ts, send-file.ts), and where they may
// post: the targets a platform configures, its allowed and paired users, the chats it talked in.
import type { GatewayConfig } from "@iris/host";
import type { OutboundFile } from "./adapter.js";
import type { ChatAddress } from "./message.js";
import { chatIdOfKey } from "./pipeline/session-key.js";
import type { CronState } from "./state/cron-open.js";
import type { GatewayState } from "./state/index.js";

/** What the tools need of a running gateway. */
export interface GatewayToolPort {
  readonly config: GatewayConfig;
  readonly state: GatewayState;
  /** The cron jobs (their tables are opened on first use). */
  cronState(): Promise<CronState>;
  /** Platforms connected now. */
  platforms(): string[];
  /** The chats a platform's config names as send targets (its plugin's sendTargets). */
  targets(platform: string): readonly string[];
  /** Sends one logical message through the outbox (never twice for one key). */
  post(logicalKey: string, to: ChatAddress, text: string): Promise<void>;
  /** Sends a file through the outbox (never twice for one key); false: sent before. */
  postFile(logicalKey: string, to: ChatAddress, file: OutboundFile): Promise<boolean>;
  /** The largest file the platform's bot may send; undefined where it sends none. */
  maxFileBytes(platform: string): number | undefined;
  /** The chat whose turn runs in this session now (where send_file goes by default). */
  currentChat(sessionId: string): ChatAddress | undefined;
}

const TARGET = /^([a-z]+):(.+)$/;

/**
 * The chats the bot may post to on a platform: its configured channels, its allowed and paired
 * users, and every chat it has already talked in (a web chat user or room, a user let in by
 * `allow_all`): authorised once, they may be written to again.
 */
export async function configuredTargets(port: GatewayToolPort, platform: string): Promise<string[]> {
  const out = [...port.targets(platform)];
  for (const a of await port.state.approvedUsers()) if (a.platform === platform) out.push(a.userName);
  out.push(...(await knownChats(port.state, platform)));
  return [...new Set(out)];
}

/** The chat ids of the platform's session keys (`platform:chat_type:chat_id[:…]`). */
async function knownChats(state: GatewayState, platform: string): Promise<string[]> {
  return (await state.chatKeys(`${platform}:`))
    .map(chatIdOfKey)
    .filter((id): id is string => id !== undefined);
}

export function fail(error: string): { content: string; isError: true } {
  return { content: JSON.stringify({ error }), isError: true };
}

/** Checks "PLATFORM:CHAT" against the running gateway; an error names what is wrong. */
export async function resolveTarget(
  port: GatewayToolPort,
  to: string,
  example: string,
): Promise<{ ok: true; addr: ChatAddress } | { ok: false; error: string }> {
  const m = TARGET.exec(to.trim());
  if (!m) return { ok: false, error: `to: "${to}" is not PLATFORM:CHAT (e.g. ${example})` };
  const platform = m[1] ?? "";
  const chatId = m[2] ?? "";
  if (!port.platforms().includes(platform))
    return {
      ok: false,
      error: `to: no ${platform} platform runs in this gateway (running: ${port.platforms().join(", ") || "none"})`,
    };
  const targets = await configuredTargets(port, platform);
  const known = targets.find((t) => t.toLowerCase() === chatId.toLowerCase());
  if (known === undefined && !port.config.allow_all)
    return {
      ok: false,
      error: `to: ${chatId} is not a configured chat of ${platform} (configured: ${targets.join(", ") || "none"})`,
    };
  // The configured spelling: chat ids are compared without case, but some platforms (the web
  // chat) deliver by the exact id.
  return { ok: true, addr: { platform, chatId: known ?? chatId } };
}
