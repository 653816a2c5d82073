/**
 * Frames of the chat gateway (PROTOCOL.md "Frames"): a request carries its positional
 * arguments as a JSON array inside a string, an object argument being itself a JSON string;
 * a reply or push carries `event`, `errCode`, `errMsg` and `data` (a JSON document as a string).
 */

export interface RequestFrame {
  reqFuncName: string;
  operationID: string;
  userID: string;
  data: string;
}

export interface ReplyFrame {
  event: string;
  errCode: number;
  errMsg: string;
  /** The decoded `data` (null when empty or not JSON). */
  data: unknown;
  operationID: string;
}

/** Client-side error codes ("Messaging codes"). */
export const SocketErrorCode = {
  /** The socket closed while the request was waiting: every pending request fails with it. */
  closed: 111,
  /** Not connected, or no answer in time. */
  notConnected: 112,
  /** The device is offline. */
  offline: 113,
} as const;

/** Chat error codes of the gateway the app reacts to (httpapi/chat_errors.go). */
export const ChatErrorCode = {
  tokenExpired: 1304,
  kicked: 1305,
  /** Signed out because the account signed in on more devices than allowed (KJ_LOGIN_POLICY=devices). */
  deviceLimit: 1362,
  rateLimited: 1306,
  userNotFound: 1307,
  conversationNotFound: 1308,
  groupNotFound: 1309,
  blacklisted: 1311,
  verifyRequired: 1312,
  alreadyFriends: 1313,
  notFriends: 1314,
  self: 1316,
  groupNameRequired: 1317,
  groupFull: 1318,
  groupDismissed: 1319,
  notMember: 1320,
  noPermission: 1321,
  muted: 1322,
  groupMuted: 1323,
  channelReadOnly: 1324,
  alreadyMember: 1325,
  ownerCannotQuit: 1326,
  unsupportedType: 1327,
  revokeTooLate: 1330,
  revokeDenied: 1331,
  uploadTooLarge: 1332,
  uploadType: 1333,
  mentionNotMember: 1345,
  mentionAllDenied: 1346,
} as const;

/** A request the gateway (or the socket module) refused. */
export class ChatRequestError extends Error {
  readonly code: number;
  readonly event: string;

  constructor(code: number, message: string, event: string) {
    super(message);
    this.name = 'ChatRequestError';
    this.code = code;
    this.event = event;
  }
}

/** Objects and arrays travel as JSON strings inside the argument array, as the SDK sends them. */
export function encodeArgs(args: readonly unknown[]): string {
  return JSON.stringify(args.map((arg) => (typeof arg === 'object' && arg !== null ? JSON.stringify(arg) : arg)));
}

export function encodeRequest(name: string, operationID: string, userID: string, args: readonly unknown[]): string {
  const frame: RequestFrame = { reqFuncName: name, operationID, userID, data: encodeArgs(args) };
  return JSON.stringify(frame);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Parses a frame from the gateway; anything that is not a reply object gives null. */
export function decodeFrame(text: string): ReplyFrame | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isRecord(parsed)) return null;
  const event = typeof parsed.event === 'string' ? parsed.event : '';
  const errCode = typeof parsed.errCode === 'number' ? parsed.errCode : 0;
  const errMsg = typeof parsed.errMsg === 'string' ? parsed.errMsg : '';
  const operationID = typeof parsed.operationID === 'string' ? parsed.operationID : '';
  let data: unknown = null;
  if (typeof parsed.data === 'string' && parsed.data !== '') {
    try {
      data = JSON.parse(parsed.data);
    } catch {
      data = parsed.data;
    }
  } else if (parsed.data !== undefined && parsed.data !== '') {
    data = parsed.data;
  }
  return { event, errCode, errMsg, data, operationID };
}
