/** A WAL position ("16/B374D848") as a number of bytes, for comparing and subtracting. */
export function lsnToBigInt(lsn: string): bigint {
  const match = /^([0-9A-F]{1,8})\/([0-9A-F]{1,8})$/i.exec(lsn);
  if (!match) throw new Error(`not an LSN: ${lsn}`);
  return (BigInt(`0x${match[1]}`) << 32n) | BigInt(`0x${match[2]}`);
}

export function bigIntToLsn(value: bigint): string {
  return `${(value >> 32n).toString(16).toUpperCase()}/${(value & 0xffffffffn).toString(16).toUpperCase()}`;
}

/** True when a is at or before b. */
export function lsnAtOrBefore(a: string, b: string): boolean {
  return lsnToBigInt(a) <= lsnToBigInt(b);
}
