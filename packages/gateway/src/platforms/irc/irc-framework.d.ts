// irc-framework ships no type declarations: the small surface the IRC adapter uses.
declare module "irc-framework" {
  interface ConnectOptions {
    host: string;
    port: number;
    tls?: boolean;
    nick: string;
    username?: string;
    gecos?: string;
    auto_reconnect?: boolean;
    auto_reconnect_max_retries?: number;
    auto_reconnect_max_wait?: number;
    ping_interval?: number;
    ping_timeout?: number;
    message_max_length?: number;
    /** SASL PLAIN credentials, sent during CAP negotiation. */
    account?: { account: string; password: string };
    sasl_disconnect_on_fail?: boolean;
  }
  class Client {
    user: { nick: string } | undefined;
    connected: boolean;
    connect(options?: ConnectOptions): void;
    join(channel: string): void;
    say(target: string, message: string): void;
    quit(message?: string): void;
    on(event: string, fn: (...args: never[]) => void): this;
    once(event: string, fn: (...args: never[]) => void): this;
    removeListener(event: string, fn: (...args: never[]) => void): this;
  }
  const IRC: { Client: typeof Client };
  export default IRC;
}
