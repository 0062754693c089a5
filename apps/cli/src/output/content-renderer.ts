import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sanitize } from './sanitize.js';
import type { Style } from './style.js';

type Block = Readonly<Record<string, unknown>>;

const EXTENSIONS: Readonly<Record<string, string>> = {
  'image/jpeg': 'jpg',
  'image/svg+xml': 'svg',
  'audio/mpeg': 'mp3',
  'audio/x-wav': 'wav',
  'text/plain': 'txt',
  'application/octet-stream': 'bin',
};

function extensionOf(mimeType: string | undefined): string {
  if (mimeType === undefined) return 'bin';
  const known = EXTENSIONS[mimeType];
  if (known !== undefined) return known;
  const subtype = mimeType
    .split('/')[1]
    ?.split(/[;+]/)[0]
    ?.replace(/[^a-z0-9]/gi, '');
  return subtype === undefined || subtype === '' ? 'bin' : subtype.toLowerCase();
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

export interface ContentRendererOptions {
  readonly style: Style;
  /** Save binary content here (`--out`); without it, binary content is shown as type and size. */
  readonly outDir?: string | undefined;
  /** Start of saved file names, e.g. the tool name. */
  readonly namePrefix: string;
  /**
   * Strip control characters from text content too (do it for a terminal; into a file or a pipe the
   * text goes byte for byte). URIs and names are always stripped.
   */
  readonly sanitizeText?: boolean | undefined;
}

/**
 * Renders MCP content for a person: text as is, images/audio/blobs as `[image image/png, 69 bytes]`
 * (or saved under `--out` with the path shown), embedded resources and links with their URI.
 *
 * @example
 * ```ts
 * const renderer = new ContentRenderer({ style, outDir: 'out', namePrefix: 'screenshot' });
 * for (const block of result.content) terminal.out(await renderer.render(block));
 * ```
 */
export class ContentRenderer {
  readonly #options: ContentRendererOptions;
  #saved = 0;

  constructor(options: ContentRendererOptions) {
    this.#options = options;
  }

  async render(block: Block): Promise<string> {
    const { style } = this.#options;
    switch (block['type']) {
      case 'text':
        return this.#text(str(block['text']) ?? '');
      case 'image':
      case 'audio':
        return this.#binary(String(block['type']), str(block['data']) ?? '', str(block['mimeType']));
      case 'resource':
        return this.resource((block['resource'] ?? {}) as Block);
      case 'resource_link': {
        const name = str(block['name']);
        const mime = str(block['mimeType']);
        return style.cyan(
          sanitize(
            `[link ${str(block['uri']) ?? ''}${name === undefined ? '' : ` "${name}"`}${mime === undefined ? '' : ` ${mime}`}]`,
          ),
        );
      }
      default:
        return style.dim(JSON.stringify(block));
    }
  }

  /** One entry of `contents` (a read resource or an embedded one): a URI heading, then text or blob. */
  async resource(contents: Block): Promise<string> {
    const { style } = this.#options;
    const uri = str(contents['uri']) ?? '';
    const mime = str(contents['mimeType']);
    const heading = style.cyan(sanitize(`[resource ${uri}${mime === undefined ? '' : ` ${mime}`}]`));
    const text = str(contents['text']);
    if (text !== undefined) return `${heading}\n${this.#text(text)}`;
    return `${heading}\n${await this.#binary('blob', str(contents['blob']) ?? '', mime, uri)}`;
  }

  #text(text: string): string {
    return this.#options.sanitizeText === true ? sanitize(text) : text;
  }

  async #binary(kind: string, base64: string, mimeType: string | undefined, uri?: string): Promise<string> {
    const { style, outDir, namePrefix } = this.#options;
    const bytes = Buffer.from(base64, 'base64');
    const what = sanitize(
      `${kind}${mimeType === undefined ? '' : ` ${mimeType}`}, ${formatBytes(bytes.length)}`,
    );
    if (outDir === undefined) return style.dim(`[${what}]`);
    await mkdir(outDir, { recursive: true });
    const fromUri = uri
      ?.split(/[/\\]/)
      .at(-1)
      ?.replace(/[^\w.-]/g, '_');
    const name =
      fromUri !== undefined && fromUri !== '' && /\.\w+$/.test(fromUri)
        ? fromUri
        : `${namePrefix.replace(/[^\w.-]/g, '_')}-${++this.#saved}.${extensionOf(mimeType)}`;
    const path = join(outDir, name);
    await writeFile(path, bytes);
    return style.dim(`[${what} → ${path}]`);
  }
}
