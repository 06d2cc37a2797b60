// The gateway's logins and identity bindings on SQLite (state.ts says what they are).
import type { SqliteTables } from "@iris/host";
import {
  type BindingRow,
  type GatewayIdentities,
  LOGIN_TOKEN_PREFIX,
  type Login,
  type LoginRow,
  newLoginToken,
  tokenHash,
  tokenIdOf,
} from "./state.js";

export class SqliteGatewayIdentities implements GatewayIdentities {
  constructor(private readonly t: SqliteTables) {}

  async issueLoginToken(
    platform: string,
    name: string,
    now = Date.now(),
  ): Promise<{ token: string; replaced: boolean }> {
    const token = newLoginToken();
    const replaced = this.t.transaction(() => {
      const gone = this.t.run(
        "DELETE FROM gateway_logins WHERE platform = ? AND name = ?",
        platform,
        name,
      ).changes;
      this.t.run(
        "INSERT INTO gateway_logins (platform, name, token_hash, created_at) VALUES (?, ?, ?, ?)",
        platform,
        name,
        tokenHash(token),
        now,
      );
      return gone > 0;
    });
    return { token, replaced };
  }
  async removeLogin(platform: string, name: string): Promise<boolean> {
    return (
      this.t.run("DELETE FROM gateway_logins WHERE platform = ? AND name = ?", platform, name).changes > 0
    );
  }
  async logins(platform: string): Promise<LoginRow[]> {
    return this.t
      .all<{ name: string; created_at: number }>(
        "SELECT name, created_at FROM gateway_logins WHERE platform = ? ORDER BY name",
        platform,
      )
      .map((r) => ({ name: r.name, createdAt: r.created_at }));
  }
  async hasLogin(platform: string, name: string): Promise<boolean> {
    return (
      this.t.get("SELECT 1 FROM gateway_logins WHERE platform = ? AND name = ?", platform, name) !== undefined
    );
  }
  async login(platform: string, token: string): Promise<Login | undefined> {
    if (!token.startsWith(LOGIN_TOKEN_PREFIX)) return undefined;
    const hash = tokenHash(token);
    const row = this.t.get<{ name: string }>(
      "SELECT name FROM gateway_logins WHERE platform = ? AND token_hash = ?",
      platform,
      hash,
    );
    return row ? { name: row.name, tokenId: tokenIdOf(hash) } : undefined;
  }
  async holdsLogin(platform: string, name: string, tokenId: string): Promise<boolean> {
    const row = this.t.get<{ token_hash: string }>(
      "SELECT token_hash FROM gateway_logins WHERE platform = ? AND name = ?",
      platform,
      name,
    );
    return row !== undefined && tokenIdOf(row.token_hash) === tokenId;
  }
  async bind(platform: string, name: string, identity: string, now = Date.now()): Promise<string> {
    this.t.run(
      "INSERT OR IGNORE INTO gateway_bindings (platform, name, identity, bound_at) VALUES (?, ?, ?, ?)",
      platform,
      name,
      identity,
      now,
    );
    return (
      this.t.get<{ identity: string }>(
        "SELECT identity FROM gateway_bindings WHERE platform = ? AND name = ?",
        platform,
        name,
      )?.identity ?? identity
    );
  }
  async bindings(): Promise<BindingRow[]> {
    return this.t
      .all<{ platform: string; name: string; identity: string; bound_at: number }>(
        "SELECT platform, name, identity, bound_at FROM gateway_bindings ORDER BY platform, name",
      )
      .map((r) => ({ platform: r.platform, name: r.name, identity: r.identity, boundAt: r.bound_at }));
  }
  async unbind(name: string, platform?: string): Promise<number> {
    return platform
      ? this.t.run("DELETE FROM gateway_bindings WHERE name = ? AND platform = ?", name, platform).changes
      : this.t.run("DELETE FROM gateway_bindings WHERE name = ?", name).changes;
  }
}
