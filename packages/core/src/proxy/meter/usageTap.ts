/**
 * The usage meter's side of a reply: each chunk on its way to the client is handed here too. A
 * compressed reply (see `contentDecoder`) is decompressed on the side, a copy, so the client gets
 * the bytes as they came and is never held up. Memory stays bounded: past `MAX_QUEUED_BYTES` of
 * compressed input waiting for the decompressor, or once the meter can use no more bytes, decoding
 * stops and the usage seen until then stands.
 */
import type { Transform } from 'node:stream';
import { contentDecoder } from './contentDecoder.js';
import { UsageMeter, type Usage } from './usageMeter.js';

/** Compressed bytes allowed to wait for the decompressor before metering gives up. */
export const MAX_QUEUED_BYTES = 8 * 1024 * 1024;

export interface UsageTapInput {
  /** The reply's `Content-Type` (`text/event-stream` is scanned as SSE, anything else as JSON). */
  readonly contentType: string | undefined;
  /** The reply's `Content-Encoding`. */
  readonly contentEncoding: string | undefined;
}

type Decoding =
  | { readonly kind: 'pending' }
  | { readonly kind: 'identity' }
  | { readonly kind: 'decode'; readonly stream: Transform; readonly done: Promise<void> }
  | { readonly kind: 'stopped' };

export class UsageTap {
  private readonly meter: UsageMeter;
  private readonly encoding: string | undefined;
  private decoding: Decoding = { kind: 'pending' };
  private decoded = 0;

  constructor(input: UsageTapInput) {
    this.meter = new UsageMeter((input.contentType ?? '').includes('text/event-stream'));
    this.encoding = input.contentEncoding;
  }

  /** Bytes the meter has been given (decoded ones for a compressed reply). */
  get meteredBytes(): number {
    return this.decoded;
  }

  /** One chunk of the reply exactly as the client receives it. */
  push(chunk: Buffer): void {
    if (this.decoding.kind === 'pending') this.decoding = this.start(chunk);
    const decoding = this.decoding;
    if (decoding.kind === 'identity') this.give(chunk);
    if (decoding.kind !== 'decode') return;
    decoding.stream.write(chunk);
    if (decoding.stream.writableLength > MAX_QUEUED_BYTES) this.stop(decoding.stream);
  }

  /** The reply ended whole: the usage once the decompressor (if any) has drained. Never rejects. */
  async finish(): Promise<Usage | undefined> {
    const decoding = this.decoding;
    if (decoding.kind === 'decode') {
      decoding.stream.end();
      await decoding.done;
    }
    return this.meter.finish();
  }

  /** The reply was cut: the usage seen so far, without waiting. */
  cut(): Usage | undefined {
    if (this.decoding.kind === 'decode') this.stop(this.decoding.stream);
    return this.meter.finish();
  }

  private start(head: Buffer): Decoding {
    const decoder = contentDecoder(this.encoding, head);
    if (decoder.kind === 'identity') return decoder;
    if (decoder.kind === 'unsupported') return { kind: 'stopped' };
    const stream = decoder.stream;
    // A corrupt body ends decoding; the usage seen until then stands.
    stream.on('error', () => {
      if (this.decoding.kind === 'decode') this.decoding = { kind: 'stopped' };
    });
    const done = new Promise<void>((resolve) => {
      stream.once('end', resolve);
      stream.once('close', resolve);
    });
    stream.on('data', (decoded: Buffer) => {
      this.give(decoded);
      if (this.meter.saturated) this.stop(stream);
    });
    return { kind: 'decode', stream, done };
  }

  private give(bytes: Buffer): void {
    this.decoded += bytes.length;
    this.meter.push(bytes);
  }

  private stop(stream: Transform): void {
    this.decoding = { kind: 'stopped' };
    stream.destroy();
  }
}
