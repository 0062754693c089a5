import type { Readable } from 'node:stream';

/** Newline-delimited JSON from a byte stream, the way a minimal stdio peer reads it. */
export function readJsonLines(stream: Readable, handle: (message: unknown) => void): void {
  let buffered = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    let start = 0;
    let newline = chunk.indexOf('\n');
    while (newline >= 0) {
      const line = buffered + chunk.slice(start, newline);
      buffered = '';
      if (line.length > 0) handle(JSON.parse(line));
      start = newline + 1;
      newline = chunk.indexOf('\n', start);
    }
    buffered += chunk.slice(start);
  });
}
