/**
 * Media messages: the file is uploaded (POST /chat/upload), then the server builds the
 * message from the upload's URL (Create*MessageByURL). Sizes and durations are read in the
 * browser first, so the bubble can be drawn at its final size.
 */
import { chat, uploadChatFile } from '../../../api/chat';
import type { MessageItem, PictureInfo } from '../../../api/socket/types';

export interface ImageSize {
  width: number;
  height: number;
}

/** The natural size of an image file (0 x 0 when the browser cannot decode it). */
export function imageSize(file: Blob): Promise<ImageSize> {
  return new Promise((resolve) => {
    const url = URL.createObjectURL(file);
    const img = new Image();
    img.onload = () => {
      resolve({ width: img.naturalWidth, height: img.naturalHeight });
      URL.revokeObjectURL(url);
    };
    img.onerror = () => {
      resolve({ width: 0, height: 0 });
      URL.revokeObjectURL(url);
    };
    img.src = url;
  });
}

export interface VideoInfo {
  duration: number;
  width: number;
  height: number;
  /** A JPEG of an early frame, for the bubble's poster (null when it cannot be drawn). */
  snapshot: Blob | null;
}

/** Duration (seconds), size and a poster frame of a video file. */
export function videoInfo(file: Blob): Promise<VideoInfo> {
  return new Promise((resolve) => {
    const url = URL.createObjectURL(file);
    const video = document.createElement('video');
    video.muted = true;
    video.preload = 'metadata';
    video.playsInline = true;
    let settled = false;
    const done = (info: VideoInfo): void => {
      if (settled) return;
      settled = true;
      URL.revokeObjectURL(url);
      resolve(info);
    };
    const timer = window.setTimeout(() => {
      done({ duration: 0, width: 0, height: 0, snapshot: null });
    }, 10_000);
    video.onloadedmetadata = () => {
      video.currentTime = Math.min(0.1, video.duration / 2 || 0);
    };
    video.onseeked = () => {
      const canvas = document.createElement('canvas');
      canvas.width = video.videoWidth;
      canvas.height = video.videoHeight;
      const base = { duration: Math.round(video.duration || 0), width: video.videoWidth, height: video.videoHeight };
      try {
        canvas.getContext('2d')?.drawImage(video, 0, 0);
        canvas.toBlob(
          (blob) => {
            window.clearTimeout(timer);
            done({ ...base, snapshot: blob });
          },
          'image/jpeg',
          0.8,
        );
      } catch {
        window.clearTimeout(timer);
        done({ ...base, snapshot: null });
      }
    };
    video.onerror = () => {
      window.clearTimeout(timer);
      done({ duration: 0, width: 0, height: 0, snapshot: null });
    };
    video.src = url;
  });
}

function pictureOf(upload: { url: string; contentType: string; size: number }, size: ImageSize): PictureInfo {
  return { uuid: upload.url, type: upload.contentType, size: upload.size, width: size.width, height: size.height, url: upload.url };
}

export async function buildImage(file: File, size: ImageSize): Promise<MessageItem> {
  const upload = await uploadChatFile(file, 'image', file.name || 'image');
  return chat.createImageMessageByURL(pictureOf(upload, size));
}

/** Voice: `duration` in whole seconds (at least 1). */
export async function buildVoice(blob: Blob, duration: number): Promise<MessageItem> {
  const ext = blob.type.includes('ogg') ? 'ogg' : blob.type.includes('mp4') ? 'm4a' : 'webm';
  const upload = await uploadChatFile(blob, 'sound', `voice.${ext}`);
  return chat.createSoundMessageByURL({
    uuid: upload.url,
    soundPath: '',
    sourceUrl: upload.url,
    dataSize: upload.size,
    duration: Math.max(1, Math.round(duration)),
  });
}

export async function buildVideo(file: File, info: VideoInfo): Promise<MessageItem> {
  const upload = await uploadChatFile(file, 'video', file.name || 'video');
  let snapshot: { url: string; size: number } | null = null;
  if (info.snapshot) {
    try {
      snapshot = await uploadChatFile(info.snapshot, 'image', 'snapshot.jpg');
    } catch {
      snapshot = null; // the video still goes, without a poster
    }
  }
  return chat.createVideoMessageByURL({
    videoPath: '',
    videoUUID: upload.url,
    videoUrl: upload.url,
    videoType: upload.contentType,
    videoSize: upload.size,
    duration: info.duration,
    snapshotPath: '',
    snapshotUUID: snapshot?.url ?? '',
    snapshotSize: snapshot?.size ?? 0,
    snapshotUrl: snapshot?.url ?? '',
    snapshotWidth: info.width,
    snapshotHeight: info.height,
  });
}

export async function buildFile(file: File): Promise<MessageItem> {
  const upload = await uploadChatFile(file, 'file', file.name || 'file');
  return chat.createFileMessageByURL({
    filePath: '',
    uuid: upload.url,
    sourceUrl: upload.url,
    fileName: file.name || upload.name || 'file',
    fileSize: upload.size,
    fileType: upload.contentType,
  });
}

/** 1536 → "1.5 KB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value >= 10 ? Math.round(value) : value.toFixed(1)} ${units[unit] ?? 'GB'}`;
}

/** 75 → "1:15". */
export function formatClock(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
