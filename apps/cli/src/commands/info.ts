import { ExitCode } from '../exit-codes.js';
import { type ClientCommand, expectPositionals } from './client-command.js';
import { sanitize } from '../output/sanitize.js';

/** The names of the declared capabilities, with their flags: `resources (subscribe, listChanged)`. */
function describeCapabilities(capabilities: Readonly<Record<string, unknown>>): string {
  const parts = Object.entries(capabilities).map(([name, value]) => {
    const flags =
      typeof value === 'object' && value !== null
        ? Object.entries(value)
            .filter(([, v]) => v === true)
            .map(([k]) => k)
        : [];
    return flags.length === 0 ? name : `${name} (${flags.join(', ')})`;
  });
  return parts.length === 0 ? '(none)' : parts.join(', ');
}

/** `x-mcp info`: who the server is and what was negotiated. */
export const info: ClientCommand = (input) => {
  expectPositionals(input, { max: 0 });
  return async ({ session, terminal, options }) => {
    const { client } = session;
    const data = {
      serverInfo: client.serverInfo ?? null,
      era: client.era ?? null,
      protocolVersion: client.protocolVersion ?? null,
      transport: session.transport,
      capabilities: client.serverCapabilities ?? {},
      instructions: client.instructions ?? null,
    };
    if (options.json) {
      terminal.json(data);
      return ExitCode.Ok;
    }
    const { style } = terminal;
    const server = client.serverInfo;
    const title =
      server?.title !== undefined && server.title !== server.name ? sanitize(server.title) : undefined;
    const identity =
      server === undefined ? '(unknown)' : `${style.bold(sanitize(server.name))} ${sanitize(server.version)}`;
    const rows: Array<[string, string]> = [
      ['Server', title === undefined ? identity : `${style.bold(title)} (${identity})`],
      ['Era', `${data.era ?? '?'} (protocol ${data.protocolVersion ?? '?'})`],
      ['Transport', session.transport],
      ['Capabilities', describeCapabilities(data.capabilities)],
    ];
    for (const [label, value] of rows) terminal.out(`${style.bold(label.padEnd(13))}${value}`);
    if (data.instructions !== null && data.instructions !== '') {
      terminal.out(style.bold('Instructions'));
      terminal.out(sanitize(data.instructions).replace(/^/gm, '  '));
    }
    return ExitCode.Ok;
  };
};
