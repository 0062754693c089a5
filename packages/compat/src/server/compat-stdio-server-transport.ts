import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport as XStdioServerTransport } from '@x/transport-stdio';

/**
 * The official 1.x `StdioServerTransport(stdin?, stdout?)` on x-mcp's stdio transport. Differences:
 * while it runs on the process's own stdout, `console.log` prints to stderr (a stray log no longer
 * corrupts the protocol stream), and lines are bounded (`DEFAULT_MAX_LINE_BYTES` of x-mcp).
 *
 * @example
 * ```ts
 * await server.connect(new StdioServerTransport());
 * ```
 */
export class StdioServerTransport extends XStdioServerTransport {
  constructor(stdin?: Readable, stdout?: Writable) {
    super({ ...(stdin === undefined ? {} : { stdin }), ...(stdout === undefined ? {} : { stdout }) });
  }
}
