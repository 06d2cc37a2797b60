// A TCP proxy between a chat client and its server, for the contract's reconnect test: it can
// drop every connection and refuse new ones for a while (each refused attempt is counted, so a
// reconnect storm shows up as a number), then let them through again.
import { connect, createServer, type Server, type Socket } from "node:net";

export class DropProxy {
  private readonly sockets = new Set<Socket>();
  private down = false;
  /** Connections attempted while down. */
  refused = 0;

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(targetPort: number): Promise<DropProxy> {
    let proxy: DropProxy | undefined;
    const server = createServer((client) => proxy?.accept(client, targetPort));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    proxy = new DropProxy(server, typeof address === "object" && address ? address.port : 0);
    return proxy;
  }

  private accept(client: Socket, targetPort: number): void {
    if (this.down) {
      this.refused++;
      client.destroy();
      return;
    }
    const upstream = connect(targetPort, "127.0.0.1");
    for (const s of [client, upstream]) {
      this.sockets.add(s);
      s.on("close", () => this.sockets.delete(s));
      s.on("error", () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  }

  /** Drops every connection and refuses new ones until restore(). */
  drop(): void {
    this.down = true;
    this.refused = 0;
    for (const s of this.sockets) s.destroy();
  }

  /** Lets connections through again; how many were refused while down. */
  restore(): number {
    this.down = false;
    return this.refused;
  }

  /** drop(), then restore() after `ms`. */
  async outage(ms: number): Promise<number> {
    this.drop();
    await new Promise((r) => setTimeout(r, ms));
    return this.restore();
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
