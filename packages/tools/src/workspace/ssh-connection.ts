// One SSH connection of a session (ssh2): the host key checked against known_hosts before any
// credential is sent, one persistent `bash --noprofile --norc` over an exec channel for commands,
// and one SFTP channel for files. A dropped connection is noticed and opened again on the next
// call; the session's working directories live in Iris (TaskCwds), so they survive it.
import { readFile } from "node:fs/promises";
import type { Client, ClientChannel, SFTPWrapper } from "ssh2";
import { WorkspaceUnavailable } from "./errors.js";
import { checkHostKey } from "./known-hosts.js";
import { shellQuote } from "./shell-processes.js";

export interface SshSettings {
  host: string;
  port: number;
  user: string;
  /** The private key's file (no passphrase). */
  keyPath: string;
  /** The known_hosts file the server's host key must be in. */
  knownHosts: string;
  /** The work folder on the remote host. */
  remoteDir: string;
  /** Seconds to wait for the connection (default 15). */
  connectTimeoutS?: number;
  /** Variables every command gets (terminal.env_passthrough); nothing of this machine's otherwise. */
  env?: Readonly<Record<string, string>>;
}

export interface SshLink {
  client: Client;
  shell: ClientChannel;
  sftp: SFTPWrapper;
  home: string;
  /** False once the connection or its shell closed. */
  alive: boolean;
}

export class SshConnection {
  private link: Promise<SshLink> | undefined;
  private closed = false;
  /** Times a connection was opened (the first one included). */
  connects = 0;

  constructor(readonly settings: SshSettings) {}

  get target(): string {
    const s = this.settings;
    return `${s.user}@${s.host}:${s.port}`;
  }

  unavailable(reason: string): WorkspaceUnavailable {
    return new WorkspaceUnavailable("ssh", this.target, reason);
  }

  /** The live link, opened (again) when there is none or the last one closed. */
  async get(): Promise<SshLink> {
    const link = await this.current();
    if (link.alive) return link;
    if (this.link && (await this.link.catch(() => undefined)) === link) this.link = undefined;
    return this.current();
  }

  private current(): Promise<SshLink> {
    if (this.closed) return Promise.reject(this.unavailable("the session's workspace is closed"));
    if (!this.link) {
      const opening = this.open();
      this.link = opening;
      opening.catch(() => {
        if (this.link === opening) this.link = undefined;
      });
    }
    return this.link;
  }

  /** Forget the link (it broke); the next get() connects again. */
  drop(link: SshLink): void {
    link.alive = false;
    void this.link?.then((l) => {
      if (l === link) this.link = undefined;
    });
    link.client.end();
  }

  async close(): Promise<void> {
    this.closed = true;
    const link = await this.link?.catch(() => undefined);
    this.link = undefined;
    link?.client.end();
  }

  private async open(): Promise<SshLink> {
    const s = this.settings;
    let privateKey: Buffer;
    let knownHosts: string;
    try {
      privateKey = await readFile(s.keyPath);
    } catch (e) {
      throw this.unavailable(
        `cannot read the key file ${s.keyPath} (terminal.ssh.key_path): ${(e as Error).message}`,
      );
    }
    try {
      knownHosts = await readFile(s.knownHosts, "utf8");
    } catch (e) {
      throw this.unavailable(
        `cannot read ${s.knownHosts} (terminal.ssh.known_hosts): ${(e as Error).message}; the host key cannot be checked`,
      );
    }
    // Loaded on the first connection only: a local session never pays for it.
    const { Client: SshClient } = await import("ssh2");
    const client: Client = new SshClient();
    let refusedKey = "";
    await new Promise<void>((resolve, reject) => {
      client.once("ready", () => resolve());
      client.once("error", (e) => reject(this.unavailable(refusedKey || e.message)));
      client.connect({
        host: s.host,
        port: s.port,
        username: s.user,
        privateKey,
        readyTimeout: (s.connectTimeoutS ?? 15) * 1000,
        keepaliveInterval: 15_000,
        hostVerifier: (key: Buffer) => {
          const verdict = checkHostKey(knownHosts, s.host, s.port, key);
          if (verdict === "known") return true;
          refusedKey =
            verdict === "unknown"
              ? `the host key of ${s.host}:${s.port} is not in ${s.knownHosts}; add it (ssh-keyscan) to trust this host`
              : `the host key of ${s.host}:${s.port} does not match ${s.knownHosts} (${verdict}); refused`;
          return false;
        },
      });
    });
    this.connects++;
    const fail = (what: string) => (e: Error) => {
      client.end();
      return Promise.reject(this.unavailable(`${what}: ${e.message}`));
    };
    const shell = await new Promise<ClientChannel>((resolve, reject) =>
      client.exec("exec bash --noprofile --norc", (err, ch) => (err ? reject(err) : resolve(ch))),
    ).catch(fail("could not start bash"));
    const sftp = await new Promise<SFTPWrapper>((resolve, reject) =>
      client.sftp((err, sf) => (err ? reject(err) : resolve(sf))),
    ).catch(fail("could not open SFTP"));
    const home = await new Promise<string>((resolve, reject) =>
      sftp.realpath(".", (err, p) => (err ? reject(err) : resolve(p))),
    ).catch(fail("could not find the home folder"));
    // The work folder is made when missing, so a fresh remote_dir works from the first command.
    await new Promise<void>((resolve, reject) =>
      client.exec(`mkdir -p -- ${shellQuote(s.remoteDir)}`, (err, ch) => {
        if (err) return reject(err);
        ch.on("data", () => {});
        ch.stderr.on("data", () => {});
        ch.once("close", (code: number | null) =>
          code === 0 ? resolve() : reject(new Error(`could not create remote_dir ${s.remoteDir}`)),
        );
      }),
    ).catch(fail("the work folder"));
    const link: SshLink = { client, shell, sftp, home, alive: true };
    const broken = () => {
      link.alive = false;
      void this.link?.then((l) => {
        if (l === link) this.link = undefined;
      });
    };
    client.once("close", broken);
    client.once("end", broken);
    shell.once("close", () => {
      broken();
      client.end();
    });
    return link;
  }

  /** A one-off command on its own channel (kills, while the shell is busy); its output. */
  async run(command: string): Promise<string> {
    const { client } = await this.get();
    return new Promise((resolve, reject) =>
      client.exec(command, (err, ch) => {
        if (err) return reject(this.unavailable(err.message));
        let out = "";
        ch.on("data", (b: Buffer) => {
          out += b.toString("utf8");
        });
        ch.stderr.on("data", () => {});
        ch.once("close", () => resolve(out));
      }),
    );
  }
}
