import jsQR from 'jsqr';

/**
 * Reads a QR code from a picture. Chromium on Android and macOS ships the BarcodeDetector
 * API (hardware-backed, fast); where it is missing (Firefox, Chromium on Linux and Windows,
 * Safari) the pixels go to jsQR, a dependency-free decoder.
 */
interface DetectedBarcode {
  rawValue: string;
}
interface BarcodeDetectorLike {
  detect(source: CanvasImageSource | ImageBitmapSource): Promise<DetectedBarcode[]>;
}
interface BarcodeDetectorClass {
  new (options: { formats: string[] }): BarcodeDetectorLike;
  getSupportedFormats(): Promise<string[]>;
}

let detector: Promise<BarcodeDetectorLike | null> | null = null;

function nativeDetector(): Promise<BarcodeDetectorLike | null> {
  detector ??= (async () => {
    const Detector = (window as unknown as { BarcodeDetector?: BarcodeDetectorClass }).BarcodeDetector;
    if (!Detector) return null;
    try {
      const formats = await Detector.getSupportedFormats();
      return formats.includes('qr_code') ? new Detector({ formats: ['qr_code'] }) : null;
    } catch {
      return null;
    }
  })();
  return detector;
}

/** Decodes pixels with jsQR; null when no code is found. */
export function decodePixels(data: Uint8ClampedArray, width: number, height: number): string | null {
  const code = jsQR(data, width, height, { inversionAttempts: 'attemptBoth' });
  return code?.data ?? null;
}

const canvas = typeof document === 'undefined' ? null : document.createElement('canvas');

/** Decodes the picture currently shown by a video, an image or a bitmap of `width` x `height`. */
export async function decodeFrame(source: CanvasImageSource, width: number, height: number): Promise<string | null> {
  const native = await nativeDetector();
  if (native) {
    try {
      const found = await native.detect(source);
      return found[0]?.rawValue ?? null;
    } catch {
      // fall back to jsQR below
    }
  }
  if (!canvas || width === 0 || height === 0) return null;
  // Large photos are scaled down: QR codes stay readable and jsQR stays fast.
  const scale = Math.min(1, 1024 / Math.max(width, height));
  canvas.width = Math.round(width * scale);
  canvas.height = Math.round(height * scale);
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  if (!ctx) return null;
  ctx.drawImage(source, 0, 0, canvas.width, canvas.height);
  const image = ctx.getImageData(0, 0, canvas.width, canvas.height);
  return decodePixels(image.data, image.width, image.height);
}

/** Decodes a picture file (a QR code saved to the album). */
export async function decodeFile(file: Blob): Promise<string | null> {
  const bitmap = await createImageBitmap(file);
  try {
    return await decodeFrame(bitmap, bitmap.width, bitmap.height);
  } finally {
    bitmap.close();
  }
}

/** Where a scanned text leads in the app: a profile link or another app page, else null. */
export function appPathOf(text: string, origin: string = window.location.origin): string | null {
  let url: URL;
  try {
    url = new URL(text.trim(), origin);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.pathname === '/pages/chat/user-info' && url.searchParams.get('userID')) {
    return `${url.pathname}${url.search}`;
  }
  // Another page of this app (an invite link, for instance); never a foreign site.
  if (url.origin === origin && url.pathname.startsWith('/pages/')) return `${url.pathname}${url.search}`;
  return null;
}
