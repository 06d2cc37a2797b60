// The bot's own services login (SPEC G1): SASL PLAIN during CAP negotiation, before the bot
// registers, through irc-framework's `account` option. A failed login ends the connection
// (sasl_disconnect_on_fail) and start() says why, naming the account and the password's
// variable, never the password: a bot that runs unidentified could lose its nick or be refused
// where the network requires a login, and quietly so.
import { registerSecret } from "@iris/llm";

export interface IrcSasl {
  account: string;
  /** The password from the profile's .env or the environment; undefined when the variable is unset. */
  password: string | undefined;
  /** Where the password comes from (named in errors instead of the password). */
  passwordEnv: string;
}

/**
 * The login `gateway.platforms.irc.sasl` asks for, its password read from the profile's
 * environment (.env first) and registered for redaction like any key.
 */
export function saslOf(
  config: { account: string; password_env: string } | undefined,
  env: Record<string, string | undefined>,
): IrcSasl | undefined {
  if (!config) return undefined;
  const password = env[config.password_env] || undefined;
  if (password) registerSecret(password);
  return { account: config.account, password, passwordEnv: config.password_env };
}

/** What irc-framework's connect() takes for a SASL login (nothing without one). */
export function saslConnectOptions(sasl: IrcSasl | undefined): {
  account?: { account: string; password: string };
  sasl_disconnect_on_fail?: boolean;
} {
  if (!sasl?.password) return {};
  return { account: { account: sasl.account, password: sasl.password }, sasl_disconnect_on_fail: true };
}

/** Why a SASL login cannot start: the password's variable is not set. */
export function saslMissingPassword(sasl: IrcSasl | undefined): string | undefined {
  if (!sasl || sasl.password) return undefined;
  return (
    `IRC: gateway.platforms.irc.sasl logs in as ${sasl.account}, but ${sasl.passwordEnv} is not set ` +
    "(put it in the profile's .env)"
  );
}

const REASONS: Record<string, string> = {
  fail: "the server refused the account or password",
  capability_missing: "the server offers no SASL",
  unsupported_mechanism: "the server does not take SASL PLAIN",
  nick_locked: "the nick is locked by services",
  too_long: "the login was too long",
};

/** The error for irc-framework's `sasl failed` event (its `reason`, the server's own words). */
export function saslFailure(sasl: IrcSasl, event: { reason?: string; message?: string }): string {
  const why = REASONS[event.reason ?? ""] ?? event.reason ?? "unknown reason";
  const said = event.message ? `: ${event.message}` : "";
  return `IRC: SASL login as ${sasl.account} failed (${why}${said}); check ${sasl.passwordEnv}`;
}
