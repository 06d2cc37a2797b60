// Gateway identities (migration 0025, SPEC G1). A platform that logs its users in itself (the
// web chat) gives each their own token: only its SHA-256 is stored, the token itself is shown
// once when it is made. A login is known by the user's name and a short id of the token's hash,
// so re-issuing or removing a user ends every login made with the old token. Bindings tie an
// allowlisted name (an IRC nick) to the platform identity it first spoke from, so the name alone
// cannot be borrowed later.
import { createHash, randomBytes } from "node:crypto";
import type { Database } from "./driver.js";
import { type CachedDatabase, withStatementCache } from "./statement-cache.js";

export interface Login {
  name: string;
  /** A short id of the token (a prefix of its hash): part of the login cookie. */
  tokenId: string;
}

export interface LoginRow {
  name: string;
  createdAt: number;
}

export interface BindingRow {
  platform: string;
  name: string;
  identity: string;
  boundAt: number;
}

/** Iris login tokens start so (secret scanners and people can tell one). */
export const LOGIN_TOKEN_PREFIX = "irl_";
const hashOf = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");
const idOf = (hash: string) => hash.slice(0, 16);

export class GatewayIdentities {
  private readonly db: CachedDatabase;

  constructor(db: Database) {
    this.db = withStatementCache(db);
  }

  /** Creates the user, or gives them a new token (the old one stops working): the token, once. */
  issueLoginToken(platform: string, name: string, now = Date.now()): { token: string; replaced: boolean } {
    const token = `${LOGIN_TOKEN_PREFIX}${randomBytes(24).toString("base64url")}`;
    const tx = this.db.transaction(() => {
      const replaced = this.removeLogin(platform, name);
      this.db
        .prepare("INSERT INTO gateway_logins (platform, name, token_hash, created_at) VALUES (?, ?, ?, ?)")
        .run(platform, name, hashOf(token), now);
      return replaced;
    });
    return { token, replaced: tx.immediate() };
  }

  removeLogin(platform: string, name: string): boolean {
    return (
      this.db.prepare("DELETE FROM gateway_logins WHERE platform = ? AND name = ?").run(platform, name)
        .changes > 0
    );
  }

  logins(platform: string): LoginRow[] {
    return this.db
      .prepare<{ name: string; created_at: number }>(
        "SELECT name, created_at FROM gateway_logins WHERE platform = ? ORDER BY name",
      )
      .all(platform)
      .map((r) => ({ name: r.name, createdAt: r.created_at }));
  }

  hasLogin(platform: string, name: string): boolean {
    return (
      this.db.prepare("SELECT 1 FROM gateway_logins WHERE platform = ? AND name = ?").get(platform, name) !==
      undefined
    );
  }

  /** The user a token belongs to (looked up by its hash: no timing on the token itself). */
  login(platform: string, token: string): Login | undefined {
    if (!token.startsWith(LOGIN_TOKEN_PREFIX)) return undefined;
    const hash = hashOf(token);
    const row = this.db
      .prepare<{ name: string }>("SELECT name FROM gateway_logins WHERE platform = ? AND token_hash = ?")
      .get(platform, hash);
    return row ? { name: row.name, tokenId: idOf(hash) } : undefined;
  }

  /** Whether `name` still holds the token `tokenId` (not removed, not re-issued). */
  holdsLogin(platform: string, name: string, tokenId: string): boolean {
    const row = this.db
      .prepare<{ token_hash: string }>(
        "SELECT token_hash FROM gateway_logins WHERE platform = ? AND name = ?",
      )
      .get(platform, name);
    return row !== undefined && idOf(row.token_hash) === tokenId;
  }

  /**
   * Binds `name` on `platform` to `identity` unless it is bound already: the identity it is
   * bound to (the first one that spoke), so a caller compares it with the one speaking now.
   */
  bind(platform: string, name: string, identity: string, now = Date.now()): string {
    this.db
      .prepare(
        "INSERT OR IGNORE INTO gateway_bindings (platform, name, identity, bound_at) VALUES (?, ?, ?, ?)",
      )
      .run(platform, name, identity, now);
    return (
      this.db
        .prepare<{ identity: string }>(
          "SELECT identity FROM gateway_bindings WHERE platform = ? AND name = ?",
        )
        .get(platform, name)?.identity ?? identity
    );
  }

  bindings(): BindingRow[] {
    return this.db
      .prepare<{ platform: string; name: string; identity: string; bound_at: number }>(
        "SELECT platform, name, identity, bound_at FROM gateway_bindings ORDER BY platform, name",
      )
      .all()
      .map((r) => ({ platform: r.platform, name: r.name, identity: r.identity, boundAt: r.bound_at }));
  }

  /** Forgets a binding (the next identity to speak under the name is bound instead). */
  unbind(name: string, platform?: string): number {
    const sql = platform
      ? "DELETE FROM gateway_bindings WHERE name = ? AND platform = ?"
      : "DELETE FROM gateway_bindings WHERE name = ?";
    return this.db.prepare(sql).run(...(platform ? [name, platform] : [name])).changes;
  }
}
