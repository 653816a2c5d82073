import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSetAtom } from 'jotai';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { chat } from '../../../api/chat';
import {
  ContentType,
  GroupRole,
  GroupStatus,
  GroupType,
  MessageStatus,
  NOTICE_FROM,
  SessionType,
  type FullUserItem,
} from '../../../api/socket/types';
import { PageHeader } from '../../../components/page-header/PageHeader';
import { showToast } from '../../../state/toast';
import { ActionSheet, type SheetAction } from '../../../components/action-sheet/ActionSheet';
import { BellIcon, BellOffIcon, MoreIcon } from '../../../components/icons/Icons';
import { Loading, LoadError } from '../../../components/status/LoadState';
import { isMuted } from '../data/badge';
import { markReadLocally } from '../data/controls';
import { presenceWatch } from '../data/presence';
import { initialDraft, saveDraft, unsavedDraft } from '../data/drafts';
import { chatErrorText } from '../data/errors';
import { useBlacklist, useConversations, useGroup, useGroupMembers, useMessages, useSelf, useUserInfo } from '../data/hooks';
import type { ConversationTarget } from '../data/ids';
import { chatKeys } from '../data/keys';
import { atArguments, type MentionTarget } from '../data/mentions';
import { applyRevoke, loadAround, loadOlder, removeMessage, type ChatMessage } from '../data/messages';
import { messageText } from '../data/preview';
import { canRetry, placeholder, retry, sendMessage, type Sender } from '../data/send';
import { dropQueued, isQueued, outboxTakes, queueText, retryQueued, showOutbox } from '../data/outbox';
import { retryAfterDrop } from '../data/queries';
import { firstText } from '../data/text';
import { useTyping } from '../data/typing';
import { toggled } from '../data/selection';
import { forwardDraftAtom } from '../forward/state';
import { CHAT_PATHS, chooseLocationPath, conversationSettingsPath, groupInfoPath, userInfoPath } from '../paths';
import { askNotificationsOnce } from '../session/notifications';
import { CardPicker } from './CardPicker';
import { Composer } from './Composer';
import { buildFile, buildImage, buildVideo, buildVoice, imageSize, videoInfo } from './media';
import { MessageList, type MessageListHandle } from './MessageList';
import { useMessageMarks } from './MessageMarks';
import { MuteGate } from './MuteNotice';
import { PresenceLine } from './PresenceLine';
import './ConversationPage.css';
import { shownName } from '../../../format/deletedAccount';

/** The conversation item: from the list when there, else opened (and created) on the server. */
function useConversationItem(target: ConversationTarget) {
  const { data: list } = useConversations();
  const fromList = list?.find((c) => c.conversationID === target.conversationID);
  const opened = useQuery({
    queryKey: ['chat', 'conversation', target.conversationID],
    queryFn: () =>
      target.groupID
        ? chat.getOneConversation(SessionType.group, target.groupID)
        : chat.getOneConversation(SessionType.single, target.recvID),
    staleTime: Infinity,
    retry: retryAfterDrop,
  });
  const item = fromList ?? opened.data;
  return { item, ready: item !== undefined || opened.error !== null };
}

