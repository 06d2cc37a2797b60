// The web chat's users: the store's per-platform logins, for this platform.
import type { GatewayIdentities, Login, LoginRow } from "@iris/host";

const PLATFORM = "webchat";

export class WebchatUsers {
  constructor(private readonly ids: GatewayIdentities) {}

  /** Creates the user, or gives them a new token (ending the old one's logins): the token, once. */
  issue(name: string): { token: string; replaced: boolean } {
    return this.ids.issueLoginToken(PLATFORM, name);
  }
  remove(name: string): boolean {
    return this.ids.removeLogin(PLATFORM, name);
  }
  list(): LoginRow[] {
    return this.ids.logins(PLATFORM);
  }
  has(name: string): boolean {
    return this.ids.hasLogin(PLATFORM, name);
  }
  login(token: string): Login | undefined {
    return this.ids.login(PLATFORM, token);
  }
  holds(name: string, tokenId: string): boolean {
    return this.ids.holdsLogin(PLATFORM, name, tokenId);
  }
}
