/**
 * The bytes every implementation exchanges, so raw and the SDKs move the same JSON-RPC messages.
 */
export const ECHO_TOOL = 'echo';
export const BIG_TOOL = 'big';
export const ECHO_TEXT = 'hello';
export const MIB = 1024 * 1024;

/** Length of the W3 tool's text. */
export const BIG_LENGTH = MIB;

let cachedBigText: string | undefined;

/** 1 MiB of ASCII text, built on first use (the tool returns the same string each time). */
export function bigText(): string {
  cachedBigText ??= 'x'.repeat(BIG_LENGTH);
  return cachedBigText;
}

/** The newest revision every compared SDK speaks by default (the official clients' default era). */
export const LEGACY_VERSION = '2025-11-25';

export const INITIALIZE_PARAMS = {
  protocolVersion: LEGACY_VERSION,
  capabilities: {},
  clientInfo: { name: 'bench-client', version: '1.0.0' },
} as const;

export const INITIALIZE_RESULT = {
  protocolVersion: LEGACY_VERSION,
  capabilities: { tools: { listChanged: true } },
  serverInfo: { name: 'bench-server', version: '1.0.0' },
} as const;

export const ECHO_RESULT = { content: [{ type: 'text', text: ECHO_TEXT }] } as const;

export function echoParams(): { name: string; arguments: { text: string } } {
  return { name: ECHO_TOOL, arguments: { text: ECHO_TEXT } };
}

export function bigParams(): { name: string; arguments: Record<string, never> } {
  return { name: BIG_TOOL, arguments: {} };
}
