// The shapes the fake Discord keeps and reports (a subset of discord.com/developers/docs).

export interface DcUser {
  id: string;
  username: string;
  global_name?: string;
  discriminator: string;
  bot?: boolean;
}

export interface DcChannel {
  id: string;
  /** 0 guild text, 1 DM, 11 public thread. */
  type: 0 | 1 | 11;
  guild_id?: string;
  parent_id?: string;
  name?: string;
  recipients?: DcUser[];
}

/** A message the bot sent, with every content it had (edits appended). */
export interface DcBotMessage {
  channelId: string;
  id: string;
  texts: string[];
  buttons: { label: string; customId: string }[];
  /** The message it replies to, when it is a reply. */
  replyTo?: string;
  /** The files uploaded with it (`files[n]`, each named in `attachments`). */
  files?: { id: string; name: string; bytes: Buffer; contentType?: string }[];
  deleted: boolean;
}

/** One REST call as the fake received it (the tests check order and timing). */
export interface DcCall {
  method: string;
  /** The path after /api/v10. */
  route: string;
  /** The channel the call is about, when it is about one. */
  channelId?: string;
  /** ms since the epoch when the call arrived. */
  at: number;
  status: number;
}

/** A slash command the bot registered. */
export interface DcCommand {
  name: string;
  description: string;
  type: 1;
  options: { type: 3; name: string; description: string; required?: boolean }[];
}
