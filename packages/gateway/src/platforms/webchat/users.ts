// The web chat's users: the store's per-platform logins, for this platform.
import type { GatewayIdentities, Login, LoginRow } from "../../state/index.js";

const PLATFORM = "webchat";

export class WebchatUsers {
  constructor(private readonly ids: GatewayIdentities) {}

  /** Creates the user, or gives them a new token (ending the old one's logins): the token, once. */
  issue(name: string): Promise<{ token: string; replaced: boolean }> {
    return this.ids.issueLoginToken(PLATFORM, name);
  }
  remove(name: string): Promise<boolean> {
    return this.ids.removeLogin(PLATFORM, name);
  }
  list(): Promise<LoginRow[]> {
    return this.ids.logins(PLATFORM);
  }
  has(name: string): Promise<boolean> {
    return this.ids.hasLogin(PLATFORM, name);
  }
  login(token: string): Promise<Login | undefined> {
    return this.ids.login(PLATFORM, token);
  }
  holds(name: string, tokenId: string): Promise<boolean> {
    return this.ids.holdsLogin(PLATFORM, name, tokenId);
  }
}
