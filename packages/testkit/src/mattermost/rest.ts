// The fake Mattermost's REST API v4, the routes a bot uses, as strict as the server: a Bearer
// token on every call (401 api.context.session_expired.app_error), membership of the channel
// (403), a post's size (16,383 runes) and its `root_id` (a root post of the same channel), only
// one's own posts edited or deleted, `pending_post_id` repeats within 30 s answered with the first
// post (the server's dedupe cache), up to 10 `file_ids` of files the bot uploaded to the channel
// and no post holds yet (others are left out, as the server does), errors as model.AppError JSON.
// Content-Type is exactly `application/json`, which @mattermost/client's Client4 checks to parse
// a body at all.
import {
  channelJson,
  isId,
  MAX_POST_FILES,
  MAX_POST_RUNES,
  type MmChannel,
  MmError,
  type MmFile,
  type MmPost,
  type MmUser,
  newId,
  postJson,
  userJson,
} from "./model.js";

/** How long a pending_post_id is remembered (the server's PendingPostIDsCacheTTL). */
const PENDING_TTL_MS = 30_000;

export interface RestState {
  bot: MmUser;
  team: { id: string; name: string; display_name: string };
  users: Map<string, MmUser>;
  channels: Map<string, MmChannel>;
  posts: Map<string, MmPost>;
  files: Map<string, MmFile>;
  pending: Map<string, { postId: string; at: number }>;
  now(): number;
  /** A post written: its `posted` (or `post_edited`, `post_deleted`) event goes out. */
  emit(event: "posted" | "post_edited" | "post_deleted", post: MmPost): void;
  typed(userId: string, channelId: string, parentId: string): void;
}

export type RestAnswer = { status: number; json: unknown } | { status: number; bytes: Buffer; type: string };

const ok = (json: unknown, status = 200): RestAnswer => ({ status, json });
const runes = (s: string) => [...s].length;

/** One call by the bot (authenticated already); throws MmError for what the server refuses. */
export function route(
  s: RestState,
  method: string,
  path: string,
  query: URLSearchParams,
  body: unknown,
): RestAnswer {
  const me = s.bot.id;
  const p = path.replace(/^\/api\/v4/, "");
  /** The id in `p` when `method` and the route's pattern (with one id group) match it. */
  const at = (verb: string, re: RegExp) => (method === verb ? re.exec(p)?.[1] : undefined);
  if (method === "GET" && (p === "/users/me" || p === `/users/${me}`)) return ok(userJson(s.bot));
  const userId = at("GET", /^\/users\/([a-z0-9]{26})$/);
  if (userId) return ok(userJson(user(s, userId)));
  if (method === "GET" && p === "/users/me/teams")
    return ok([{ ...s.team, type: "O", create_at: 0, update_at: 0, delete_at: 0 }]);
  if (method === "GET" && (p === "/users/me/channels" || p === `/users/${me}/channels`))
    return ok([...s.channels.values()].filter((c) => c.members.has(me)).map(channelJson));
  const channelId = at("GET", /^\/channels\/([a-z0-9]{26})$/);
  if (channelId) return ok(channelJson(member(s, channelId)));
  const postsOf = at("GET", /^\/channels\/([a-z0-9]{26})\/posts$/);
  if (postsOf) return ok(postList(s, member(s, postsOf), query));
  if (method === "POST" && p === "/posts") return createPost(s, body);
  const patched = at("PUT", /^\/posts\/([a-z0-9]{26})\/patch$/);
  if (patched) return patchPost(s, patched, body);
  const deleted = at("DELETE", /^\/posts\/([a-z0-9]{26})$/);
  if (deleted) {
    const post = ownPost(s, deleted);
    post.delete_at = post.update_at = s.now();
    s.emit("post_deleted", post);
    return ok({ status: "OK" });
  }
  const fileId = at("GET", /^\/files\/([a-z0-9]{26})$/);
  if (fileId) {
    const f = s.files.get(fileId);
    if (!f) throw new MmError(404, "app.file_info.get.app_error", "Unable to get the file.");
    member(s, f.channel_id);
    return { status: 200, bytes: f.bytes, type: f.mime_type };
  }
  const typist = at("POST", /^\/users\/([a-z0-9]{26}|me)\/typing$/);
  if (typist) {
    if (typist !== "me" && typist !== me) throw forbidden();
    const b = object(body);
    const channel = member(s, String(b.channel_id ?? ""));
    s.typed(me, channel.id, String(b.parent_id ?? ""));
    return ok({ status: "OK" });
  }
  throw new MmError(404, "api.context.404.app_error", "Sorry, we could not find the page.");
}

