import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { appPathOf, decodePixels } from './qr';

/** Draws a QR code of `text` as RGBA pixels, `scale` pixels per module. */
function pixels(text: string, scale = 4) {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const border = 2;
  const size = modules.size + border * 2;
  const width = size * scale;
  const rgba = new Uint8ClampedArray(width * width * 4).fill(255);
  for (let y = 0; y < modules.size; y += 1) {
    for (let x = 0; x < modules.size; x += 1) {
      if (!modules.get(x, y)) continue;
      for (let dy = 0; dy < scale; dy += 1) {
        for (let dx = 0; dx < scale; dx += 1) {
          const i = (((y + border) * scale + dy) * width + (x + border) * scale + dx) * 4;
          rgba[i] = rgba[i + 1] = rgba[i + 2] = 0;
        }
      }
    }
  }
  return { rgba, width };
}

describe('QR codes', () => {
  it('reads back the friend link the add-friend page shows (jsQR path)', () => {
    const link = 'https://kj.example/pages/chat/user-info?userID=382437764097900544';
    const { rgba, width } = pixels(link);
    expect(decodePixels(rgba, width, width)).toBe(link);
  });

  it('finds nothing in a blank picture', () => {
    const blank = new Uint8ClampedArray(100 * 100 * 4).fill(255);
    expect(decodePixels(blank, 100, 100)).toBeNull();
  });

  it('leads a scanned profile link or app page into the app, and nothing else', () => {
    const origin = 'https://kj.example';
    expect(appPathOf('https://other.example/pages/chat/user-info?userID=42', origin)).toBe('/pages/chat/user-info?userID=42');
    expect(appPathOf('https://kj.example/pages/auth/login?inviteCode=pro_x', origin)).toBe('/pages/auth/login?inviteCode=pro_x');
    expect(appPathOf('https://evil.example/pages/my/recharge', origin)).toBeNull();
    expect(appPathOf('javascript:alert(1)', origin)).toBeNull();
    expect(appPathOf('just some words', origin)).toBeNull();
  });
});
