// Who an IRC speaker is (SPEC G1): a nick alone can be taken by anyone once its owner leaves, so
// the speaker's id is the nick with the user and host it connects from (`nick!user@host`, the
// nick case-folded), and their services account where the server tags messages with it (IRCv3
// `account-tag`). An allowed or paired user is known by that whole id: the same nick from
// another mask or account is a stranger.
export interface IrcSpeaker {
  nick: string;
  ident?: string | undefined;
  hostname?: string | undefined;
  /** The IRCv3 account tag (or irc-framework's `account`); absent or "*" when not logged in. */
  account?: string | undefined;
}

/** IRC's case mapping (rfc1459): `[]\~` are the upper case of `{}|^`. */
export function ircLower(s: string): string {
  return s.toLowerCase().replace(/[[\]\\~]/g, (c) => ({ "[": "{", "]": "}", "\\": "|", "~": "^" })[c] ?? c);
}

export function ircIdentity(s: IrcSpeaker): string {
  const mask = `${ircLower(s.nick)}!${s.ident || "?"}@${(s.hostname || "?").toLowerCase()}`;
  return s.account && s.account !== "*" ? `${mask} account=${s.account}` : mask;
}
