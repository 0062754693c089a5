import type { LoggingMessageNotificationParams } from '@x/protocol';
import type { Style } from './style.js';
import { sanitize } from './sanitize.js';

/**
 * A server log message on one line: `[info] logger: text` (non-string data as compact JSON), colored by
 * severity.
 */
export function formatLog(params: LoggingMessageNotificationParams, style: Style): string {
  const data = typeof params.data === 'string' ? params.data : JSON.stringify(params.data);
  const level = `[${params.level}]`;
  const severe = ['error', 'critical', 'alert', 'emergency'].includes(params.level);
  const tag = severe ? style.red(level) : params.level === 'warning' ? style.yellow(level) : style.dim(level);
  return sanitize(`${params.logger === undefined ? '' : `${params.logger}: `}${data}`).replace(
    /^/,
    `${tag} `,
  );
}
