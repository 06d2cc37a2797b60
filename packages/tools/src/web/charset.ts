// Bytes → text by the page's charset: the Content-Type header, else a <meta> in the first 2 KB,
// else UTF-8 (Korean sites still serve EUC-KR). An unknown label falls back to UTF-8.
export function charsetOf(body: Buffer, contentType: string | undefined): string {
  const fromHeader = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType ?? "")?.[1];
  if (fromHeader) return fromHeader.toLowerCase();
  const head = body.subarray(0, 2048).toString("latin1");
  const fromMeta = /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head)?.[1];
  return (fromMeta ?? "utf-8").toLowerCase();
}

export function decodeBody(body: Buffer, contentType: string | undefined): string {
  const label = charsetOf(body, contentType);
  try {
    return new TextDecoder(label).decode(body);
  } catch {
    return new TextDecoder("utf-8").decode(body);
  }
}
