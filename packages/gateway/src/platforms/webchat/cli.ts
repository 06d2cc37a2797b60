// `iris gateway webchat add-user NAME | remove-user NAME | users` (SPEC G1): read by the `iris`
// bin at start, so nothing here loads the store; commands.ts does, when one runs.
import type { PlatformCli } from "../plugin.js";

export const cli: PlatformCli = {
  description: "the web chat's users: each has their own login token",
  commands: [
    {
      name: "add-user",
      args: ["name"],
      description: "add a user (or give them a new token): prints their login token once",
      run: async (io, [name]) => (await import("./commands.js")).webchatAddUser(io, name ?? ""),
    },
    {
      name: "remove-user",
      args: ["name"],
      description: "remove a user: their token and logins stop working",
      run: async (io, [name]) => (await import("./commands.js")).webchatRemoveUser(io, name ?? ""),
    },
    {
      name: "users",
      args: [],
      description: "list the web chat's users",
      run: async (io) => (await import("./commands.js")).webchatUsers(io),
    },
  ],
};
