// Checks for the formats MCP tool schemas commonly use, written to the RFCs that 2020-12
// Validation §7.3 cites. Only consulted when `assertFormats` is on.

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:z|([+-])(\d{2}):(\d{2}))$/i;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const EMAIL =
  /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;
// RFC 3986 §3: an absolute URI is a scheme, ":", and only unreserved, reserved or %-encoded octets.
const URI = /^[a-z][a-z0-9+.-]*:(?:[a-z0-9\-._~!$&'()*+,;=:@/?#[\]]|%[0-9a-f]{2})*$/i;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const HEX_GROUP = /^[0-9a-f]{1,4}$/i;

/** RFC 3339 full-date, including the month's real length and leap years. */
function isDate(text: string): boolean {
  const match = DATE.exec(text);
  if (match === null) return false;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]!);
}

/** RFC 3339 full-time: the offset is required; second 60 is allowed for leap seconds. */
function isTime(text: string): boolean {
  const match = TIME.exec(text);
  if (match === null) return false;
  const [hour, minute, second] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (hour > 23 || minute > 59 || second > 60) return false;
  if (match[4] !== undefined && (Number(match[5]) > 23 || Number(match[6]) > 59)) return false;
  return true;
}

function isDateTime(text: string): boolean {
  const t = text.search(/t/i);
  return t !== -1 && isDate(text.slice(0, t)) && isTime(text.slice(t + 1));
}

/** RFC 4291 §2.2 text forms, including `::` compression and a trailing dotted IPv4. */
function isIpv6(text: string): boolean {
  const halves = text.split('::');
  if (halves.length > 2) return false;
  const groups = halves.map((half) => (half === '' ? [] : half.split(':')));
  const all = groups.flat();
  let count = all.length;
  const last = all[all.length - 1];
  if (last?.includes('.')) {
    if (!IPV4.test(last)) return false;
    all.pop();
    count += 1;
  }
  if (!all.every((group) => HEX_GROUP.test(group))) return false;
  return halves.length === 2 ? count <= 7 : count === 8;
}

export const FORMAT_CHECKS: ReadonlyMap<string, (text: string) => boolean> = new Map([
  ['date-time', isDateTime],
  ['date', isDate],
  ['time', isTime],
  ['email', (text: string) => EMAIL.test(text)],
  ['uri', (text: string) => URI.test(text)],
  ['uuid', (text: string) => UUID.test(text)],
  ['ipv4', (text: string) => IPV4.test(text)],
  ['ipv6', isIpv6],
]);
