/** Redis Cluster's slot count. */
const SLOTS = 16_384;
const ENCODER = new TextEncoder();

/**
 * The Redis Cluster slot of `key`: CRC16/XMODEM of its hash tag (the text between its first `{` and the
 * next `}`, when not empty) or of the whole key, mod 16 384. Package-internal.
 */
export function keySlot(key: string): number {
  const open = key.indexOf('{');
  const close = open === -1 ? -1 : key.indexOf('}', open + 1);
  const hashed = close > open + 1 ? key.slice(open + 1, close) : key;
  let crc = 0;
  for (const byte of ENCODER.encode(hashed)) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++)
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc % SLOTS;
}
