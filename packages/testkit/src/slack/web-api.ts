// The fake Slack's Web API methods (POST /api/<method>, as @slack/web-api calls them): a form or
// JSON body, the token as `Authorization: Bearer` (or a `token` field). As strict as Slack where
// Iris depends on it: answers are HTTP 200 with `ok: false` and Slack's error code (not_authed,
// invalid_auth, token_revoked, not_allowed_token_type, channel_not_found, no_text, msg_too_long,
// invalid_blocks, thread_not_found, message_not_found, cant_update_message, unknown_method, user_not_found).
// Files: files.ts. assistant.threads.setStatus: a thread's status line ("<app> is thinking…"),
// cleared by the app's next message in that thread, as Slack clears it.
import { completeUpload, type FilesState, startUpload } from "./files.js";
import { type SlackConversation, SlackError, type SlackMessage } from "./types.js";

export { SlackError } from "./types.js";

export interface WebApiState {
  botToken: string;
  appToken: string;
  revoked: boolean;
  team: { id: string; name: string };
  bot: { userId: string; botId: string; name: string };
  appId: string;
  /** Member ids → display names. */
  users: Map<string, string>;
  conversations: Map<string, SlackConversation>;
  messages: Map<string, SlackMessage[]>;
  nextTs(): string;
  /** The Socket Mode URL apps.connections.open hands out (through the Host the call came to). */
  socketUrl(host: string | undefined): string;
  files: FilesState;
  /** Where a file's bytes go (files.getUploadURLExternal's upload_url). */
  uploadUrl(host: string | undefined, id: string): string;
  /** Thread status lines as set, in order: `channel:thread_ts` → statuses ("" cleared it). */
  statuses: Map<string, string[]>;
}

type Params = Record<string, unknown>;

/** Slack's hard limit on a message's text (longer is refused here; Slack truncates). */
export const MAX_TEXT = 40_000;

/** The fields of a form or JSON body; a form's object fields arrive as JSON strings. */
export function parseParams(contentType: string | undefined, body: string): Params {
  if (contentType?.startsWith("application/json")) {
    const v = JSON.parse(body === "" ? "{}" : body) as unknown;
    if (typeof v !== "object" || v === null || Array.isArray(v)) throw new SlackError("invalid_json");
    return v as Params;
  }
  return Object.fromEntries(new URLSearchParams(body));
}

function str(p: Params, key: string): string | undefined {
  const v = p[key];
  return typeof v === "string" && v !== "" ? v : typeof v === "number" ? String(v) : undefined;
}

/** Block Kit as far as the bot uses it: section (text ≤ 3000) and actions (≤ 25 buttons). */
function parseBlocks(raw: unknown): SlackMessage["buttons"] | undefined {
  if (raw === undefined || raw === "") return undefined;
  let blocks: unknown;
  try {
    blocks = typeof raw === "string" ? JSON.parse(raw) : raw;
  } catch {
    throw new SlackError("invalid_blocks_format");
  }
  if (!Array.isArray(blocks) || blocks.length > 50) throw new SlackError("invalid_blocks");
  const buttons: SlackMessage["buttons"] = [];
  for (const b of blocks as Record<string, unknown>[]) {
    if (b.type === "section") {
      const t = b.text as { type?: string; text?: string } | undefined;
      if (!t || (t.type !== "mrkdwn" && t.type !== "plain_text") || typeof t.text !== "string")
        throw new SlackError("invalid_blocks");
      if (t.text.length === 0 || t.text.length > 3000) throw new SlackError("invalid_blocks");
    } else if (b.type === "actions") {
      const els = b.elements as Record<string, unknown>[] | undefined;
      if (!Array.isArray(els) || els.length === 0 || els.length > 25) throw new SlackError("invalid_blocks");
      for (const e of els) {
        const label = (e.text as { type?: string; text?: string } | undefined)?.text;
        const id = e.action_id;
        if (e.type !== "button" || typeof label !== "string" || label.length > 75)
          throw new SlackError("invalid_blocks");
        if (typeof id !== "string" || id.length > 255) throw new SlackError("invalid_blocks");
        if (e.style !== undefined && e.style !== "primary" && e.style !== "danger")
          throw new SlackError("invalid_blocks");
        const value = typeof e.value === "string" ? e.value : undefined;
        if (value !== undefined && value.length > 2000) throw new SlackError("invalid_blocks");
        buttons.push({ label, actionId: id, ...(value !== undefined ? { value } : {}) });
      }
    } else throw new SlackError("invalid_blocks");
  }
  return buttons;
}

function conversation(s: WebApiState, p: Params): SlackConversation {
  const id = str(p, "channel");
  const c = id ? s.conversations.get(id) : undefined;
  if (!c) throw new SlackError("channel_not_found");
  return c;
}

