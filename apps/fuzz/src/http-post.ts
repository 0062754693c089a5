/** What one POST came back with: the status and every JSON value in its body (JSON or SSE). */
export interface PostResult {
  status: number;
  contentType: string;
  values: unknown[];
  /** The body, when it could not be read as JSON or SSE. */
  unreadable: string | undefined;
  /** The `Mcp-Session-Id` response header. */
  sessionId: string | null;
}

/** The `data:` payloads of a finished `text/event-stream` body, one per event. */
export function sseData(body: string): string[] {
  const events: string[] = [];
  for (const block of body.split(/\r?\n\r?\n/)) {
    const data = block
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(line.startsWith('data: ') ? 6 : 5));
    if (data.length > 0) events.push(data.join('\n'));
  }
  return events;
}

/** POSTs `body` and reads the whole answer. */
export async function post(url: URL, headers: Record<string, string>, body: string): Promise<PostResult> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      ...headers,
    },
    body,
    signal: AbortSignal.timeout(30_000),
  });
  const contentType = response.headers.get('content-type') ?? '';
  const text = await response.text();
  const result: PostResult = {
    status: response.status,
    contentType,
    values: [],
    unreadable: undefined,
    sessionId: response.headers.get('mcp-session-id'),
  };
  if (text === '') return result;
  try {
    if (contentType.startsWith('text/event-stream')) {
      for (const data of sseData(text)) if (data.trim() !== '') result.values.push(JSON.parse(data));
    } else {
      const value: unknown = JSON.parse(text);
      if (Array.isArray(value)) result.values.push(...value);
      else result.values.push(value);
    }
  } catch {
    result.unreadable = text.slice(0, 300);
  }
  return result;
}
