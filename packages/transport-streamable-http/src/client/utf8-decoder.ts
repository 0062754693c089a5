/** Shared by every stream for chunks that end on a character boundary (BOMs are handled by hand). */
const SHARED = new TextDecoder('utf-8', { ignoreBOM: true });

/** True when `chunk` does not end inside a multi-byte UTF-8 sequence. */
function endsOnCharBoundary(chunk: Uint8Array): boolean {
  const length = chunk.length;
  // Walk back over continuation bytes (10xxxxxx) to the lead byte of the last sequence.
  for (let back = 1; back <= 4 && back <= length; back++) {
    const byte = chunk[length - back] as number;
    if (byte < 0x80) return true;
    if (byte >= 0xc0) {
      const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2;
      return back >= needed;
    }
  }
  // Only continuation bytes: invalid whatever follows; decode it as it stands.
  return true;
}

/**
 * Decodes a UTF-8 byte stream chunk by chunk. A `TextDecoder` per stream costs more to set up (its
 * converter is built on first use) than decoding a small SSE reply, so chunks that end on a character
 * boundary go through one shared decoder, and a stream gets its own only once a chunk splits a
 * character. A BOM is dropped at the start of the stream only, as `TextDecoder` would.
 */
export class Utf8Decoder {
  #own: TextDecoder | undefined;
  #atStart = true;

  decode(chunk: Uint8Array): string {
    let text: string;
    if (this.#own === undefined && endsOnCharBoundary(chunk)) text = SHARED.decode(chunk);
    else {
      this.#own ??= new TextDecoder('utf-8', { ignoreBOM: true });
      text = this.#own.decode(chunk, { stream: true });
    }
    return this.#trimBom(text);
  }

  /** Whatever an unfinished character at the very end decodes to (U+FFFD), or ''. */
  end(): string {
    return this.#own === undefined ? '' : this.#trimBom(this.#own.decode());
  }

  #trimBom(text: string): string {
    if (!this.#atStart || text === '') return text;
    this.#atStart = false;
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  }
}
