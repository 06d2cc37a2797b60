// The shapes the fake Slack keeps and reports (a subset of docs.slack.dev's Web API and events).

/** A Web API call refused: HTTP 200 with `ok: false` and this code. */
export class SlackError extends Error {
  constructor(readonly code: string) {
    super(code);
  }
}

/** A message in a conversation, the bot's or a user's, with every text it had (edits appended). */
export interface SlackMessage {
  channel: string;
  ts: string;
  /** The user id of its author (the bot's own id for the bot's messages). */
  user: string;
  texts: string[];
  /** The thread it is in (the parent's ts), when it is a reply in one. */
  threadTs?: string;
  /** The buttons of its Block Kit `actions` blocks. */
  buttons: { label: string; actionId: string; value?: string }[];
  /** The files shared with it (an upload's message, or a user's `file_share`). */
  files?: SlackFile[];
  deleted: boolean;
}

/** A file in a conversation. */
export interface SlackFile {
  id: string;
  name: string;
  bytes: Buffer;
  mimetype?: string;
}

/** One Web API call as the fake received it (the tests check order and timing). */
export interface SlackCall {
  method: string;
  /** The conversation the call is about, when it is about one. */
  channel?: string;
  /** ms since the epoch when the call arrived. */
  at: number;
  status: number;
  /** `ok: false`'s error code, when the call was refused. */
  error?: string;
}

export interface SlackConversation {
  id: string;
  /** im: a DM with one user; channel: a public channel the bot is in. */
  kind: "im" | "channel";
  name?: string;
  /** The DM's other user. */
  user?: string;
}
