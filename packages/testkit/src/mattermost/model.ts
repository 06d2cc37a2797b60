// The fake Mattermost's data, shaped as the server's JSON (model/user.go, channel.go, post.go):
// 26-character ids, millisecond times, posts with `root_id` for threads and `pending_post_id` for
// the client's own dedupe key. Shared by the REST routes and the WebSocket hub.
import { randomBytes } from "node:crypto";

export interface MmUser {
  id: string;
  username: string;
  is_bot: boolean;
  create_at: number;
}

export interface MmChannel {
  id: string;
  team_id: string;
  /** O open, P private, D direct (two people), G group message. */
  type: "O" | "P" | "D" | "G";
  name: string;
  display_name: string;
  members: Set<string>;
  create_at: number;
  last_post_at: number;
  last_root_post_at: number;
}

export interface MmFile {
  id: string;
  user_id: string;
  channel_id: string;
  name: string;
  mime_type: string;
  bytes: Buffer;
  create_at: number;
  /** The post it is attached to ("" until one is): a file goes to one post only. */
  post_id: string;
}

export interface MmPost {
  id: string;
  create_at: number;
  update_at: number;
  edit_at: number;
  delete_at: number;
  user_id: string;
  channel_id: string;
  root_id: string;
  message: string;
  type: string;
  props: Record<string, unknown>;
  pending_post_id: string;
  file_ids: string[];
}

/** The largest post (runes): model.PostMessageMaxRunesV2. */
export const MAX_POST_RUNES = 16383;
/** Files one post may hold (model.PostFileidsMaxRunes allows 10 ids). */
export const MAX_POST_FILES = 10;
/** FileSettings.MaxFileSize's default. */
export const MAX_FILE_BYTES = 100 * 1024 * 1024;

// model.NewId: 16 random bytes in base32 with this alphabet, 26 characters.
const ALPHABET = "ybndrfg8ejkmcpqxot1uwisza345h769";

export function newId(): string {
  const bytes = randomBytes(16);
  let bits = 0;
  let value = 0;
  let out = "";
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return out.slice(0, 26);
}

export const isId = (s: unknown): s is string => typeof s === "string" && /^[a-z0-9]{26}$/.test(s);

/** A REST error as the server writes it (model.AppError). */
export class MmError extends Error {
  constructor(
    readonly status: number,
    readonly id: string,
    message: string,
  ) {
    super(message);
  }
  json(): Record<string, unknown> {
    return {
      id: this.id,
      message: this.message,
      detailed_error: "",
      request_id: newId(),
      status_code: this.status,
    };
  }
}

export function userJson(u: MmUser): Record<string, unknown> {
  return {
    id: u.id,
    create_at: u.create_at,
    update_at: u.create_at,
    delete_at: 0,
    username: u.username,
    auth_service: "",
    email: `${u.username}@fake.test`,
    nickname: "",
    first_name: "",
    last_name: "",
    position: "",
    roles: "system_user",
    locale: "en",
    is_bot: u.is_bot,
  };
}

export function channelJson(c: MmChannel): Record<string, unknown> {
  return {
    id: c.id,
    create_at: c.create_at,
    update_at: c.create_at,
    delete_at: 0,
    team_id: c.team_id,
    type: c.type,
    display_name: c.display_name,
    name: c.name,
    header: "",
    purpose: "",
    last_post_at: c.last_post_at,
    last_root_post_at: c.last_root_post_at,
    total_msg_count: 0,
    creator_id: "",
  };
}

/** A FileInfo as the server writes it. */
export function fileJson(f: MmFile): Record<string, unknown> {
  return {
    id: f.id,
    user_id: f.user_id,
    channel_id: f.channel_id,
    post_id: f.post_id,
    create_at: f.create_at,
    update_at: f.create_at,
    delete_at: 0,
    name: f.name,
    extension: f.name.includes(".") ? (f.name.split(".").pop() ?? "") : "",
    size: f.bytes.length,
    mime_type: f.mime_type,
  };
}

export function postJson(p: MmPost, files: ReadonlyMap<string, MmFile>): Record<string, unknown> {
  const infos = p.file_ids.flatMap((id) => {
    const f = files.get(id);
    return f ? [fileJson(f)] : [];
  });
  return {
    id: p.id,
    create_at: p.create_at,
    update_at: p.update_at,
    edit_at: p.edit_at,
    delete_at: p.delete_at,
    is_pinned: false,
    user_id: p.user_id,
    channel_id: p.channel_id,
    root_id: p.root_id,
    original_id: "",
    message: p.message,
    type: p.type,
    props: p.props,
    hashtags: "",
    ...(p.file_ids.length ? { file_ids: p.file_ids } : {}),
    pending_post_id: p.pending_post_id,
    reply_count: 0,
    metadata: infos.length ? { files: infos } : {},
  };
}
