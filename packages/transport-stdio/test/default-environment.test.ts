import { describe, expect, it } from 'vitest';
import { getDefaultEnvironment } from '../src/index.js';

describe('getDefaultEnvironment', () => {
  it('copies only the POSIX safe list, skipping exported shell functions', () => {
    const env = getDefaultEnvironment({
      platform: 'linux',
      source: {
        PATH: '/usr/bin',
        HOME: '/home/me',
        AWS_SECRET_ACCESS_KEY: 'secret',
        SHELL: '() { :; }; evil',
      },
    });
    expect(env).toEqual({ PATH: '/usr/bin', HOME: '/home/me' });
  });

  it('uses the Windows list and matches names case-insensitively there', () => {
    const env = getDefaultEnvironment({
      platform: 'win32',
      source: { Path: 'C:\\Windows', SystemRoot: 'C:\\Windows', USERPROFILE: 'C:\\Users\\me', HOME: '/x' },
    });
    expect(env).toEqual({ PATH: 'C:\\Windows', SYSTEMROOT: 'C:\\Windows', USERPROFILE: 'C:\\Users\\me' });
  });
});
