import { describe, expect, it } from 'vitest';
import { McpServer } from '../src/index.js';
import { connect, initialize } from './helpers.js';

// Issue #25 item 5: the handles of registerTool/registerPrompt/registerResource are one class (the
// resource handle adds notifyUpdated), so the same script behaves the same on all three.

async function names(
  wire: Awaited<ReturnType<typeof connect>>,
  method: string,
  key: string,
): Promise<string[]> {
  const result = (await wire.call(method)) as Record<string, Array<{ name: string }>>;
  return result[key]!.map((item) => item.name);
}

describe('registry handles', () => {
  it('rename, disable, enable and remove the same way for tools, prompts and resources', async () => {
    const server = new McpServer({ name: 's', version: '1' });
    const handles = {
      tools: server.registerTool('t', {}, () => ({ content: [] })),
      prompts: server.registerPrompt('p', {}, () => ({ messages: [] })),
      resources: server.registerResource('r', 'test://r', {}, (uri) => ({ contents: [{ uri, text: '' }] })),
    };
    const toolProto = Object.getPrototypeOf(handles.tools);
    expect(Object.getPrototypeOf(handles.prompts)).toBe(toolProto);
    expect(Object.getPrototypeOf(Object.getPrototypeOf(handles.resources))).toBe(toolProto);
    const wire = await connect(server);
    await initialize(wire);
    const lists = { tools: 'tools/list', prompts: 'prompts/list', resources: 'resources/list' } as const;
    for (const [key, handle] of Object.entries(handles) as Array<
      [keyof typeof lists, (typeof handles)[keyof typeof handles]]
    >) {
      const method = lists[key];
      handle.update({ name: `${handle.name}2` });
      expect(handle.name).toMatch(/2$/);
      expect(await names(wire, method, key)).toEqual([handle.name]);
      handle.disable();
      expect(handle.enabled).toBe(false);
      expect(await names(wire, method, key)).toEqual([]);
      handle.enable();
      expect(handle.enabled).toBe(true);
      expect(await names(wire, method, key)).toEqual([handle.name]);
      handle.remove();
      expect(await names(wire, method, key)).toEqual([]);
    }
    expect(() => handles.resources.notifyUpdated()).not.toThrow();
  });
});
