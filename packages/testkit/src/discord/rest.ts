// The fake Discord's REST API (discord.com/developers/docs/reference), what the bot calls through
// @discordjs/rest: /gateway/bot, /users/@me, messages (send, edit, delete), typing and
// interaction callbacks. As strict as Discord where Iris depends on it: `Authorization: Bot
// TOKEN` or 401; contents over 2000 characters, empty messages and bad components are 400 with
// code 50035 (slash commands too: names, descriptions, options); unknown channels 404 (10003),
// unknown messages 404 (10008); a 204 has no body and no content type (undici fails to parse an
// empty JSON body). A message with files is multipart: `payload_json` and one `files[n]` part per
// file, each named by id n in the payload's `attachments`; a file over 10 MiB is a 413 (40005).
import type { IncomingMessage } from "node:http";
import { parseMultipart, type UploadedFile } from "../multipart.js";
import type { DcBotMessage, DcChannel, DcCommand, DcUser } from "./types.js";

export const DISCORD_MAX_CONTENT = 2000;
/** A bot's upload limit where the server has no boost (and in DMs). */
export const DISCORD_MAX_FILE = 10 * 1024 * 1024;

export class RestError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(String(body.message));
  }
}

export interface RestState {
  bot: DcUser;
  applicationId: string;
  channels: Map<string, DcChannel>;
  botMessages: Map<string, DcBotMessage>;
  /** `channel:nonce` → the message an `enforce_nonce` create made, and when. */
  nonces: Map<string, { id: string; at: number }>;
  nextId(): string;
  /** Interactions the bot must answer once: id → answered. */
  interactions: Map<string, { token: string; answered: boolean }>;
  typing: { channelId: string; at: number }[];
  /** The application's global commands, as last registered (PUT replaces them all). */
  commands: DcCommand[];
  gatewayUrl(req: IncomingMessage): string;
}

export interface RestReply {
  status: number;
  body?: unknown;
}

const formError = (field: string, code: string, message: string) =>
  new RestError(400, {
    message: "Invalid Form Body",
    code: 50035,
    errors: { [field]: { _errors: [{ code, message }] } },
  });

function channelOf(s: RestState, id: string): DcChannel {
  const c = s.channels.get(id);
  if (!c) throw new RestError(404, { message: "Unknown Channel", code: 10003 });
  return c;
}

type DcFile = NonNullable<DcBotMessage["files"]>[number];

/** The uploaded `files[n]` parts, each named by its id in `attachments` (Discord's upload rules). */
function attachmentsOf(body: Record<string, unknown>, files: ReadonlyMap<string, UploadedFile>): DcFile[] {
  const meta = body.attachments;
  if (meta === undefined && files.size === 0) return [];
  if (!Array.isArray(meta))
    throw formError(
      "attachments",
      "BASE_TYPE_REQUIRED",
      "The attachments of the uploaded files are required.",
    );
  if (meta.length > 10)
    throw formError("attachments", "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length.");
  const out: DcFile[] = [];
  for (const [i, raw] of meta.entries()) {
    const a = raw as { id?: unknown; filename?: unknown };
    const file = files.get(String(a.id));
    if (!file)
      throw formError(
        `attachments.${i}.id`,
        "ATTACHMENT_NOT_FOUND",
        "No files[n] part has this attachment's id.",
      );
    if (file.bytes.length > DISCORD_MAX_FILE)
      throw new RestError(413, { message: "Request entity too large", code: 40005 });
    const name = typeof a.filename === "string" && a.filename !== "" ? a.filename : file.name;
    out.push({
      id: String(a.id),
      name,
      bytes: file.bytes,
      ...(file.contentType ? { contentType: file.contentType } : {}),
    });
  }
  for (const n of files.keys())
    if (!out.some((f) => f.id === n))
      throw formError("attachments", "ATTACHMENT_NOT_FOUND", `files[${n}] is not named in attachments.`);
  return out;
}

