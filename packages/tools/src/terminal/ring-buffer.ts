// Bounded output buffer of a background process: keeps the last `capacity` bytes and knows the
// absolute position of every byte, so readers can ask for "everything after position N".

export class RingBuffer {
  private chunks: Buffer[] = [];
  private length = 0;
  /** Bytes ever written. */
  written = 0;

  constructor(readonly capacity: number) {}

  /** Absolute position of the oldest byte still held. */
  get start(): number {
    return this.written - this.length;
  }

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.length += chunk.length;
    this.written += chunk.length;
    while (this.length > this.capacity) {
      const first = this.chunks[0] as Buffer;
      const excess = this.length - this.capacity;
      if (first.length <= excess) {
        this.chunks.shift();
        this.length -= first.length;
      } else {
        this.chunks[0] = first.subarray(excess);
        this.length -= excess;
      }
    }
  }

  /** Bytes from absolute position `pos` (or the oldest held, if later) to the end. */
  readFrom(pos: number): { from: number; data: Buffer } {
    const from = Math.max(pos, this.start);
    const all = Buffer.concat(this.chunks);
    return { from, data: all.subarray(from - this.start) };
  }
}
