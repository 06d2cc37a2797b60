// BullMQ refuses custom job ids that look like integers or hold a ':' (unless in exactly three
// parts); a logical id may be anything. This encoding is one-to-one: '%' and ':' are escaped, and
// an id that would read as an integer gets a '%I' in front (no escaped id starts with that).

export function toBullId(id: string): string {
  const escaped = id.replace(/%/g, "%25").replace(/:/g, "%3A");
  return `${Number.parseInt(escaped, 10)}` === escaped ? `%I${escaped}` : escaped;
}

export function fromBullId(bullId: string): string {
  const body = bullId.startsWith("%I") ? bullId.slice(2) : bullId;
  return body.replace(/%3A/g, ":").replace(/%25/g, "%");
}