/** The message body's content and buttons, checked as Discord checks them. */
function messageBody(body: Record<string, unknown>, editing: boolean, hasFiles = false) {
  const content = body.content;
  if (content !== undefined && typeof content !== "string")
    throw formError("content", "STRING_TYPE_CONVERT", "Could not interpret as string.");
  if (typeof content === "string" && content.length > DISCORD_MAX_CONTENT)
    throw formError("content", "BASE_TYPE_MAX_LENGTH", `Must be ${DISCORD_MAX_CONTENT} or fewer in length.`);
  if (!editing && (content ?? "") === "" && !body.components && !hasFiles)
    throw new RestError(400, { message: "Cannot send an empty message", code: 50006 });
  const buttons: { label: string; customId: string }[] = [];
  const rows = body.components;
  if (rows !== undefined) {
    if (!Array.isArray(rows) || rows.length > 5)
      throw formError("components", "BASE_TYPE_BAD_LENGTH", "Must be between 0 and 5 in length.");
    for (const row of rows as { type?: unknown; components?: unknown }[]) {
      if (row?.type !== 1 || !Array.isArray(row.components) || row.components.length > 5)
        throw formError(
          "components",
          "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
          "An action row holds 1 to 5 buttons.",
        );
      for (const b of row.components as Record<string, unknown>[]) {
        const id = b.custom_id;
        if (b.type !== 2 || typeof id !== "string" || id.length === 0 || id.length > 100)
          throw formError(
            "components",
            "BUTTON_COMPONENT_INVALID",
            "A button needs a custom_id of 1 to 100 characters.",
          );
        if (typeof b.label !== "string" || b.label.length > 80)
          throw formError("components", "BASE_TYPE_MAX_LENGTH", "A label is at most 80 characters.");
        if (buttons.some((x) => x.customId === id))
          throw formError(
            "components",
            "COMPONENT_CUSTOM_ID_DUPLICATED",
            "Component custom id cannot be duplicated",
          );
        buttons.push({ label: b.label, customId: id });
      }
    }
  }
  return { content: typeof content === "string" ? content : undefined, buttons };
}

/** How long Discord remembers a nonce for `enforce_nonce` ("a few minutes"). */
const NONCE_WINDOW_MS = 5 * 60_000;

/** A create's nonce as Discord accepts it: an integer or a string of at most 25 characters. */
function nonceOf(body: Record<string, unknown>): string | undefined {
  const n = body.nonce;
  if (n === undefined || n === null) return undefined;
  if (typeof n === "number" && Number.isInteger(n)) return String(n);
  if (typeof n === "string" && n.length <= 25) return n;
  throw formError("nonce", "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.");
}

/** A bot message as the REST API (and an interaction's `message`) shows it. */
export function messageJson(s: RestState, m: DcBotMessage) {
  const c = s.channels.get(m.channelId);
  return {
    id: m.id,
    channel_id: m.channelId,
    ...(c?.guild_id ? { guild_id: c.guild_id } : {}),
    author: s.bot,
    content: m.texts.at(-1) ?? "",
    timestamp: new Date().toISOString(),
    edited_timestamp: null,
    tts: false,
    mention_everyone: false,
    mentions: [],
    mention_roles: [],
    attachments: (m.files ?? []).map((f) => ({
      id: f.id,
      filename: f.name,
      size: f.bytes.length,
      url: `https://cdn.discordapp.com/attachments/${m.channelId}/${m.id}/${f.name}`,
      proxy_url: `https://media.discordapp.net/attachments/${m.channelId}/${m.id}/${f.name}`,
      ...(f.contentType ? { content_type: f.contentType } : {}),
    })),
    embeds: [],
    pinned: false,
    type: m.replyTo ? 19 : 0,
    components: m.buttons.length
      ? [
          {
            type: 1,
            components: m.buttons.map((b) => ({ type: 2, style: 1, label: b.label, custom_id: b.customId })),
          },
        ]
      : [],
  };
}

/** Discord's rules for bulk-overwritten CHAT_INPUT commands (at most 100, names unique). */
function checkCommands(body: unknown): DcCommand[] {
  if (!Array.isArray(body)) throw formError("_root", "BASE_TYPE_ARRAY", "Must be an array.");
  if (body.length > 100) throw formError("_root", "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.");
  const name = /^[-_\p{Ll}\p{N}]{1,32}$/u;
  const seen = new Set<string>();
  return body.map((raw, i) => {
    const c = raw as Partial<DcCommand>;
    if (typeof c.name !== "string" || !name.test(c.name))
      throw formError(`${i}.name`, "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid");
    if (seen.has(c.name)) throw formError(`${i}.name`, "APPLICATION_COMMANDS_DUPLICATE_NAME", "duplicate");
    seen.add(c.name);
    if (typeof c.description !== "string" || c.description.length < 1 || c.description.length > 100)
      throw formError(`${i}.description`, "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.");
    for (const [j, o] of (c.options ?? []).entries())
      if (!name.test(o.name ?? "") || !o.description || o.description.length > 100 || o.type !== 3)
        throw formError(`${i}.options.${j}`, "APPLICATION_COMMAND_OPTION_INVALID", "Option is invalid");
    return { name: c.name, description: c.description, type: 1, options: c.options ?? [] };
  });
}

/** A request's JSON body, or a multipart one's `payload_json` and `files[n]` parts; throws when malformed. */
export function parseBody(
  raw: Buffer,
  contentType: string,
): { body: Record<string, unknown>; files: Map<string, UploadedFile> } {
  const files = new Map<string, UploadedFile>();
  if (raw.length === 0) return { body: {}, files };
  if (!contentType.startsWith("multipart/form-data"))
    return { body: JSON.parse(raw.toString("utf8")), files };
  let body: Record<string, unknown> = {};
  for (const [name, part] of Object.entries(parseMultipart(raw, contentType))) {
    const n = /^files\[(\d+)\]$/.exec(name)?.[1];
    if (name === "payload_json" && typeof part === "string") body = JSON.parse(part);
    else if (n !== undefined && typeof part !== "string") files.set(n, part);
    else throw new Error(`unexpected part ${name}`);
  }
  return { body, files };
}

