import * as kit from '@x/protocol/transport';
import { describe, expect, it } from 'vitest';
import * as stdio from '../src/index.js';

// Issue #36: the same limit has the same default on every transport (stdio's buffered bytes were 4 MiB).
describe('limit defaults', () => {
  it('are the shared constants of the transport kit', () => {
    expect(stdio.DEFAULT_MAX_BUFFERED_BYTES).toBe(kit.DEFAULT_MAX_BUFFERED_BYTES);
    expect(stdio.DEFAULT_MAX_BUFFERED_BYTES).toBe(8 * 1024 * 1024);
    expect(stdio.DEFAULT_MAX_QUEUED_BYTES).toBe(kit.DEFAULT_MAX_QUEUED_BYTES);
    expect(stdio.DEFAULT_SEND_STALL_TIMEOUT_MS).toBe(kit.DEFAULT_SEND_STALL_TIMEOUT_MS);
  });
});
