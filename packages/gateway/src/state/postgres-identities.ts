// The gateway's logins and identity bindings on Postgres (state.ts says what they are): a name is
// bound by INSERT … ON CONFLICT DO NOTHING, so two processes hearing one name at once agree on
// the first identity.
import type { PostgresTables } from "@iris/host";
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

export class PostgresGatewayIdentities implements GatewayIdentities {
  constructor(private readonly t: PostgresTables) {}

  async issueLoginToken(
    platform: string,
    name: string,
    now = Date.now(),
  ): Promise<{ token: string; replaced: boolean }> {
    const token = newLoginToken();
    const replaced = await this.t.transaction(async (tx) => {
      const gone = await tx.query("DELETE FROM gateway_logins WHERE platform = $1 AND name = $2", [
        platform,
        name,
      ]);
      await tx.query(
        "INSERT INTO gateway_logins (platform, name, token_hash, created_at) VALUES ($1, $2, $3, $4)",
        [platform, name, tokenHash(token), now],
      );
      return gone.rowCount > 0;
    });
    return { token, replaced };
  }
  async removeLogin(platform: string, name: string): Promise<boolean> {
    const r = await this.t.query("DELETE FROM gateway_logins WHERE platform = $1 AND name = $2", [
      platform,
      name,
    ]);
    return r.rowCount > 0;
  }
  async logins(platform: string): Promise<LoginRow[]> {
    const { rows } = await this.t.query<{ name: string; created_at: number }>(
      "SELECT name, created_at FROM gateway_logins WHERE platform = $1 ORDER BY name",
      [platform],
    );
    return rows.map((r) => ({ name: r.name, createdAt: r.created_at }));
  }
  async hasLogin(platform: string, name: string): Promise<boolean> {
    const r = await this.t.query("SELECT 1 FROM gateway_logins WHERE platform = $1 AND name = $2", [
      platform,
      name,
    ]);
    return r.rows.length > 0;
  }
  async login(platform: string, token: string): Promise<Login | undefined> {
    if (!token.startsWith(LOGIN_TOKEN_PREFIX)) return undefined;
    const hash = tokenHash(token);
    const { rows } = await this.t.query<{ name: string }>(
      "SELECT name FROM gateway_logins WHERE platform = $1 AND token_hash = $2",
      [platform, hash],
    );
    return rows[0] ? { name: rows[0].name, tokenId: tokenIdOf(hash) } : undefined;
  }
  async holdsLogin(platform: string, name: string, tokenId: string): Promise<boolean> {
    const { rows } = await this.t.query<{ token_hash: string }>(
      "SELECT token_hash FROM gateway_logins WHERE platform = $1 AND name = $2",
      [platform, name],
    );
    return rows[0] !== undefined && tokenIdOf(rows[0].token_hash) === tokenId;
  }
  async bind(platform: string, name: string, identity: string, now = Date.now()): Promise<string> {
    await this.t.query(
      "INSERT INTO gateway_bindings (platform, name, identity, bound_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
      [platform, name, identity, now],
    );
    const { rows } = await this.t.query<{ identity: string }>(
      "SELECT identity FROM gateway_bindings WHERE platform = $1 AND name = $2",
      [platform, name],
    );
    return rows[0]?.identity ?? identity;
  }
  async bindings(): Promise<BindingRow[]> {
    const { rows } = await this.t.query<{
      platform: string;
      name: string;
      identity: string;
      bound_at: number;
    }>("SELECT platform, name, identity, bound_at FROM gateway_bindings ORDER BY platform, name");
    return rows.map((r) => ({
      platform: r.platform,
      name: r.name,
      identity: r.identity,
      boundAt: r.bound_at,
    }));
  }
  async unbind(name: string, platform?: string): Promise<number> {
    const r = platform
      ? await this.t.query("DELETE FROM gateway_bindings WHERE name = $1 AND platform = $2", [name, platform])
      : await this.t.query("DELETE FROM gateway_bindings WHERE name = $1", [name]);
    return r.rowCount;
  }
}