/** Answers one REST call (after the token was checked). */
export function route(
  s: RestState,
  req: IncomingMessage,
  method: string,
  path: string,
  body: Record<string, unknown>,
  files: ReadonlyMap<string, UploadedFile> = new Map(),
): RestReply {
  const messages = /^\/channels\/(\d+)\/messages$/.exec(path);
  const oneMessage = /^\/channels\/(\d+)\/messages\/(\d+)$/.exec(path);
  const typing = /^\/channels\/(\d+)\/typing$/.exec(path);
  const commands = /^\/applications\/(\d+)\/commands$/.exec(path);
  const callback = /^\/interactions\/(\d+)\/([^/]+)\/callback$/.exec(path);
  if (method === "GET" && path === "/gateway/bot")
    return {
      status: 200,
      body: {
        url: s.gatewayUrl(req),
        shards: 1,
        session_start_limit: { total: 1000, remaining: 999, reset_after: 14_400_000, max_concurrency: 1 },
      },
    };
  if (method === "GET" && path === "/users/@me") return { status: 200, body: s.bot };
  if (method === "GET" && path === "/applications/@me")
    return { status: 200, body: { id: s.applicationId, name: s.bot.username, flags: 0 } };
  if (messages && method === "POST") {
    const m = messages;
    const channel = channelOf(s, m[1] as string);
    const attached = attachmentsOf(body, files);
    const { content, buttons } = messageBody(body, false, attached.length > 0);
    const nonce = nonceOf(body);
    const seen = nonce === undefined ? undefined : s.nonces.get(`${channel.id}:${nonce}`);
    const again = seen && Date.now() - seen.at < NONCE_WINDOW_MS ? s.botMessages.get(seen.id) : undefined;
    // A repeat of an enforced nonce gets the message the first create made, and posts nothing.
    if (again && body.enforce_nonce === true) return { status: 200, body: messageJson(s, again) };
    const ref = body.message_reference as { message_id?: unknown } | undefined;
    const msg: DcBotMessage = {
      channelId: channel.id,
      id: s.nextId(),
      texts: [content ?? ""],
      buttons,
      ...(typeof ref?.message_id === "string" ? { replyTo: ref.message_id } : {}),
      ...(attached.length ? { files: attached } : {}),
      deleted: false,
    };
    s.botMessages.set(msg.id, msg);
    if (nonce !== undefined) s.nonces.set(`${channel.id}:${nonce}`, { id: msg.id, at: Date.now() });
    return { status: 200, body: messageJson(s, msg) };
  }
  if (oneMessage && (method === "PATCH" || method === "DELETE")) {
    const m = oneMessage;
    channelOf(s, m[1] as string);
    const msg = s.botMessages.get(m[2] as string);
    if (!msg || msg.deleted || msg.channelId !== m[1])
      throw new RestError(404, { message: "Unknown Message", code: 10008 });
    if (method === "DELETE") {
      msg.deleted = true;
      return { status: 204 };
    }
    const { content, buttons } = messageBody(body, true);
    if (content !== undefined) msg.texts.push(content);
    if (body.components !== undefined) msg.buttons = buttons;
    return { status: 200, body: messageJson(s, msg) };
  }
  if (typing && method === "POST") {
    const m = typing;
    s.typing.push({ channelId: channelOf(s, m[1] as string).id, at: Date.now() });
    return { status: 204 };
  }
  if (commands && method === "PUT") {
    if (commands[1] !== s.applicationId) throw new RestError(403, { message: "Missing Access", code: 50001 });
    s.commands = checkCommands(body);
    return {
      status: 200,
      body: s.commands.map((c) => ({ ...c, id: s.nextId(), application_id: s.applicationId })),
    };
  }
  if (callback && method === "POST") {
    const m = callback;
    const i = s.interactions.get(m[1] as string);
    if (!i || i.token !== m[2]) throw new RestError(404, { message: "Unknown interaction", code: 10062 });
    if (i.answered)
      throw new RestError(400, { message: "Interaction has already been acknowledged.", code: 40060 });
    if (typeof body.type !== "number" || ![4, 5, 6, 7].includes(body.type))
      throw formError("type", "BASE_TYPE_CHOICES", "Value must be one of {4, 5, 6, 7}.");
    i.answered = true;
    return { status: 204 };
  }
  return { status: 404, body: { message: "404: Not Found", code: 0 } };
}
