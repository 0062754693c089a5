import { connect } from 'node:net';
import { onJsonLines, writeJsonLine } from './line-socket.js';
import { LoopDelayMonitor } from './loop-delay.js';
import { readProcessStats } from './process-stats.js';

/**
 * The server process's end of the side channel. Answers stats requests; when the cell goes away the
 * process exits, so no server outlives its cell even if nobody closes it.
 */
export async function connectControl(port: number): Promise<{ ready: (listenPort?: number) => void }> {
  const socket = connect({ port, host: '127.0.0.1' });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  socket.on('error', () => process.exit(0));
  socket.on('close', () => process.exit(0));
  const loop = new LoopDelayMonitor();
  onJsonLines(socket, (message) => {
    const typed = message as { type?: string; collect?: boolean };
    if (typed.type === 'loop-start') {
      loop.start();
      writeJsonLine(socket, { type: 'loop' });
    } else if (typed.type === 'loop-stop') {
      writeJsonLine(socket, { type: 'loop', ...loop.stop() });
    } else {
      writeJsonLine(socket, { type: 'stats', ...readProcessStats(typed.collect === true) });
    }
  });
  return {
    ready: (listenPort) =>
      writeJsonLine(
        socket,
        listenPort === undefined ? { type: 'ready' } : { type: 'ready', port: listenPort },
      ),
  };
}
