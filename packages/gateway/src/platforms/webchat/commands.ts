// `iris gateway webchat add-user NAME | remove-user NAME | users` (SPEC G1): each web chat user
// gets their own login token, shown once on stdout (only its hash is stored). A running gateway
// sees the change at the next login; re-issuing or removing a user ends their logins.
import { type CommandIo, withGatewayTables } from "../../commands.js";
import { NAME } from "./auth.js";
import { WebchatUsers } from "./users.js";

function withUsers(io: CommandIo, fn: (users: WebchatUsers) => Promise<number>): Promise<number> {
  return withGatewayTables(io, (t) => fn(new WebchatUsers(t.identities)));
}

export async function webchatAddUser(io: CommandIo, name: string): Promise<number> {
  if (!NAME.test(name)) {
    io.err(`iris: user name ${JSON.stringify(name)}: 1–32 letters, digits, '_', '.' or '-'\n`);
    return 2;
  }
  return withUsers(io, async (users) => {
    const { token, replaced } = await users.issue(name);
    io.out(
      `${replaced ? "new token for" : "added"} web chat user ${name}` +
        `${replaced ? " (the old token and its logins no longer work)" : ""}\n` +
        `login token (shown once; give it to ${name} only): ${token}\n`,
    );
    return 0;
  });
}

export function webchatRemoveUser(io: CommandIo, name: string): Promise<number> {
  return withUsers(io, async (users) => {
    if (!(await users.remove(name))) {
      io.err(`iris: no web chat user ${name}\n`);
      return 1;
    }
    io.out(`removed web chat user ${name} (their logins no longer work)\n`);
    return 0;
  });
}

export function webchatUsers(io: CommandIo): Promise<number> {
  return withUsers(io, async (users) => {
    const listed = await users.list();
    if (listed.length === 0) io.out("No web chat users; add one with: iris gateway webchat add-user NAME\n");
    for (const u of listed) io.out(`${u.name}  since ${new Date(u.createdAt).toISOString()}\n`);
    return 0;
  });
}
