// FrameReader: splits the bytes of a socket into frames (u32 big-endian
// length, then that many bytes; docs/wire-protocol.md "Framing"). Chunks of
// a partial frame are kept aside and joined once, when the frame is whole.
// Thread model: JavaScript's single thread; one per connection.

import { ProtocolError } from './errors.js';

export class FrameReader {
  private chunks: Buffer[] = [];
  private buffered = 0;

  constructor(private readonly maxFrameBytes: number) {}

  /** Bytes held for a frame not yet complete. */
  get pendingBytes(): number {
    return this.buffered;
  }

  /**
   * Adds `chunk` and calls `onFrame` for every complete frame, in order. The
   * frame is a view of the received bytes (valid as long as it is referenced).
   * Throws ProtocolError for a frame longer than the limit.
   */
  push(chunk: Buffer, onFrame: (frame: Buffer) => void): void {
    let buf: Buffer;
    if (this.buffered === 0) {
      buf = chunk;
    } else {
      this.chunks.push(chunk);
      this.buffered += chunk.length;
      if (this.buffered < this.needed()) return;
      buf = Buffer.concat(this.chunks, this.buffered);
      this.chunks = [];
      this.buffered = 0;
    }
    let p = 0;
    while (buf.length - p >= 4) {
      const length = buf.readUInt32BE(p);
      if (length > this.maxFrameBytes) {
        throw new ProtocolError(`a frame from the server of ${length} bytes exceeds the limit of ${this.maxFrameBytes} bytes`);
      }
      if (buf.length - p - 4 < length) break;
      onFrame(buf.subarray(p + 4, p + 4 + length));
      p += 4 + length;
    }
    if (p < buf.length) {
      this.chunks = [buf.subarray(p)];
      this.buffered = buf.length - p;
    }
  }

  // Bytes needed before the held frame is complete (4 while its length is unknown).
  private needed(): number {
    const first = this.chunks[0];
    if (this.buffered < 4) return 4;
    const head = first.length >= 4 ? first : Buffer.concat(this.chunks, 4);
    const length = head.readUInt32BE(0);
    if (length > this.maxFrameBytes) {
      throw new ProtocolError(`a frame from the server of ${length} bytes exceeds the limit of ${this.maxFrameBytes} bytes`);
    }
    return 4 + length;
  }
}
