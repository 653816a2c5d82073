import { describe, expect, it, vi } from 'vitest';
import { createServerClock, timed } from './serverClock';

function fakeTime(start = 1_000) {
  let now = start;
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe('serverClock', () => {
  it('uses the device clock until the first sample', () => {
    const local = fakeTime();
    const clock = createServerClock(local.now, () => 5_000_000);
    expect(clock.now()).toBe(5_000_000);
  });

  it('takes the midpoint of the request, so a wrong device clock does not matter', () => {
    const local = fakeTime(10_000);
    const clock = createServerClock(local.now, () => 0);
    // The server is an hour "ahead" of the device; the reply took 200 ms.
    clock.sample(3_600_000 + 10_100, 10_000, 10_200);
    expect(clock.offset()).toBe(3_600_000);
    local.advance(5_000);
    expect(clock.now()).toBe(3_600_000 + 15_000);
  });

  it('keeps the sample with the shortest round trip', () => {
    const local = fakeTime(0);
    const clock = createServerClock(local.now, () => 0);
    clock.sample(1_000 + 50, 0, 100); // ±50 ms, offset 1000
    clock.sample(1_500 + 400, 0, 800); // ±400 ms, offset 1500: worse, and within the combined error
    expect(clock.offset()).toBe(1_000);
    clock.sample(1_020 + 10, 0, 20); // ±10 ms
    expect(clock.offset()).toBe(1_020);
  });

  it('takes a sample that differs by more than the errors allow (the server clock moved)', () => {
    const local = fakeTime(0);
    const clock = createServerClock(local.now, () => 0);
    clock.sample(10 + 5_000, 0, 20);
    clock.sample(400 + 60_000, 0, 800);
    expect(clock.offset()).toBe(60_000);
  });

  it('lets a sample expire after a minute', () => {
    const local = fakeTime(0);
    const clock = createServerClock(local.now, () => 0);
    clock.sample(5 + 1_000, 0, 10);
    local.advance(61_000);
    clock.sample(61_000 + 300 + 1_200, 61_000, 61_600); // ±300 ms but the old one is stale
    expect(clock.offset()).toBe(1_200);
  });

  it('counts pushes from their receipt and ignores bad server times', () => {
    const local = fakeTime(100);
    const clock = createServerClock(local.now, () => 0);
    clock.samplePush(9_100, 100);
    expect(clock.offset()).toBe(9_000);
    clock.sample(Number.NaN, 0, 10);
    clock.sample(0, 0, 10);
    expect(clock.offset()).toBe(9_000);
  });

  it('notifies subscribers when the estimate changes', () => {
    const local = fakeTime(0);
    const clock = createServerClock(local.now, () => 0);
    const listener = vi.fn();
    const off = clock.subscribe(listener);
    clock.sample(1_000, 0, 0);
    expect(listener).toHaveBeenCalledTimes(1);
    off();
    clock.sample(2_000 + 0, 0, 0);
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('timed() samples the answer it passes through', async () => {
    const local = fakeTime(0);
    const clock = createServerClock(local.now, () => 0);
    const data = await timed(
      () => {
        local.advance(100);
        return Promise.resolve({ serverTime: 50_050, value: 1 });
      },
      clock,
      local.now,
    );
    expect(data.value).toBe(1);
    expect(clock.offset()).toBe(50_000);
  });
});
