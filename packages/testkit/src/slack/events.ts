// The payloads the fake Slack delivers, as Slack shapes them (Events API `event_callback`
// envelopes and `block_actions` interactive payloads), and the request signature Slack puts on
// an HTTP delivery: `v0=` HMAC-SHA256(signing secret, "v0:" + timestamp + ":" + body).
import { createHmac, randomBytes } from "node:crypto";
import type { SlackMessage } from "./types.js";

export interface Team {
  id: string;
  name: string;
}

export function eventId(): string {
  return `Ev${randomBytes(5).toString("hex").toUpperCase()}`;
}

/** The Events API envelope of one event (what an HTTP delivery posts and Socket Mode wraps). */
export function eventCallback(
  team: Team,
  appId: string,
  botUserId: string,
  event: Record<string, unknown>,
  id = eventId(),
): Record<string, unknown> {
  return {
    token: "fake-verification-token",
    team_id: team.id,
    api_app_id: appId,
    event: { ...event, event_ts: event.ts },
    type: "event_callback",
    event_id: id,
    event_time: Math.floor(Date.now() / 1000),
    authorizations: [
      {
        enterprise_id: null,
        team_id: team.id,
        user_id: botUserId,
        is_bot: true,
        is_enterprise_install: false,
      },
    ],
    is_ext_shared_channel: false,
  };
}

/**
 * A user's message as its `message` event (channel_type im or channel); one with files is a
 * `file_share` whose files name their private download URLs under `origin`.
 */
export function messageEvent(
  m: SlackMessage,
  team: Team,
  kind: "im" | "channel",
  origin = "https://files.slack.com",
): Record<string, unknown> {
  return {
    type: "message",
    ...(m.files?.length ? { subtype: "file_share", upload: false, display_as_bot: false } : {}),
    channel: m.channel,
    user: m.user,
    text: m.texts[0] ?? "",
    ts: m.ts,
    team: team.id,
    channel_type: kind,
    ...(m.threadTs ? { thread_ts: m.threadTs } : {}),
    ...filesOf(m, team, origin),
  };
}

/** The `app_mention` event Slack sends besides `message` when the text mentions the bot. */
export function mentionEvent(
  m: SlackMessage,
  team: Team,
  origin = "https://files.slack.com",
): Record<string, unknown> {
  return {
    type: "app_mention",
    channel: m.channel,
    user: m.user,
    text: m.texts[0] ?? "",
    ts: m.ts,
    team: team.id,
    ...(m.threadTs ? { thread_ts: m.threadTs } : {}),
    ...filesOf(m, team, origin),
  };
}

/** A message's files as an event lists them, with their private download URLs under `origin`. */
function filesOf(m: SlackMessage, team: Team, origin: string): Record<string, unknown> {
  if (!m.files?.length) return {};
  return {
    files: m.files.map((f) => ({
      id: f.id,
      name: f.name,
      title: f.name,
      mimetype: f.mimetype ?? "application/octet-stream",
      filetype: f.name.split(".").at(-1) ?? "binary",
      size: f.bytes.length,
      user: m.user,
      is_external: false,
      url_private: `${origin}/files-pri/${team.id}-${f.id}/${f.name}`,
      url_private_download: `${origin}/files-pri/${team.id}-${f.id}/download/${f.name}`,
    })),
  };
}

/** A press of button `actionId` under the bot's message `m`. */
export function blockActions(
  team: Team,
  appId: string,
  user: { id: string; name: string },
  m: SlackMessage,
  button: SlackMessage["buttons"][number],
): Record<string, unknown> {
  const now = (Date.now() / 1000).toFixed(6);
  return {
    type: "block_actions",
    user: { id: user.id, username: user.name, name: user.name, team_id: team.id },
    api_app_id: appId,
    token: "fake-verification-token",
    container: {
      type: "message",
      message_ts: m.ts,
      channel_id: m.channel,
      is_ephemeral: false,
      ...(m.threadTs ? { thread_ts: m.threadTs } : {}),
    },
    trigger_id: `${Date.now()}.${randomBytes(4).toString("hex")}`,
    team: { id: team.id, domain: team.name },
    channel: { id: m.channel, name: m.channel },
    message: {
      type: "message",
      user: m.user,
      ts: m.ts,
      text: m.texts.at(-1) ?? "",
      ...(m.threadTs ? { thread_ts: m.threadTs } : {}),
    },
    response_url: "http://127.0.0.1:9/response-url-unused",
    actions: [
      {
        action_id: button.actionId,
        block_id: "approval",
        text: { type: "plain_text", text: button.label },
        ...(button.value !== undefined ? { value: button.value } : {}),
        type: "button",
        action_ts: now,
      },
    ],
    state: { values: {} },
  };
}

export function signature(secret: string, timestamp: string, body: string): string {
  return `v0=${createHmac("sha256", secret).update(`v0:${timestamp}:${body}`).digest("hex")}`;
}
