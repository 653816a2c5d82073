interface ShareText {
  title: string;
  name: string;
  code: string;
  hint: string;
}

/** The invitation poster that "save image" downloads: title, name, the QR code, the code. */
export function composeShareImage(qr: HTMLCanvasElement, text: ShareText): Promise<Blob> {
  const width = 720;
  const height = 960;
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d');
  if (!context) return Promise.reject(new Error('canvas unavailable'));
  const font = "system-ui, -apple-system, 'PingFang SC', 'Noto Sans CJK SC', sans-serif";
  context.fillStyle = '#315aff';
  context.fillRect(0, 0, width, height);
  context.fillStyle = '#ffffff';
  context.beginPath();
  context.roundRect(60, 150, width - 120, 720, 24);
  context.fill();
  context.textAlign = 'center';
  context.fillStyle = '#ffffff';
  context.font = `bold 44px ${font}`;
  context.fillText(text.title, width / 2, 100, width - 80);
  context.fillStyle = '#1a1a1a';
  context.font = `600 34px ${font}`;
  context.fillText(text.name, width / 2, 220, width - 160);
  const size = 440;
  context.imageSmoothingEnabled = false;
  context.drawImage(qr, (width - size) / 2, 260, size, size);
  context.font = `bold 32px ${font}`;
  context.fillText(text.code, width / 2, 760, width - 160);
  context.fillStyle = '#6b7280';
  context.font = `26px ${font}`;
  context.fillText(text.hint, width / 2, 816, width - 160);
  return new Promise((resolve, reject) => {
    canvas.toBlob((blob) => {
      if (blob) resolve(blob);
      else reject(new Error('encoding failed'));
    }, 'image/png');
  });
}
