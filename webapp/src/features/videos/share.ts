import { FIND_PATHS } from '../../navigation/paths';

/** What the share-image page draws: the product asks this: it is opened with a json query. */
export interface ShareImageSpec {
  title: string;
  text?: string;
  /** Picture at the top of the card (same origin, so the canvas can be saved). */
  image?: string;
  /** The link the card's QR code opens. */
  url: string;
}

export function shareImagePath(spec: ShareImageSpec): string {
  return `${FIND_PATHS.shareImage}?${new URLSearchParams({ json: JSON.stringify(spec) }).toString()}`;
}

/** The json query read back; anything malformed is null (the page shows an error). */
export function parseShareSpec(json: string | null): ShareImageSpec | null {
  if (!json) return null;
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  if (typeof v.url !== 'string' || !/^https?:\/\//i.test(v.url)) return null;
  const spec: ShareImageSpec = { title: typeof v.title === 'string' ? v.title.slice(0, 100) : '', url: v.url };
  if (typeof v.text === 'string') spec.text = v.text.slice(0, 200);
  if (typeof v.image === 'string' && (v.image.startsWith('/') || /^https?:\/\//i.test(v.image))) spec.image = v.image;
  return spec;
}
