/**
 * Splits a server-sent event stream into its events' `data` as the bytes arrive, by the WHATWG
 * event-stream grammar: a line ends in CRLF, LF or CR (mixed freely within one stream, a CRLF may
 * straddle two chunks), a blank line ends an event, an event's `data` lines are joined with LF,
 * comments and other fields are skipped, a leading BOM is dropped. Each byte is searched once: a
 * chunk costs its own length, never a rescan of earlier bytes (`examinedBytes` counts that work).
 * An event whose data (or any one line) passes `maxEventBytes` is skipped whole, so memory stays
 * bounded by it.
 */

const LF = 0x0a;
const CR = 0x0d;
const COLON = 0x3a;
const SPACE = 0x20;
const DATA = Buffer.from('data');
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const NEWLINE = Buffer.from('\n');
/** Below any position: the next search runs. */
const NOT_SEARCHED = -2;

export interface SseEventScannerOptions {
  /** Called with each complete event's data (events without a `data` field are not reported). */
  readonly onData: (data: string) => void;
  /** Data bytes (or bytes of one line) past which an event is skipped; default 16 MiB. */
  readonly maxEventBytes?: number;
}

export const DEFAULT_MAX_EVENT_BYTES = 16 * 1024 * 1024;

export class SseEventScanner {
  private readonly onData: (data: string) => void;
  private readonly maxEventBytes: number;
  /** The current line's bytes from earlier chunks (views, not copies). */
  private partial: Buffer[] = [];
  private partialBytes = 0;
  /** The previous chunk ended in CR: an LF opening the next one belongs to that line end. */
  private afterCR = false;
  private firstLine = true;
  private data: Buffer[] = [];
  private dataBytes = 0;
  private oversized = false;
  private examined = 0;
  /** Positions of the next LF and CR in the chunk being pushed (-1: none left). */
  private nextLF = NOT_SEARCHED;
  private nextCR = NOT_SEARCHED;

  constructor(options: SseEventScannerOptions) {
    this.onData = options.onData;
    this.maxEventBytes = options.maxEventBytes ?? DEFAULT_MAX_EVENT_BYTES;
  }

  /** Bytes searched for line ends plus data bytes decoded: the scanner's work so far. */
  get examinedBytes(): number {
    return this.examined;
  }

  /** Feeds the next bytes of the stream. */
  push(chunk: Buffer): void {
    let pos = 0;
    if (this.afterCR && chunk.length > 0) {
      this.afterCR = false;
      if (chunk[0] === LF) pos = 1;
    }
    this.nextLF = NOT_SEARCHED;
    this.nextCR = NOT_SEARCHED;
    while (pos < chunk.length) {
      const end = this.lineEnd(chunk, pos);
      if (end === -1) {
        this.keep(chunk.subarray(pos));
        return;
      }
      this.endLine(chunk.subarray(pos, end));
      pos = end + 1;
      if (chunk[end] === CR) {
        if (pos === chunk.length) this.afterCR = true;
        else if (chunk[pos] === LF) pos += 1;
      }
    }
  }

  /** The stream ended: a last event without its blank line still counts (lenient on purpose). */
  end(): void {
    if (this.partialBytes > 0) this.endLine(Buffer.alloc(0));
    this.dispatch();
  }

  /**
   * The first LF or CR at or after `pos`, or -1. The next LF and the next CR are each found once
   * and reused until passed, so neither search covers a byte twice (searching both on every line
   * would rescan a chunk whose lines end one way up to a far-off line end of the other way).
   */
  private lineEnd(chunk: Buffer, pos: number): number {
    if (this.nextLF !== -1 && this.nextLF < pos) this.nextLF = this.find(chunk, LF, pos);
    if (this.nextCR !== -1 && this.nextCR < pos) this.nextCR = this.find(chunk, CR, pos);
    if (this.nextLF === -1) return this.nextCR;
    return this.nextCR !== -1 && this.nextCR < this.nextLF ? this.nextCR : this.nextLF;
  }

  private find(chunk: Buffer, byte: number, from: number): number {
    if (from >= chunk.length) return -1;
    const at = chunk.indexOf(byte, from);
    this.examined += (at === -1 ? chunk.length : at + 1) - from;
    return at;
  }

  private keep(rest: Buffer): void {
    if (rest.length === 0) return;
    this.partialBytes += rest.length;
    if (this.partialBytes > this.maxEventBytes) {
      this.oversized = true;
      this.partial = [];
      return;
    }
    this.partial.push(rest);
  }

  private endLine(tail: Buffer): void {
    const tooLong = this.partialBytes + tail.length > this.maxEventBytes;
    let line = tail;
    if (this.partial.length > 0 && !tooLong) line = Buffer.concat([...this.partial, tail]);
    this.partial = [];
    this.partialBytes = 0;
    if (tooLong) {
      this.oversized = true;
      return;
    }
    if (this.firstLine) {
      this.firstLine = false;
      if (line.subarray(0, 3).equals(BOM)) line = line.subarray(3);
    }
    if (line.length === 0) this.dispatch();
    else this.field(line);
  }

  private field(line: Buffer): void {
    if (line.length < 4 || !line.subarray(0, 4).equals(DATA)) return;
    if (line.length > 4 && line[4] !== COLON) return;
    const start = line[5] === SPACE ? 6 : 5;
    const value = line.subarray(Math.min(start, line.length));
    this.dataBytes += value.length + (this.data.length > 0 ? 1 : 0);
    if (this.dataBytes > this.maxEventBytes) {
      this.oversized = true;
      this.data = [];
      return;
    }
    if (!this.oversized) this.data.push(value);
  }

  private dispatch(): void {
    const data = this.data;
    const complete = !this.oversized && data.length > 0;
    this.data = [];
    this.dataBytes = 0;
    this.oversized = false;
    if (!complete) return;
    const parts: Buffer[] = [];
    for (const [index, value] of data.entries()) {
      if (index > 0) parts.push(NEWLINE);
      parts.push(value);
    }
    const joined = parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts);
    this.examined += joined.length;
    this.onData(joined.toString('utf8'));
  }
}