/** One conversation: messages, composer, menus, and the states that block sending. */
export function Conversation({ target, me, focusSeq = 0 }: { target: ConversationTarget; me: string; focusSeq?: number }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const navigate = useNavigate();
  const setForward = useSetAtom(forwardDraftAtom);
  const { conversationID } = target;
  const isGroup = Boolean(target.groupID);
  const { item, ready } = useConversationItem(target);
  // A draft kept only in this browser goes to the server once the chat is open (so the user's
  // other devices get it too).
  const draftChecked = useRef('');
  useEffect(() => {
    if (!ready || draftChecked.current === conversationID) return;
    draftChecked.current = conversationID;
    const text = unsavedDraft(me, item, conversationID);
    if (text !== null) void saveDraft(client, me, conversationID, text);
  }, [ready, item, me, conversationID, client]);
  const { data: self } = useSelf();
  const { data: group } = useGroup(target.groupID);
  const { data: members } = useGroupMembers(target.groupID, isGroup && group?.status !== GroupStatus.dismissed && !item?.isNotInGroup);
  const { data: blacklist } = useBlacklist();
  const messages = useMessages(conversationID);
  const typing = useTyping(conversationID);
  const list = useRef<MessageListHandle>(null);
  const [menuFor, setMenuFor] = useState<ChatMessage | null>(null);
  const [readersOf, setReadersOf] = useState<ChatMessage | null>(null);
  const [quote, setQuote] = useState<ChatMessage | null>(null);
  const [selecting, setSelecting] = useState(false);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [cardOpen, setCardOpen] = useState(false);

  const sender: Sender = {
    userID: me,
    nickname: self?.nickname ?? '',
    faceURL: self?.faceURL ?? '',
  };
  // Avatars as they are now (issue 35 #4): one's own profile, the peer's, the members'.
  const { data: peer } = useUserInfo(isGroup ? '' : target.recvID);
  const faces = useMemo(() => {
    const map = new Map<string, string>();
    for (const m of members ?? []) if (m.faceURL) map.set(m.userID, m.faceURL);
    const peerFace = peer?.publicInfo?.faceURL ?? peer?.friendInfo?.faceURL;
    if (peerFace) map.set(target.recvID, peerFace);
    if (self?.faceURL) map.set(me, self.faceURL);
    return map;
  }, [members, peer, self, me, target.recvID]);
  const mine = members?.find((m) => m.userID === me);
  const myRole = mine?.roleLevel ?? 0;
  const dismissed = group?.status === GroupStatus.dismissed;
  const notInGroup = Boolean(item?.isNotInGroup) && !dismissed;
  const iBlocked = !isGroup && (blacklist ?? []).some((b) => b.userID === target.recvID);
  const readOnlyChannel = group?.groupType === GroupType.channel && myRole < GroupRole.admin && Boolean(mine);
  const allMuted = group?.status === GroupStatus.muted && myRole < GroupRole.admin && Boolean(mine);

  // Mark read while the conversation is on screen (optimistic, re-read on failure): on
  // opening, and whenever a message from the other side makes it unread again.
  const unread = item?.unreadCount ?? 0;
  const markRead = useCallback(() => {
    if (document.visibilityState !== 'visible') return;
    markReadLocally(client, conversationID);
    chat.markConversationMessageAsRead(conversationID).catch(() => {
      void client.invalidateQueries({ queryKey: chatKeys.conversations });
      void client.invalidateQueries({ queryKey: chatKeys.unread });
    });
  }, [client, conversationID]);
  useEffect(() => {
    if (unread > 0) markRead();
  }, [unread, markRead]);
  useEffect(() => {
    const onVisible = (): void => {
      if (document.visibilityState === 'visible') markRead();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [markRead]);

  /** Shows the message at once, sends it; a local preview (blob URL) is freed once it went out. */
  const send = (
    element: Parameters<typeof placeholder>[2],
    build: () => ReturnType<typeof chat.createTextMessage>,
    localURL = '',
  ): void => {
    // The first message sent is the moment to ask for notifications (once; a user gesture).
    void askNotificationsOnce();
    const stand = placeholder(sender, target, element);
    void sendMessage(client, target, stand, build, t).then((sent) => {
      if (sent && localURL) URL.revokeObjectURL(localURL);
    });
    requestAnimationFrame(() => list.current?.scrollToEnd());
  };

  const sendText = (text: string, mentions: MentionTarget[] = []): void => {
    const quoted = quote;
    setQuote(null);
    if (isGroup && mentions.length > 0) {
      const { ids, info } = atArguments(mentions);
      send(
        { contentType: ContentType.atText, atTextElem: { text, atUserList: ids, atUsersInfo: info, isAtSelf: false } },
        () => chat.createTextAtMessage(text, ids, info),
      );
    } else if (quoted) {
      send({ contentType: ContentType.quote, quoteElem: { text, quoteMessage: quoted } }, () => chat.createQuoteMessage(text, quoted));
    } else if (outboxTakes(me)) {
      // Offline (or earlier texts still waiting): kept in this browser, sent once connected.
      queueText(client, sender, target, text);
      showToast(t('chat.outbox.queued'));
      requestAnimationFrame(() => list.current?.scrollToEnd());
    } else {
      send({ contentType: ContentType.text, textElem: { content: text } }, () => chat.createTextMessage(text));
    }
  };

  // Opened from a search: load the message with its context, then bring it into view.
  const [focusKey, setFocusKey] = useState<string | null>(null);
  // Reactions, edits and quote jumps (MessageMarks.tsx).
  const marks = useMessageMarks({
    conversationID,
    me,
    nameOf: (id) =>
      firstText(
        members?.find((x) => x.userID === id)?.nickname,
        id === me ? self?.nickname : id === target.recvID ? (item?.showName ?? '') : '',
        id,
      ),
    focus: setFocusKey,
  });
  const focusAsked = useRef(false);
  const windowLoaded = messages.data !== undefined;
  // Texts written offline before a reload are in no list: shown once the history is there.
  useEffect(() => {
    if (windowLoaded) showOutbox(client, me, conversationID);
  }, [windowLoaded, client, me, conversationID]);
  useEffect(() => {
    if (!focusSeq || !windowLoaded || focusAsked.current) return;
    focusAsked.current = true;
    loadAround(client, conversationID, focusSeq)
      .then((found) => {
        if (found) setFocusKey(found.localKey);
        else showToast(t('chat.search.messageGone'));
      })
      .catch((error: unknown) => {
        showToast(chatErrorText(error, t));
      });
  }, [focusSeq, windowLoaded, client, conversationID, t]);
  // A page of the window that lands after the history around the message (the first page's
  // fetch finishing late) replaces it: the message is asked for again, a few times at most.
  const focusTries = useRef(0);
  const focusHeld = focusKey === null || (messages.data?.messages ?? []).some((m) => m.localKey === focusKey);
  useEffect(() => {
    if (!focusSeq || focusHeld || focusTries.current >= 3) return;
    focusTries.current += 1;
    void loadAround(client, conversationID, focusSeq)
      .then((found) => {
        if (found) setFocusKey(found.localKey);
      })
      .catch(() => undefined);
  }, [focusSeq, focusHeld, client, conversationID]);

  const sendImage = (file: File): void => {
    void imageSize(file).then((size) => {
      const url = URL.createObjectURL(file);
      const picture = { uuid: '', type: file.type, size: file.size, width: size.width, height: size.height, url };
      send(
        { contentType: ContentType.picture, pictureElem: { sourcePath: '', sourcePicture: picture, bigPicture: null, snapshotPicture: null } },
        () => buildImage(file, size),
        url,
      );
    });
  };

  const sendVideo = (file: File): void => {
    void videoInfo(file).then((info) => {
      const url = URL.createObjectURL(file);
      send(
        {
          contentType: ContentType.video,
          videoElem: {
            videoPath: '',
            videoUUID: '',
            videoUrl: url,
            videoType: file.type,
            videoSize: file.size,
            duration: info.duration,
            snapshotPath: '',
            snapshotUUID: '',
            snapshotSize: 0,
            snapshotUrl: '',
            snapshotWidth: info.width,
            snapshotHeight: info.height,
          },
        },
        () => buildVideo(file, info),
        url,
      );
    });
  };

  const sendFile = (file: File): void => {
    send(
      {
        contentType: ContentType.file,
        fileElem: { filePath: '', uuid: '', sourceUrl: '', fileName: file.name, fileSize: file.size, fileType: file.type },
      },
      () => buildFile(file),
    );
  };

  const sendVoice = (blob: Blob, seconds: number): void => {
    const duration = Math.max(1, Math.round(seconds));
    const url = URL.createObjectURL(blob);
    send(
      {
        contentType: ContentType.voice,
        soundElem: { uuid: '', soundPath: '', sourceUrl: url, dataSize: blob.size, duration },
      },
      () => buildVoice(blob, duration),
      url,
    );
  };

  const sendCard = (friend: FullUserItem): void => {
    const info = friend.friendInfo ?? friend.publicInfo;
    if (!info) return;
    const card = { userID: info.userID, nickname: info.nickname, faceURL: info.faceURL, ex: '' };
    send({ contentType: ContentType.card, cardElem: card }, () => chat.createCardMessage(card));
  };

  const onRetry = useCallback(
    (m: ChatMessage) => {
      if (isQueued(me, m.clientMsgID)) void retryQueued(client, me, m, t);
      else if (canRetry(m)) void retry(client, m, t);
      else showToast(m.failure?.text ?? t('chat.errors.operationFailed'));
    },
    [client, t, me],
  );

  const onToggleSelect = useCallback((m: ChatMessage) => {
    setSelected((current) => toggled(current, m.localKey));
  }, []);

  const all = messages.data?.messages ?? [];
  // The first message stored between the two makes the peer's presence ours to see.
  const exchanged = !isGroup && all.some((m) => m.seq > 0 && m.contentType < NOTICE_FROM);
  useEffect(() => {
    if (exchanged) presenceWatch.refresh(target.recvID);
  }, [exchanged, target.recvID]);
  const selectedMessages = all.filter((m) => selected.has(m.localKey));
  const startForward = (list: ChatMessage[], merge: boolean): void => {
    const stored = list.filter((m) => m.seq > 0 && m.contentType < NOTICE_FROM);
    if (stored.length === 0) return;
    setForward({
      messages: stored,
      merge,
      title: isGroup
        ? t('chat.forward.groupHistory')
        : t('chat.forward.historyWith', { a: sender.nickname, b: item?.showName ?? '' }),
    });
    setSelecting(false);
    setSelected(new Set());
    void navigate(CHAT_PATHS.forward);
  };

  const menu: SheetAction[] = [];
  if (menuFor) {
    const m = menuFor;
    const stored = m.seq > 0;
    const copyText = m.textElem?.content ?? m.quoteElem?.text ?? m.atTextElem?.text;
    if (copyText) {
      menu.push({
        label: t('chat.message.copy'),
        onSelect: () => {
          navigator.clipboard.writeText(copyText).then(
            () => {
              showToast(t('chat.message.copied'));
            },
            () => {
              showToast(t('chat.message.copyFailed'));
            },
          );
        },
      });
    }
    if (stored) {
      menu.push({ label: t('chat.message.quote'), onSelect: () => { setQuote(m); } });
      menu.push({ label: t('chat.message.forward'), onSelect: () => { startForward([m], false); } });
      menu.push({
        label: t('chat.message.multiSelect'),
        onSelect: () => {
          setSelecting(true);
          setSelected(new Set([m.localKey]));
        },
      });
    }
    menu.push(...marks.menuFor(m));
    if (stored && (m.sendID === me || myRole >= GroupRole.admin)) {
      menu.push({
        label: t('chat.message.revoke'),
        onSelect: () => {
          chat.revokeMessage(conversationID, m.clientMsgID).then(
            () => {
              applyRevoke(client, {
                revokerID: me,
                revokerRole: myRole,
                clientMsgID: m.clientMsgID,
                revokerNickname: sender.nickname,
                revokeTime: Date.now(),
                sourceMessageSendTime: m.sendTime,
                sourceMessageSendID: m.sendID,
                sourceMessageSenderNickname: m.senderNickname,
                sessionType: m.sessionType,
                seq: m.seq,
                conversationID,
              });
            },
            (e: unknown) => {
              showToast(chatErrorText(e, t));
            },
          );
        },
      });
    }
    menu.push({
      label: t('chat.message.delete'),
      danger: true,
      onSelect: () => {
        if (!stored || m.status === MessageStatus.failed) {
          // An outbox message is dropped from the outbox too, so it is never sent.
          dropQueued(client, me, conversationID, m);
          return;
        }
        chat.deleteMessage(conversationID, m.clientMsgID).then(
          () => {
            removeMessage(client, conversationID, m.localKey);
          },
          (e: unknown) => {
            showToast(chatErrorText(e, t));
          },
        );
      },
    });
  }

  const title = firstText(item ? shownName(item.showName, t) : undefined, group?.groupName);
  const headerTitle = isGroup && group ? t('chat.conversation.groupTitle', { name: title, count: group.memberCount }) : title;
  const infoLink = isGroup ? groupInfoPath(target.groupID) : userInfoPath(target.recvID);

  let notice: string | null = null;
  let composerHidden = false;
  if (dismissed) {
    notice = t('chat.errors.groupDismissed');
    composerHidden = true;
  } else if (notInGroup) {
    notice = t('chat.conversation.notInGroup');
    composerHidden = true;
  } else if (readOnlyChannel) {
    notice = t('chat.errors.channelReadOnly');
    composerHidden = true;
  } else if (iBlocked) {
    notice = t('chat.conversation.youBlocked');
  }

  let body;
  if (messages.isPending) body = <Loading />;
  else if (messages.error && !messages.data) body = <LoadError error={messages.error} onRetry={() => void messages.refetch()} />;
  else {
    body = (
      <MessageList
        ref={list}
        messages={all}
        isEnd={messages.data?.isEnd ?? true}
        me={me}
        isGroup={isGroup}
        loadOlder={() => loadOlder(client, conversationID)}
        selecting={selecting}
        selected={selected}
        onToggleSelect={onToggleSelect}
        onMenu={setMenuFor}
        onRetry={onRetry}
        onReaders={setReadersOf}
        focusKey={focusKey}
        faces={faces}
      />
    );
  }
  const readerIDs = readersOf?.attachedInfoElem?.groupHasReadInfo?.hasReadUserIDList ?? [];
  const readers: SheetAction[] = readerIDs.map((id) => {
    const member = members?.find((m) => m.userID === id);
    return {
      label: firstText(member?.nickname, id),
      onSelect: () => {
        setReadersOf(null);
        void navigate(userInfoPath(id));
      },
    };
  });

  return (
    <main className="conversation">
      <PageHeader
        title={headerTitle}
        back
        action={
          selecting ? (
            <button
              type="button"
              className="chat-small-button chat-small-button--secondary"
              onClick={() => {
                setSelecting(false);
                setSelected(new Set());
              }}
            >
              {t('chat.cancel')}
            </button>
          ) : (
            <>
              <Link to={conversationSettingsPath(conversationID)} className="icon-button chat-icon-button" aria-label={t('chat.controls.title')}>
                {item && isMuted(item) ? <BellOffIcon /> : <BellIcon />}
              </Link>
              <Link to={infoLink} className="icon-button chat-icon-button" aria-label={isGroup ? t('chat.groupInfo.title') : t('chat.userInfo.title')}>
                <MoreIcon />
              </Link>
            </>
          )
        }
      />
      {typing && !isGroup ? (
        <p className="conversation__typing" role="status">
          {t('chat.conversation.typing')}
        </p>
      ) : null}
      {/* Once the chat exists on the server: the peer of a chat is someone one may watch. */}
      {!typing && !isGroup && item ? <PresenceLine userID={target.recvID} className="conversation__presence" /> : null}
      {marks.provide(body)}
      {notice ? (
        <p className="conversation__notice" role="status" data-testid="conversation-notice">
          {notice}
        </p>
      ) : null}
      {selecting ? (
        <div className="conversation__select-bar">
          {/* Forward the picked messages one by one, or merged into one chat record. */}
          {([false, true] as const).map((merge) => (
            <button
              key={String(merge)}
              type="button"
              className={merge ? 'button' : 'button button--secondary'}
              disabled={selectedMessages.length === 0}
              onClick={() => {
                startForward(selectedMessages, merge);
              }}
            >
              {merge ? t('chat.forward.merge') : t('chat.forward.oneByOne')}
            </button>
          ))}
        </div>
      ) : composerHidden || !ready ? null : (
        <MuteGate until={mine?.muteEndTime ?? 0} allMuted={allMuted}>
          {(blocked) => (
            <Composer
              me={me}
              blocked={blocked}
              initialDraft={initialDraft(me, item, conversationID)}
              quote={quote}
              onCancelQuote={() => {
                setQuote(null);
              }}
              onSendText={sendText}
              mention={isGroup && members ? { members, canMentionAll: myRole >= GroupRole.admin } : undefined}
              onImage={sendImage}
              onVideo={sendVideo}
              onFile={sendFile}
              onVoice={sendVoice}
              onLocation={() => {
                void navigate(chooseLocationPath(conversationID));
              }}
              onCard={() => {
                setCardOpen(true);
              }}
              onTyping={() => {
                if (!isGroup) chat.typingStatusUpdate(target.recvID, 'typing').catch(() => undefined);
              }}
              onDraft={(text) => {
                void saveDraft(client, me, conversationID, text);
              }}
            />
          )}
        </MuteGate>
      )}
      {menuFor ? (
        <ActionSheet
          title={messageText(menuFor, me, t).slice(0, 60)}
          actions={menu}
          onClose={() => {
            setMenuFor(null);
          }}
        />
      ) : null}
      {readersOf ? (
        <ActionSheet
          title={t('chat.message.readers')}
          actions={readers}
          onClose={() => {
            setReadersOf(null);
          }}
        />
      ) : null}
      {cardOpen ? (
        <CardPicker
          onPick={sendCard}
          onClose={() => {
            setCardOpen(false);
          }}
        />
      ) : null}
      {marks.sheets}
    </main>
  );
}