function message(s: WebApiState, channel: string, p: Params): SlackMessage {
  const ts = str(p, "ts");
  const m = (s.messages.get(channel) ?? []).find((x) => x.ts === ts && !x.deleted);
  if (!m) throw new SlackError("message_not_found");
  if (m.user !== s.bot.userId) throw new SlackError("cant_update_message");
  return m;
}

/** A new bot message in `channel` (a reply in `threadTs`'s thread when given); clears its status. */
function postBotMessage(s: WebApiState, channel: string, threadTs: string | undefined): SlackMessage {
  const c = conversation(s, { channel });
  const list = s.messages.get(c.id) ?? [];
  if (threadTs && !list.some((m) => m.ts === threadTs && m.threadTs === undefined))
    throw new SlackError("thread_not_found");
  const m: SlackMessage = {
    channel: c.id,
    ts: s.nextTs(),
    user: s.bot.userId,
    texts: [],
    ...(threadTs ? { threadTs } : {}),
    buttons: [],
    deleted: false,
  };
  list.push(m);
  s.messages.set(c.id, list);
  const status = s.statuses.get(`${c.id}:${threadTs}`);
  if (status && status.at(-1) !== "") status.push("");
  return m;
}

function text(p: Params, buttons: SlackMessage["buttons"] | undefined): string {
  const t = str(p, "text") ?? "";
  if (t === "" && buttons === undefined) throw new SlackError("no_text");
  if (t.length > MAX_TEXT) throw new SlackError("msg_too_long");
  return t;
}

/** Checks the token for `method` and runs it; throws SlackError with Slack's code. */
export function callMethod(
  s: WebApiState,
  method: string,
  token: string | undefined,
  p: Params,
  host?: string,
): Params {
  if (!token) throw new SlackError("not_authed");
  const app = method === "apps.connections.open";
  if (token === (app ? s.botToken : s.appToken)) throw new SlackError("not_allowed_token_type");
  if (token !== (app ? s.appToken : s.botToken)) throw new SlackError("invalid_auth");
  // An uninstalled app: its bot token is revoked, its app token no longer authenticates.
  if (s.revoked) throw new SlackError(app ? "invalid_auth" : "token_revoked");
  switch (method) {
    case "auth.test":
      return {
        url: `https://${s.team.name}.slack.com/`,
        team: s.team.name,
        user: s.bot.name,
        team_id: s.team.id,
        user_id: s.bot.userId,
        bot_id: s.bot.botId,
        is_enterprise_install: false,
      };
    case "users.info": {
      const id = str(p, "user");
      const name = id ? s.users.get(id) : undefined;
      if (!id || name === undefined) throw new SlackError("user_not_found");
      return {
        user: {
          id,
          team_id: s.team.id,
          name,
          real_name: name,
          profile: { display_name: name, real_name: name },
        },
      };
    }
    case "apps.connections.open":
      return { url: s.socketUrl(host) };
    case "chat.postMessage": {
      const c = conversation(s, p);
      const buttons = parseBlocks(p.blocks);
      const t = text(p, buttons);
      const m = postBotMessage(s, c.id, str(p, "thread_ts"));
      m.texts = [t];
      m.buttons = buttons ?? [];
      return { channel: c.id, ts: m.ts, message: { type: "message", user: m.user, text: t, ts: m.ts } };
    }
    case "files.upload":
      // Retired in favour of getUploadURLExternal + completeUploadExternal.
      throw new SlackError("method_deprecated");
    case "files.getUploadURLExternal":
      return startUpload(s.files, p, (id) => s.uploadUrl(host, id));
    case "files.completeUploadExternal":
      return completeUpload(s.files, p, (channel, threadTs) => postBotMessage(s, channel, threadTs));
    case "assistant.threads.setStatus": {
      const c = conversation(s, { channel: p.channel_id });
      const threadTs = str(p, "thread_ts");
      if (!(s.messages.get(c.id) ?? []).some((m) => m.ts === threadTs && m.threadTs === undefined))
        throw new SlackError("invalid_thread_ts");
      if (typeof p.status !== "string") throw new SlackError("invalid_arguments");
      const key = `${c.id}:${threadTs}`;
      s.statuses.set(key, [...(s.statuses.get(key) ?? []), p.status]);
      return {};
    }
    case "chat.update": {
      const c = conversation(s, p);
      const m = message(s, c.id, p);
      const buttons = parseBlocks(p.blocks);
      m.texts.push(text(p, buttons));
      m.buttons = buttons ?? [];
      return { channel: c.id, ts: m.ts, text: m.texts.at(-1) };
    }
    case "chat.delete": {
      const c = conversation(s, p);
      const m = message(s, c.id, p);
      m.deleted = true;
      return { channel: c.id, ts: m.ts };
    }
    default:
      throw new SlackError("unknown_method");
  }
}