function createPost(s: RestState, body: unknown): RestAnswer {
  const b = object(body);
  const channel = member(s, String(b.channel_id ?? ""));
  const message = b.message ?? "";
  if (typeof message !== "string") throw invalid("message");
  const fileIds = b.file_ids ?? [];
  if (!Array.isArray(fileIds) || !fileIds.every((id) => typeof id === "string")) throw invalid("file_ids");
  if (fileIds.length > MAX_POST_FILES)
    throw new MmError(400, "model.post.is_valid.file_ids.app_error", "Invalid file ids.");
  if (message.trim() === "" && fileIds.length === 0)
    throw new MmError(400, "model.post.is_valid.msg.app_error", "Invalid message.");
  if (runes(message) > MAX_POST_RUNES)
    throw new MmError(400, "model.post.is_valid.message_length.app_error", "Message too long.");
  const rootId = b.root_id ?? "";
  if (typeof rootId !== "string") throw invalid("root_id");
  if (rootId !== "") {
    const root = s.posts.get(rootId);
    if (!root || root.channel_id !== channel.id || root.root_id !== "" || root.delete_at > 0)
      throw new MmError(400, "api.post.create_post.root_id.app_error", "Invalid RootId parameter.");
  }
  const pendingId = typeof b.pending_post_id === "string" ? b.pending_post_id : "";
  const now = s.now();
  for (const [k, v] of s.pending) if (now - v.at > PENDING_TTL_MS) s.pending.delete(k);
  const seen = pendingId ? s.pending.get(`${s.bot.id}/${pendingId}`) : undefined;
  const earlier = seen ? s.posts.get(seen.postId) : undefined;
  if (earlier) return ok(postJson(earlier, s.files), 201);
  const post: MmPost = {
    id: newPostId(s),
    create_at: now,
    update_at: now,
    edit_at: 0,
    delete_at: 0,
    user_id: s.bot.id,
    channel_id: channel.id,
    root_id: rootId,
    message,
    type: "",
    props: typeof b.props === "object" && b.props ? (b.props as Record<string, unknown>) : {},
    pending_post_id: pendingId,
    file_ids: attachable(s, fileIds as string[], channel.id),
  };
  for (const id of post.file_ids) (s.files.get(id) as MmFile).post_id = post.id;
  s.posts.set(post.id, post);
  if (pendingId) s.pending.set(`${s.bot.id}/${pendingId}`, { postId: post.id, at: now });
  s.emit("posted", post);
  return ok(postJson(post, s.files), 201);
}

function patchPost(s: RestState, id: string, body: unknown): RestAnswer {
  const post = ownPost(s, id);
  const b = object(body);
  if (b.message !== undefined) {
    if (typeof b.message !== "string") throw invalid("message");
    if (runes(b.message) > MAX_POST_RUNES)
      throw new MmError(400, "model.post.is_valid.message_length.app_error", "Message too long.");
    post.message = b.message;
  }
  post.edit_at = post.update_at = s.now();
  s.emit("post_edited", post);
  return ok(postJson(post, s.files));
}

/** GET /channels/{id}/posts: `since` (posts changed after it, deleted ones too) or a page. */
function postList(s: RestState, channel: MmChannel, query: URLSearchParams): Record<string, unknown> {
  const inChannel = [...s.posts.values()].filter((p) => p.channel_id === channel.id);
  const since = query.get("since");
  let picked: MmPost[];
  if (since !== null) {
    if (!/^\d+$/.test(since)) throw invalid("since");
    picked = inChannel.filter((p) => p.update_at > Number(since));
  } else {
    const perPage = Math.min(Number(query.get("per_page") ?? 60) || 60, 200);
    const page = Number(query.get("page") ?? 0) || 0;
    picked = inChannel
      .filter((p) => p.delete_at === 0)
      .sort((a, b) => b.create_at - a.create_at)
      .slice(page * perPage, (page + 1) * perPage);
  }
  picked.sort((a, b) => b.create_at - a.create_at);
  return {
    order: picked.map((p) => p.id),
    posts: Object.fromEntries(picked.map((p) => [p.id, postJson(p, s.files)])),
    next_post_id: "",
    prev_post_id: "",
    has_next: false,
  };
}

/**
 * The ids of files the bot uploaded to this channel and no post holds yet: the server attaches
 * those and leaves any other id out of the post (attachFilesToPost), without an error.
 */
function attachable(s: RestState, ids: readonly string[], channelId: string): string[] {
  return [...new Set(ids)].filter((id) => {
    const f = s.files.get(id);
    return f !== undefined && f.user_id === s.bot.id && f.channel_id === channelId && f.post_id === "";
  });
}

function newPostId(s: RestState): string {
  for (;;) {
    const id = newId();
    if (!s.posts.has(id)) return id;
  }
}

function user(s: RestState, id: string): MmUser {
  const u = s.users.get(id) ?? (id === s.bot.id ? s.bot : undefined);
  if (!u) throw new MmError(404, "app.user.missing_account.const", "Unable to find the user.");
  return u;
}

function member(s: RestState, id: string | undefined): MmChannel {
  const c = isId(id) ? s.channels.get(id) : undefined;
  if (!c?.members.has(s.bot.id)) throw forbidden();
  return c;
}

function ownPost(s: RestState, id: string): MmPost {
  const post = s.posts.get(id);
  if (!post || post.delete_at > 0)
    throw new MmError(404, "app.post.get.app_error", "Unable to get the post.");
  if (post.user_id !== s.bot.id) throw forbidden();
  return post;
}

function object(body: unknown): Record<string, unknown> {
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw new MmError(400, "api.context.invalid_body_param.app_error", "Invalid or missing body.");
  return body as Record<string, unknown>;
}

const invalid = (name: string) =>
  new MmError(400, "api.context.invalid_body_param.app_error", `Invalid or missing ${name} in request body.`);

const forbidden = () =>
  new MmError(403, "api.context.permissions.app_error", "You do not have the appropriate permissions.");
