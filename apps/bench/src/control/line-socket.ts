import type { Socket } from 'node:net';

/** Newline-delimited JSON over a socket: the side channel between a cell and its server process. */
export function onJsonLines(socket: Socket, handle: (message: unknown) => void): void {
  let buffered = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    buffered += chunk;
    let newline = buffered.indexOf('\n');
    while (newline >= 0) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      if (line.length > 0) handle(JSON.parse(line));
      newline = buffered.indexOf('\n');
    }
  });
}

export function writeJsonLine(socket: Socket, message: unknown): void {
  socket.write(`${JSON.stringify(message)}\n`);
}
