import type { TFunction } from 'i18next';
import { ApiError } from '../../../api/client';
import { ChatErrorCode, ChatRequestError, SocketErrorCode } from '../../../api/socket/protocol';

/**
 * The text shown for a failed chat call. Codes get the app's own
 * translation (the gateway translates by the browser's Accept-Language, which may differ from
 * the language chosen in the app); other codes show the server's message.
 */
export function chatErrorText(error: unknown, t: TFunction): string {
  const code = error instanceof ChatRequestError || error instanceof ApiError ? error.code : 0;
  switch (code) {
    case ChatErrorCode.blacklisted:
      return t('chat.errors.blacklisted');
    case ChatErrorCode.groupFull:
      return t('chat.errors.groupFull');
    case ChatErrorCode.groupDismissed:
      return t('chat.errors.groupDismissed');
    case ChatErrorCode.muted:
      return t('chat.errors.muted');
    case ChatErrorCode.groupMuted:
      return t('chat.errors.groupMuted');
    case ChatErrorCode.channelReadOnly:
      return t('chat.errors.channelReadOnly');
    case ChatErrorCode.notMember:
      return t('chat.errors.notMember');
    case ChatErrorCode.noPermission:
      return t('chat.errors.noPermission');
    case ChatErrorCode.verifyRequired:
      return t('chat.errors.verifyRequired');
    case ChatErrorCode.alreadyFriends:
      return t('chat.errors.alreadyFriends');
    case ChatErrorCode.groupNameRequired:
      return t('chat.errors.groupNameRequired');
    case ChatErrorCode.ownerCannotQuit:
      return t('chat.errors.ownerCannotQuit');
    case ChatErrorCode.unsupportedType:
      return t('chat.errors.unsupportedType');
    case ChatErrorCode.revokeTooLate:
      return t('chat.errors.revokeTooLate');
    case ChatErrorCode.uploadTooLarge:
      return t('chat.errors.uploadTooLarge');
    case ChatErrorCode.uploadType:
      return t('chat.errors.uploadType');
    case ChatErrorCode.mentionNotMember:
      return t('chat.errors.mentionNotMember');
    case ChatErrorCode.mentionAllDenied:
      return t('chat.errors.mentionAllDenied');
    case SocketErrorCode.closed:
      return t('chat.errors.socketClosed');
    case SocketErrorCode.notConnected:
      return t('chat.errors.notConnected');
    case SocketErrorCode.offline:
      return t('chat.errors.offline');
  }
  if (error instanceof Error && error.message && code !== 0) return error.message;
  return t('chat.errors.operationFailed');
}

export function errorCode(error: unknown): number {
  return error instanceof ChatRequestError || error instanceof ApiError ? error.code : 0;
}
