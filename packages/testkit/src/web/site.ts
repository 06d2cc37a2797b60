// A local web site for the web tools' tests (127.0.0.1, port 0): the pages of pages.ts plus a
// redirect, a redirect to a "metadata" server on another loopback port (which records whether it
// was ever reached), a page over any sane cap, an image, a 404 and a page that never answers.
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { FORM_PAGE, formDonePage } from "./form-page.js";
import { type SitePage, sitePages } from "./pages.js";

export interface TestSite {
  baseUrl: string;
  url(path: string): string;
  pages: SitePage[];
  /** The loopback server /to-internal redirects to; `hits` lists every path it was asked for. */
  internal: { baseUrl: string; hits: string[] };
  /** Paths the site itself was asked for, in order. */
  hits: string[];
  close(): Promise<void>;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export async function startTestSite(): Promise<TestSite> {
  const pages = sitePages();
  const internalHits: string[] = [];
  const internal = createServer((req, res) => {
    internalHits.push(req.url ?? "");
    res.writeHead(200, { "content-type": "text/plain" }).end("SECRET-METADATA-TOKEN");
  });
  const internalUrl = await listen(internal);
  const hits: string[] = [];
  const hanging = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    hits.push(path);
    const page = pages.find((p) => p.path === path);
    if (page) return void res.writeHead(200, { "content-type": page.type }).end(page.body);
    switch (path) {
      case "/form":
        return void res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(FORM_PAGE);
      case "/form-done":
        return void res
          .writeHead(200, { "content-type": "text/html; charset=utf-8" })
          .end(formDonePage(new URL(req.url ?? "/", "http://site").searchParams));
      case "/old-news":
        return void res.writeHead(301, { location: "/news/seoul-weather" }).end();
      case "/to-internal":
        return void res.writeHead(302, { location: `${internalUrl}/latest/meta-data/` }).end();
      case "/huge": {
        const para = `<p>${"Lorem ipsum dolor sit amet, consectetur adipiscing elit. ".repeat(40)}</p>`;
        const body = `<html><head><title>Huge page</title></head><body><article><h1>Huge</h1>${para.repeat(400)}</article></body></html>`;
        return void res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(body);
      }
      case "/image.png":
        return void res
          .writeHead(200, { "content-type": "image/png" })
          .end(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
      case "/slow":
        hanging.add(res);
        return;
      default:
        return void res
          .writeHead(404, { "content-type": "text/html" })
          .end("<html><body>Not found</body></html>");
    }
  });
  const baseUrl = await listen(server);
  return {
    baseUrl,
    url: (p) => `${baseUrl}${p}`,
    pages,
    internal: { baseUrl: internalUrl, hits: internalHits },
    hits,
    close: async () => {
      for (const r of hanging) r.destroy();
      server.closeAllConnections();
      internal.closeAllConnections();
      await Promise.all([new Promise((r) => server.close(r)), new Promise((r) => internal.close(r))]);
    },
  };
}
