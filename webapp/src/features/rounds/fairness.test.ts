import { describe, expect, it } from 'vitest';
import {
  bytesToHex,
  digitOf,
  drawMessage,
  hexToBytes,
  outcomeOf,
  VerificationUnavailableError,
  verifyBetList,
  verifyRound,
} from './fairness';

// docs/ROUNDS.md's worked example (checked against the Go draw by TestDocumentedWorkedExample).
const example = {
  issue: '20260301000100001',
  serverSeed: 'b5c2ff18248a578045a421a656ba258b7483aab06777a99e953ff493a776f6bf',
  seedHash: '68b955100a539f1f3b318ed85a4e757d5c133a1f9510847e645e5c0f3444d38d',
  digits: [1, 2, 4] as [number, number, number],
};

describe('verifyRound', () => {
  it('recomputes the documented worked example exactly', async () => {
    const v = await verifyRound(example);
    expect(v.computedHash).toBe(example.seedHash);
    expect(v.hmac).toBe('2bc557e24136e55f71ace4a42338ca9e3f9eedcbad718ca831fde288d9826aba');
    expect(v.words).toEqual([0x2bc557e2, 0x4136e55f, 0x71ace4a4]);
    expect(v.digits).toEqual([1, 2, 4]);
    expect(v.sum).toBe(7);
    expect(v.outcome).toEqual(['SMALL', 'SINGLE']);
    expect(v.verified).toBe(true);
  });

  it('accepts the published hash in upper case', async () => {
    const v = await verifyRound({ ...example, seedHash: example.seedHash.toUpperCase() });
    expect(v.hashMatches).toBe(true);
  });

  it('catches a seed that does not match the published hash', async () => {
    const v = await verifyRound({ ...example, seedHash: `${'0'.repeat(63)}1` });
    expect(v.hashMatches).toBe(false);
    expect(v.digitsMatch).toBe(true);
    expect(v.verified).toBe(false);
  });

  it('catches digits the seed does not draw', async () => {
    const v = await verifyRound({ ...example, digits: [1, 2, 5] });
    expect(v.digitsMatch).toBe(false);
    expect(v.verified).toBe(false);
  });

  it('depends on the issue number', async () => {
    const v = await verifyRound({ ...example, issue: '20260301000100002' });
    expect(v.hashMatches).toBe(true);
    expect(v.hmac).not.toBe('2bc557e24136e55f71ace4a42338ca9e3f9eedcbad718ca831fde288d9826aba');
  });

  it('refuses a seed that is not hex, and says when Web Crypto is missing', async () => {
    await expect(verifyRound({ ...example, serverSeed: 'xyz' })).rejects.toThrow('not hex');
    await expect(verifyRound(example, undefined as unknown as SubtleCrypto)).resolves.toBeDefined();
    const noCrypto = verifyRound(example, null as unknown as SubtleCrypto);
    await expect(noCrypto).rejects.toBeInstanceOf(VerificationUnavailableError);
  });
});

// docs/ROUNDS.md's beacon worked example (checked against the Go draw by TestDocumentedBeaconExample).
const beaconExample = {
  ...example,
  betsHash: '9c2b35850b228d98146c69876c23c00d2d7132d49ce6ca0b8e419d407bd3af90',
  beaconRound: 1222,
  beaconValue: '4dbdc2b2b62cb00749785bc84202236dbc3777d74660611b8e58812f0cfde6c3',
  digits: [0, 1, 1] as [number, number, number],
};
const exampleBets = {
  windowId: 1,
  issue: example.issue,
  betsHash: beaconExample.betsHash,
  bets: [
    { noteNo: '101', content: 'BIG' as const, amount: 500 },
    { noteNo: '102', content: 'SMALL' as const, amount: 100 },
    { noteNo: '103', content: 'SINGLE' as const, amount: 2500 },
  ],
};

describe('a round decided by a beacon', () => {
  it('recomputes the documented beacon example exactly', async () => {
    const v = await verifyRound(beaconExample);
    expect(v.message).toBe(`${example.issue}:${beaconExample.betsHash}:1222:${beaconExample.beaconValue}`);
    expect(v.hmac).toBe('0c0418e822bbe60021fc8ac083534bad6a76223a97e6a2d98e26c1b8967763e8');
    expect(v.digits).toEqual([0, 1, 1]);
    expect(v.verified).toBe(true);
  });

  it('depends on the bet list and the beacon value', async () => {
    const dropped = await verifyRound({ ...beaconExample, betsHash: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855' });
    expect(dropped.hmac).not.toBe('0c0418e822bbe60021fc8ac083534bad6a76223a97e6a2d98e26c1b8967763e8');
    const otherValue = await verifyRound({ ...beaconExample, beaconValue: '00'.repeat(32) });
    expect(otherValue.hmac).not.toBe(dropped.hmac);
    expect(drawMessage({ issue: 'x', beaconRound: 0, betsHash: 'h', beaconValue: 'v' })).toBe('x');
  });

  it('checks the published bet list against its committed hash', async () => {
    await expect(verifyBetList(exampleBets)).resolves.toMatchObject({ count: 3, matches: true });
    const dropped = await verifyBetList({ ...exampleBets, bets: exampleBets.bets.slice(1) });
    expect(dropped.matches).toBe(false);
    const added = await verifyBetList({ ...exampleBets, bets: [...exampleBets.bets, { noteNo: '104', content: 'BIG', amount: 1 }] });
    expect(added.matches).toBe(false);
  });
});

describe('draw helpers', () => {
  it('maps a 32-bit word to a digit without bias or floating point', () => {
    expect(digitOf(0)).toBe(0);
    expect(digitOf(0x19999999)).toBe(0); // just under 1/10
    expect(digitOf(0x1999999a)).toBe(1);
    expect(digitOf(0xffffffff)).toBe(9);
  });

  it('names the outcome of a sum', () => {
    expect(outcomeOf(0)).toEqual(['SMALL', 'DOUBLE']);
    expect(outcomeOf(13)).toEqual(['SMALL', 'SINGLE']);
    expect(outcomeOf(14)).toEqual(['BIG', 'DOUBLE']);
    expect(outcomeOf(27)).toEqual(['BIG', 'SINGLE']);
  });

  it('converts hex both ways and refuses odd or foreign input', () => {
    expect(bytesToHex(hexToBytes('00ff10')!)).toBe('00ff10');
    expect(hexToBytes('abc')).toBeNull();
    expect(hexToBytes('')).toBeNull();
    expect(hexToBytes('zz')).toBeNull();
  });
});
