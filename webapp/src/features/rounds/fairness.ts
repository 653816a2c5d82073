/**
 * Recomputes a round's draw in the browser (docs/ROUNDS.md "Provably fair draws"):
 * seedHash = hex(SHA-256(seed bytes)); h = HMAC-SHA256(key = seed bytes, message = issue as
 * ASCII); digit_i = floor(u_i × 10) with u_i = big-endian uint32(h[4i..4i+4]) / 2^32, computed
 * exactly as (x × 10) >> 32; sum decides BIG (14-27) / SMALL (0-13) and SINGLE (odd) / DOUBLE.
 * A round decided by a public beacon takes the HMAC of issue:betsHash:beaconRound:beaconValue
 * instead of the issue alone, and its bet list hashes to betsHash (see verifyBetList).
 */
import type { BetContent, RoundBetList, RoundResult } from '../../api/rounds';

export interface Verification {
  /** SHA-256 of the revealed seed, hex. */
  computedHash: string;
  hashMatches: boolean;
  /** The HMAC's message: the issue, or issue:betsHash:beaconRound:beaconValue with a beacon. */
  message: string;
  /** HMAC-SHA256(seed, message), hex. */
  hmac: string;
  /** The first three big-endian uint32 words of the HMAC, as used for the digits. */
  words: [number, number, number];
  digits: [number, number, number];
  sum: number;
  outcome: [BetContent, BetContent];
  digitsMatch: boolean;
  /** Both checks passed: the seed was committed before betting and draws these digits. */
  verified: boolean;
}

export class VerificationUnavailableError extends Error {
  constructor() {
    super('Web Crypto is not available (the page needs HTTPS)');
    this.name = 'VerificationUnavailableError';
  }
}

export function hexToBytes(hex: string): Uint8Array<ArrayBuffer> | null {
  const clean = hex.trim().toLowerCase();
  if (clean.length === 0 || clean.length % 2 !== 0 || !/^[0-9a-f]+$/.test(clean)) return null;
  const out = new Uint8Array(clean.length / 2);
  for (let i = 0; i < out.length; i += 1) out[i] = parseInt(clean.slice(2 * i, 2 * i + 2), 16);
  return out;
}

export function bytesToHex(bytes: ArrayBuffer | Uint8Array): string {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  return Array.from(view, (b) => b.toString(16).padStart(2, '0')).join('');
}

export function outcomeOf(sum: number): [BetContent, BetContent] {
  return [sum >= 14 ? 'BIG' : 'SMALL', sum % 2 === 1 ? 'SINGLE' : 'DOUBLE'];
}

/** digit = floor(x / 2^32 × 10), exactly: (x × 10) >> 32 on integers. */
export function digitOf(word: number): number {
  return Number((BigInt(word) * 10n) >> 32n);
}

/** Web Crypto, which browsers only offer on secure pages (HTTPS or localhost). */
export function webCrypto(): SubtleCrypto | undefined {
  const scope = globalThis as { crypto?: { subtle?: SubtleCrypto } };
  return scope.crypto?.subtle;
}

/** The HMAC's message (docs/ROUNDS.md): the issue alone without a beacon. */
export function drawMessage(
  result: Pick<RoundResult, 'issue' | 'betsHash' | 'beaconRound' | 'beaconValue'>,
): string {
  if (!result.beaconRound) return result.issue;
  return `${result.issue}:${result.betsHash ?? ''}:${result.beaconRound}:${(result.beaconValue ?? '').toLowerCase()}`;
}

export interface BetListCheck {
  count: number;
  /** SHA-256 of the list's lines "<noteNo>:<content>:<amount>\n", hex. */
  computedHash: string;
  matches: boolean;
}

/** Recomputes a round's bet-list commitment from its published list. */
export async function verifyBetList(
  list: RoundBetList,
  subtle: SubtleCrypto | undefined = webCrypto(),
): Promise<BetListCheck> {
  if (!subtle) throw new VerificationUnavailableError();
  const text = list.bets.map((b) => `${b.noteNo}:${b.content}:${b.amount}\n`).join('');
  const computedHash = bytesToHex(await subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return { count: list.bets.length, computedHash, matches: computedHash === list.betsHash.trim().toLowerCase() };
}

export async function verifyRound(
  result: Pick<RoundResult, 'issue' | 'digits' | 'seedHash' | 'serverSeed' | 'betsHash' | 'beaconRound' | 'beaconValue'>,
  subtle: SubtleCrypto | undefined = webCrypto(),
): Promise<Verification> {
  if (!subtle) throw new VerificationUnavailableError();
  const seed = hexToBytes(result.serverSeed);
  if (!seed) throw new Error('the revealed seed is not hex');
  const hash = bytesToHex(await subtle.digest('SHA-256', seed));
  const key = await subtle.importKey('raw', seed, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const message = drawMessage(result);
  const mac = await subtle.sign('HMAC', key, new TextEncoder().encode(message));
  const view = new DataView(mac);
  const words: [number, number, number] = [view.getUint32(0), view.getUint32(4), view.getUint32(8)];
  const digits: [number, number, number] = [digitOf(words[0]), digitOf(words[1]), digitOf(words[2])];
  const sum = digits[0] + digits[1] + digits[2];
  const hashMatches = hash === result.seedHash.trim().toLowerCase();
  const digitsMatch = digits.every((d, i) => d === result.digits[i]);
  return {
    computedHash: hash,
    hashMatches,
    message,
    hmac: bytesToHex(mac),
    words,
    digits,
    sum,
    outcome: outcomeOf(sum),
    digitsMatch,
    verified: hashMatches && digitsMatch,
  };
}
