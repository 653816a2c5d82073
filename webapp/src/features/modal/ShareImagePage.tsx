import '../../components/ui/ui.css';
import QRCode from 'qrcode';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { EmptyState } from '../../components/empty-state/EmptyState';
import { PageHeader } from '../../components/page-header/PageHeader';
import { showToast } from '../../state/toast';
import { parseShareSpec, type ShareImageSpec } from '../videos/share';
import styles from './modal.module.css';
import { useAppName } from '../launch/platform';

const WIDTH = 600;
const HEIGHT = 900;

function loadImage(src: string): Promise<HTMLImageElement | null> {
  return new Promise((resolve) => {
    const img = new Image();
    img.crossOrigin = 'anonymous';
    img.onload = () => {
      resolve(img);
    };
    img.onerror = () => {
      resolve(null);
    };
    img.src = src;
  });
}

function wrapLines(ctx: CanvasRenderingContext2D, text: string, maxWidth: number, maxLines: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const ch of text) {
    if (ctx.measureText(line + ch).width > maxWidth && line) {
      lines.push(line);
      line = ch;
      if (lines.length === maxLines) break;
    } else {
      line += ch;
    }
  }
  if (lines.length < maxLines && line) lines.push(line);
  return lines;
}

/** Draws the share card: picture, title, text, and a QR code of the link. */
async function drawCard(canvas: HTMLCanvasElement, spec: ShareImageSpec, appName: string, scanHint: string): Promise<void> {
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('no canvas');
  canvas.width = WIDTH;
  canvas.height = HEIGHT;
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, WIDTH, HEIGHT);
  const gradient = ctx.createLinearGradient(0, 0, WIDTH, 0);
  gradient.addColorStop(0, '#315aff');
  gradient.addColorStop(1, '#6a3dff');
  ctx.fillStyle = gradient;
  ctx.fillRect(0, 0, WIDTH, 80);
  ctx.fillStyle = '#ffffff';
  ctx.font = 'bold 32px system-ui, sans-serif';
  ctx.textBaseline = 'middle';
  ctx.fillText(appName, 32, 40);

  let y = 80;
  if (spec.image) {
    const img = await loadImage(spec.image);
    if (img) {
      const h = 320;
      const scale = Math.max(WIDTH / img.width, h / img.height);
      const sw = WIDTH / scale;
      const sh = h / scale;
      ctx.drawImage(img, (img.width - sw) / 2, (img.height - sh) / 2, sw, sh, 0, y, WIDTH, h);
      y += h;
    }
  }
  ctx.fillStyle = '#1a1a1a';
  ctx.textBaseline = 'top';
  ctx.font = 'bold 30px system-ui, sans-serif';
  y += 24;
  for (const line of wrapLines(ctx, spec.title, WIDTH - 64, 2)) {
    ctx.fillText(line, 32, y);
    y += 40;
  }
  if (spec.text) {
    ctx.fillStyle = '#6b7280';
    ctx.font = '22px system-ui, sans-serif';
    for (const line of wrapLines(ctx, spec.text, WIDTH - 64, 2)) {
      ctx.fillText(line, 32, y);
      y += 30;
    }
  }

  // The app's QR library (error correction M, as the share-QR page uses), drawn module by module.
  const { modules } = QRCode.create(spec.url, { errorCorrectionLevel: 'M' });
  const quiet = 4;
  const cell = Math.floor(220 / (modules.size + quiet * 2));
  const qrSize = cell * (modules.size + quiet * 2);
  const qx = (WIDTH - qrSize) / 2;
  const qy = HEIGHT - qrSize - 70;
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(qx, qy, qrSize, qrSize);
  ctx.fillStyle = '#000000';
  for (let my = 0; my < modules.size; my += 1) {
    for (let mx = 0; mx < modules.size; mx += 1) {
      if (modules.get(my, mx)) ctx.fillRect(qx + (mx + quiet) * cell, qy + (my + quiet) * cell, cell, cell);
    }
  }
  ctx.fillStyle = '#6b7280';
  ctx.font = '20px system-ui, sans-serif';
  ctx.textAlign = 'center';
  ctx.fillText(scanHint, WIDTH / 2, HEIGHT - 56);
  ctx.textAlign = 'start';
}

/** The share image (/pages/modal/share-image?json=...): a card to save or hand to the system share sheet. */
export function ShareImagePage() {
  const { t } = useTranslation();
  const appName = useAppName();
  const [params] = useSearchParams();
  const [spec] = useState(() => parseShareSpec(params.get('json')));
  const canvas = useRef<HTMLCanvasElement>(null);
  const [image, setImage] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const el = canvas.current;
    if (!spec || !el) return;
    let cancelled = false;
    drawCard(el, spec, appName, t('modal.share.scan'))
      .then(() => {
        if (cancelled) return;
        try {
          setImage(el.toDataURL('image/png'));
        } catch {
          // A picture from another origin taints the canvas: the card shows but cannot be saved.
          setImage(null);
        }
      })
      .catch(() => {
        if (!cancelled) setFailed(true);
      });
    return () => {
      cancelled = true;
    };
  }, [spec, t, appName]);

  const share = async (): Promise<void> => {
    const el = canvas.current;
    if (!image || !spec || !el) return;
    const blob = await new Promise<Blob | null>((resolve) => {
      el.toBlob(resolve, 'image/png');
    });
    const file = blob ? new File([blob], 'share.png', { type: 'image/png' }) : null;
    if (file && typeof navigator.canShare === 'function' && navigator.canShare({ files: [file] })) {
      try {
        await navigator.share({ files: [file], title: spec.title, url: spec.url });
      } catch {
        // closed by the user
      }
    } else if (typeof navigator.share === 'function') {
      await navigator.share({ title: spec.title, url: spec.url }).catch(() => undefined);
    } else {
      await navigator.clipboard.writeText(spec.url).then(
        () => {
          showToast(t('modal.share.copied'));
        },
        () => {
          showToast(t('modal.share.copyFailed'));
        },
      );
    }
  };

  return (
    <main className="page share-page">
      <PageHeader title={t('modal.share.title')} back />
      {spec && !failed ? (
        <>
          <canvas ref={canvas} className={styles['share-page__canvas']} role="img" aria-label={spec.title} data-ready={image !== null} />
          <div className={styles['share-page__actions']}>
            {image ? (
              <a className="button" href={image} download="share.png">
                {t('modal.share.save')}
              </a>
            ) : null}
            <button type="button" className="button button--secondary" onClick={() => void share()} disabled={!image}>
              {t('modal.share.share')}
            </button>
          </div>
        </>
      ) : (
        <EmptyState title={t('modal.share.invalid')} />
      )}
    </main>
  );
}
