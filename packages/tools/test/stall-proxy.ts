// A TCP proxy in front of a real sshd that plays a link going quiet: stall() holds what the client
// sends (a network outage keeps it in flight) and drops what the server answers; deliver() hands
// the held bytes to the server late; cut() closes the client's side only, so the server's session
// (its shell) lives on and can still run what arrives late.
import { connect, createServer, type Server, type Socket } from "node:net";

export interface ProxiedLink {
  /** Client bytes held while stalled. */
  held: Buffer[];
  stalled: boolean;
  /** Bytes the server has sent on this connection (dropped ones too). */
  answered: number;
  stall(): void;
  deliver(): void;
  cut(): void;
}

export class StallProxy {
  readonly links: ProxiedLink[] = [];
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(targetPort: number): Promise<StallProxy> {
    let proxy: StallProxy | undefined;
    const server = createServer((client) => proxy?.accept(client, targetPort));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    proxy = new StallProxy(server, typeof address === "object" && address ? address.port : 0);
    return proxy;
  }

  /** The newest connection. */
  get last(): ProxiedLink {
    const link = this.links.at(-1);
    if (!link) throw new Error("no connection through the proxy yet");
    return link;
  }

  private accept(client: Socket, targetPort: number): void {
    const upstream = connect(targetPort, "127.0.0.1");
    for (const s of [client, upstream]) {
      this.sockets.add(s);
      s.on("close", () => this.sockets.delete(s));
      s.on("error", () => {});
    }
    const link: ProxiedLink = {
      held: [],
      stalled: false,
      answered: 0,
      stall: () => {
        link.stalled = true;
      },
      deliver: () => {
        for (const b of link.held.splice(0)) upstream.write(b);
      },
      cut: () => client.destroy(),
    };
    client.on("data", (b: Buffer) => (link.stalled ? link.held.push(b) : upstream.write(b)));
    upstream.on("data", (b: Buffer) => {
      link.answered += b.length;
      if (!link.stalled && !client.destroyed) client.write(b);
    });
    client.on("close", () => {
      // The client's side is gone; the server's stays open while stalled (it learns nothing).
      if (!link.stalled) upstream.destroy();
    });
    upstream.on("close", () => client.destroy());
    this.links.push(link);
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
