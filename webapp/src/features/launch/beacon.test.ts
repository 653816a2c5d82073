import { describe, expect, it } from 'vitest';
import { memoryStore } from '../../test/memoryStore';
import { BEACONS_PER_MINUTE, takeBeacon } from './beacon';

describe('beacon allowance', () => {
  it('lets a browser send at most its allowance a minute, then again once a minute passed', () => {
    const store = memoryStore();
    const start = 1_000_000;
    for (let i = 0; i < BEACONS_PER_MINUTE; i += 1) expect(takeBeacon(store, start + i)).toBe(true);
    expect(takeBeacon(store, start + 1_000)).toBe(false);
    expect(takeBeacon(store, start + 60_001)).toBe(true);
  });

  it('starts afresh from a damaged record', () => {
    const store = memoryStore();
    store.set('beaconTimes', 'not json');
    expect(takeBeacon(store, 5)).toBe(true);
  });
});
