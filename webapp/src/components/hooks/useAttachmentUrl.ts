import { useEffect, useState } from 'react';
import { attachmentLinks, isChatAttachment, type AttachmentLinks } from '../../api/attachments';

/**
 * The address to show a stored media reference with: a chat attachment becomes the signed link
 * the server issues for this user (undefined while it is asked for or when refused, so nothing
 * loads unsigned); any other reference (blob:, data:, public files, http(s) images) is returned
 * as given. The link is renewed before it expires while the component stays mounted.
 */
export function useAttachmentUrl(ref: string | null | undefined, links: AttachmentLinks = attachmentLinks): string | undefined {
  const attachment = isChatAttachment(ref);
  const [resolved, setResolved] = useState<{ ref: string; link: string | null } | null>(() =>
    attachment && ref ? { ref, link: links.cached(ref) ?? null } : null,
  );
  useEffect(() => {
    if (!attachment || !ref) return undefined;
    let alive = true;
    let timer: number | undefined;
    const load = (): void => {
      void links.resolve(ref).then((link) => {
        if (!alive) return;
        setResolved({ ref, link });
        if (link) {
          // Ask again once the cache considers the link stale (a couple of minutes before it
          // expires; links live 5 to 10 minutes), never in a tight loop.
          timer = window.setTimeout(load, Math.max(30_000, links.renewIn(ref) + 1000));
        }
      });
    };
    load();
    return () => {
      alive = false;
      if (timer !== undefined) window.clearTimeout(timer);
    };
  }, [attachment, ref, links]);
  if (!attachment || !ref) return ref ?? undefined;
  return resolved !== null && resolved.ref === ref ? (resolved.link ?? undefined) : undefined;
}
