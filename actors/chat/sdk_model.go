package chat

// The object shapes of the OpenIM JS SDK v3 (src/types/entity.ts of
// open-im-sdk 3.5.2): every JSON payload the gateway sends, and the
// object arguments it reads. Ids are decimal strings. The frame around
// them (Request, Reply) and its codec are in sdk_wire.go.

// Content types (src/types/enum.ts MessageType and OpenIM's notification
// numbers).
const (
	TypeText     = 101
	TypePicture  = 102
	TypeVoice    = 103
	TypeVideo    = 104
	TypeFile     = 105
	TypeAtText   = 106
	TypeMerger   = 107
	TypeCard     = 108
	TypeLocation = 109
	TypeCustom   = 110
	TypeTyping   = 113
	TypeQuote    = 114
	TypeFace     = 115

	NoticeFriendAdded = 1201

	NoticeGroupCreated        = 1501
	NoticeGroupInfoSet        = 1502
	NoticeMemberQuit          = 1504
	NoticeOwnerTransferred    = 1507
	NoticeMemberKicked        = 1508
	NoticeMemberInvited       = 1509
	NoticeMemberEnter         = 1510
	NoticeGroupDismissed      = 1511
	NoticeMemberMuted         = 1512
	NoticeMemberUnmuted       = 1513
	NoticeGroupMuted          = 1514
	NoticeGroupUnmuted        = 1515
	NoticeMemberInfoSet       = 1516
	NoticeMemberSetAdmin      = 1517
	NoticeMemberSetOrdinary   = 1518
	NoticeGroupAnnouncement   = 1519
	NoticeGroupNameSet        = 1520
	NoticeRevoke              = 2101
	msgFromUser               = 100
	msgFromSystem             = 200
	statusSending             = 1
	statusSent                = 2
	platformWeb               = 5
	atAllTag                  = "AtAllTag"
	sessionSingle             = 1
	sessionGroup              = 3
	sessionGroupLegacy        = 2
	sessionSingleLegacyNotice = 4
)

// Message is MessageItem. Exactly one element is set, matching ContentType.
type Message struct {
	ClientMsgID      string            `json:"clientMsgID"`
	ServerMsgID      string            `json:"serverMsgID"`
	CreateTime       int64             `json:"createTime"`
	SendTime         int64             `json:"sendTime"`
	SessionType      int               `json:"sessionType"`
	SendID           string            `json:"sendID"`
	RecvID           string            `json:"recvID"`
	MsgFrom          int               `json:"msgFrom"`
	ContentType      int               `json:"contentType"`
	SenderPlatformID int               `json:"senderPlatformID"`
	SenderNickname   string            `json:"senderNickname"`
	SenderFaceURL    string            `json:"senderFaceUrl"`
	GroupID          string            `json:"groupID"`
	Content          string            `json:"content"`
	Seq              int64             `json:"seq"`
	IsRead           bool              `json:"isRead"`
	Status           int               `json:"status"`
	IsReact          bool              `json:"isReact"`
	IsExternal       bool              `json:"isExternalExtensions"`
	AttachedInfo     string            `json:"attachedInfo"`
	Ex               string            `json:"ex"`
	LocalEx          string            `json:"localEx"`
	OfflinePush      *OfflinePush      `json:"offlinePush,omitempty"`
	TextElem         *TextElem         `json:"textElem,omitempty"`
	CardElem         *CardElem         `json:"cardElem,omitempty"`
	PictureElem      *PictureElem      `json:"pictureElem,omitempty"`
	SoundElem        *SoundElem        `json:"soundElem,omitempty"`
	VideoElem        *VideoElem        `json:"videoElem,omitempty"`
	FileElem         *FileElem         `json:"fileElem,omitempty"`
	MergeElem        *MergeElem        `json:"mergeElem,omitempty"`
	AtTextElem       *AtTextElem       `json:"atTextElem,omitempty"`
	FaceElem         *FaceElem         `json:"faceElem,omitempty"`
	LocationElem     *LocationElem     `json:"locationElem,omitempty"`
	CustomElem       *CustomElem       `json:"customElem,omitempty"`
	QuoteElem        *QuoteElem        `json:"quoteElem,omitempty"`
	NotificationElem *NotificationElem `json:"notificationElem,omitempty"`
	TypingElem       *TypingElem       `json:"typingElem,omitempty"`
	AttachedInfoElem *AttachedInfoElem `json:"attachedInfoElem,omitempty"`
	// kj's: the message's reactions and the time of its last edit, folded
	// into history pages (reactions.go); absent on a message with none.
	Reactions []MessageReaction `json:"reactions,omitempty"`
	EditTime  int64             `json:"editTime,omitempty"`

	// frame is the message's OnRecvNewMessage push frame, made once when
	// it is fanned out (encode) and written as it is to every recipient's
	// sockets. escaped is the message's JSON inside it, escaped once as it
	// sits in a frame's data string: the acknowledgement copies it instead
	// of escaping the JSON again. A conversation push's latestMsg is the
	// JSON escaped twice (appendLatestWire). The JSON itself is not kept:
	// it was ~0.6 KB a message that only the conversation list read
	// (jsonText makes it).
	frame   []byte
	escaped []byte
	// latestWire is the message as it sits in a conversation push frame: a
	// string inside the data string, so escaped twice. Made with frame for
	// a group's message only, whose members' pushes all carry it (W3
	// profile: escaping the per-member conversation frame was ~28 % of the
	// server); a 1:1 message's two pushes write it each
	// (appendLatestWire) instead of keeping ~0.9 KB more per message.
	latestWire []byte
}

type OfflinePush struct {
	Title         string `json:"title"`
	Desc          string `json:"desc"`
	Ex            string `json:"ex"`
	IOSPushSound  string `json:"iOSPushSound"`
	IOSBadgeCount bool   `json:"iOSBadgeCount"`
}

type TextElem struct {
	Content string `json:"content"`
}

type CardElem struct {
	UserID   string `json:"userID"`
	Nickname string `json:"nickname"`
	FaceURL  string `json:"faceURL"`
	Ex       string `json:"ex"`
}

type Picture struct {
	UUID   string `json:"uuid"`
	Type   string `json:"type"`
	Size   int64  `json:"size"`
	Width  int64  `json:"width"`
	Height int64  `json:"height"`
	URL    string `json:"url"`
}

type PictureElem struct {
	SourcePath      string   `json:"sourcePath"`
	SourcePicture   *Picture `json:"sourcePicture"`
	BigPicture      *Picture `json:"bigPicture"`
	SnapshotPicture *Picture `json:"snapshotPicture"`
}

type SoundElem struct {
	UUID      string `json:"uuid"`
	SoundPath string `json:"soundPath"`
	SourceURL string `json:"sourceUrl"`
	DataSize  int64  `json:"dataSize"`
	Duration  int64  `json:"duration"`
	SoundType string `json:"soundType,omitempty"`
}

type VideoElem struct {
	VideoPath      string `json:"videoPath"`
	VideoUUID      string `json:"videoUUID"`
	VideoURL       string `json:"videoUrl"`
	VideoType      string `json:"videoType"`
	VideoSize      int64  `json:"videoSize"`
	Duration       int64  `json:"duration"`
	SnapshotPath   string `json:"snapshotPath"`
	SnapshotUUID   string `json:"snapshotUUID"`
	SnapshotSize   int64  `json:"snapshotSize"`
	SnapshotURL    string `json:"snapshotUrl"`
	SnapshotWidth  int64  `json:"snapshotWidth"`
	SnapshotHeight int64  `json:"snapshotHeight"`
	SnapshotType   string `json:"snapShotType,omitempty"`
}

type FileElem struct {
	FilePath  string `json:"filePath"`
	UUID      string `json:"uuid"`
	SourceURL string `json:"sourceUrl"`
	FileName  string `json:"fileName"`
	FileSize  int64  `json:"fileSize"`
	FileType  string `json:"fileType,omitempty"`
}

type MessageEntity struct {
	Type   string `json:"type"`
	Offset int    `json:"offset"`
	Length int    `json:"length"`
	URL    string `json:"url,omitempty"`
	Info   string `json:"info,omitempty"`
}

type MergeElem struct {
	Title             string          `json:"title"`
	AbstractList      []string        `json:"abstractList"`
	MultiMessage      []*Message      `json:"multiMessage"`
	MessageEntityList []MessageEntity `json:"messageEntityList"`
}

type AtUserInfo struct {
	AtUserID      string `json:"atUserID"`
	GroupNickname string `json:"groupNickname"`
}

type AtTextElem struct {
	Text         string       `json:"text"`
	AtUserList   []string     `json:"atUserList"`
	AtUsersInfo  []AtUserInfo `json:"atUsersInfo,omitempty"`
	QuoteMessage *Message     `json:"quoteMessage,omitempty"`
	IsAtSelf     bool         `json:"isAtSelf"`
}

type FaceElem struct {
	Index int64  `json:"index"`
	Data  string `json:"data"`
}

type LocationElem struct {
	Description string  `json:"description"`
	Longitude   float64 `json:"longitude"`
	Latitude    float64 `json:"latitude"`
}

type CustomElem struct {
	Data        string `json:"data"`
	Description string `json:"description"`
	Extension   string `json:"extension"`
}

type QuoteElem struct {
	Text         string   `json:"text"`
	QuoteMessage *Message `json:"quoteMessage"`
}

type NotificationElem struct {
	Detail string `json:"detail"`
}

type TypingElem struct {
	MsgTips string `json:"msgTips"`
}

// RevokedInfo is the content of a revoked message and the data of
// OnNewRecvMessageRevoked.
type RevokedInfo struct {
	RevokerID                   string `json:"revokerID"`
	RevokerRole                 int    `json:"revokerRole"`
	ClientMsgID                 string `json:"clientMsgID"`
	RevokerNickname             string `json:"revokerNickname"`
	RevokeTime                  int64  `json:"revokeTime"`
	SourceMessageSendTime       int64  `json:"sourceMessageSendTime"`
	SourceMessageSendID         string `json:"sourceMessageSendID"`
	SourceMessageSenderNickname string `json:"sourceMessageSenderNickname"`
	SessionType                 int    `json:"sessionType"`
	Seq                         int64  `json:"seq"`
	Ex                          string `json:"ex"`
	ConversationID              string `json:"conversationID"`
}

// ConversationItem is one conversation of a user's list. MaxSeq,
// HasReadSeq and MinSeq are ours: the seq range the user may see and its
// read position, so a client can resync by seq after a reconnect.
type ConversationItem struct {
	ConversationID    string `json:"conversationID"`
	ConversationType  int    `json:"conversationType"`
	UserID            string `json:"userID"`
	GroupID           string `json:"groupID"`
	ShowName          string `json:"showName"`
	FaceURL           string `json:"faceURL"`
	RecvMsgOpt        int    `json:"recvMsgOpt"`
	UnreadCount       int64  `json:"unreadCount"`
	GroupAtType       int    `json:"groupAtType"`
	LatestMsg         string `json:"latestMsg"`
	LatestMsgSendTime int64  `json:"latestMsgSendTime"`
	DraftText         string `json:"draftText"`
	DraftTextTime     int64  `json:"draftTextTime"`
	BurnDuration      int64  `json:"burnDuration"`
	MsgDestructTime   int64  `json:"msgDestructTime"`
	IsPinned          bool   `json:"isPinned"`
	IsNotInGroup      bool   `json:"isNotInGroup"`
	IsPrivateChat     bool   `json:"isPrivateChat"`
	IsMsgDestruct     bool   `json:"isMsgDestruct"`
	AttachedInfo      string `json:"attachedInfo"`
	Ex                string `json:"ex"`
	MaxSeq            int64  `json:"maxSeq"`
	HasReadSeq        int64  `json:"hasReadSeq"`
	MinSeq            int64  `json:"minSeq"`
}

// GroupItem is a group or channel (groupType 2 group, 3 channel).
type GroupItem struct {
	GroupID                string `json:"groupID"`
	GroupName              string `json:"groupName"`
	Notification           string `json:"notification"`
	NotificationUserID     string `json:"notificationUserID"`
	NotificationUpdateTime int64  `json:"notificationUpdateTime"`
	Introduction           string `json:"introduction"`
	FaceURL                string `json:"faceURL"`
	OwnerUserID            string `json:"ownerUserID"`
	CreateTime             int64  `json:"createTime"`
	MemberCount            int    `json:"memberCount"`
	Status                 int    `json:"status"`
	CreatorUserID          string `json:"creatorUserID"`
	GroupType              int    `json:"groupType"`
	NeedVerification       int    `json:"needVerification"`
	Ex                     string `json:"ex"`
	ApplyMemberFriend      int    `json:"applyMemberFriend"`
	LookMemberInfo         int    `json:"lookMemberInfo"`
}

type GroupMemberItem struct {
	GroupID        string `json:"groupID"`
	UserID         string `json:"userID"`
	Nickname       string `json:"nickname"`
	FaceURL        string `json:"faceURL"`
	RoleLevel      int    `json:"roleLevel"`
	MuteEndTime    int64  `json:"muteEndTime"`
	JoinTime       int64  `json:"joinTime"`
	JoinSource     int    `json:"joinSource"`
	InviterUserID  string `json:"inviterUserID"`
	OperatorUserID string `json:"operatorUserID"`
	Ex             string `json:"ex"`
}

type GroupApplicationItem struct {
	CreateTime    int64  `json:"createTime"`
	CreatorUserID string `json:"creatorUserID"`
	Ex            string `json:"ex"`
	GroupFaceURL  string `json:"groupFaceURL"`
	GroupID       string `json:"groupID"`
	GroupName     string `json:"groupName"`
	GroupType     int    `json:"groupType"`
	HandleResult  int    `json:"handleResult"`
	HandleUserID  string `json:"handleUserID"`
	HandledMsg    string `json:"handledMsg"`
	HandledTime   int64  `json:"handledTime"`
	Introduction  string `json:"introduction"`
	MemberCount   int    `json:"memberCount"`
	Nickname      string `json:"nickname"`
	Notification  string `json:"notification"`
	OwnerUserID   string `json:"ownerUserID"`
	ReqMsg        string `json:"reqMsg"`
	ReqTime       int64  `json:"reqTime"`
	JoinSource    int    `json:"joinSource"`
	Status        int    `json:"status"`
	UserFaceURL   string `json:"userFaceURL"`
	UserID        string `json:"userID"`
	InviterUserID string `json:"inviterUserID"`
}

type FriendApplicationItem struct {
	CreateTime    int64  `json:"createTime"`
	Ex            string `json:"ex"`
	FromFaceURL   string `json:"fromFaceURL"`
	FromNickname  string `json:"fromNickname"`
	FromUserID    string `json:"fromUserID"`
	HandleMsg     string `json:"handleMsg"`
	HandleResult  int    `json:"handleResult"`
	HandleTime    int64  `json:"handleTime"`
	HandlerUserID string `json:"handlerUserID"`
	ReqMsg        string `json:"reqMsg"`
	ToFaceURL     string `json:"toFaceURL"`
	ToNickname    string `json:"toNickname"`
	ToUserID      string `json:"toUserID"`
}

type PublicUserItem struct {
	Nickname string `json:"nickname"`
	UserID   string `json:"userID"`
	FaceURL  string `json:"faceURL"`
	Ex       string `json:"ex"`
}

type SelfUserInfo struct {
	CreateTime       int64  `json:"createTime"`
	Ex               string `json:"ex"`
	FaceURL          string `json:"faceURL"`
	Nickname         string `json:"nickname"`
	UserID           string `json:"userID"`
	GlobalRecvMsgOpt int    `json:"globalRecvMsgOpt"`
}

type FriendUserItem struct {
	AddSource      int    `json:"addSource"`
	CreateTime     int64  `json:"createTime"`
	Ex             string `json:"ex"`
	FaceURL        string `json:"faceURL"`
	UserID         string `json:"userID"`
	Nickname       string `json:"nickname"`
	OperatorUserID string `json:"operatorUserID"`
	OwnerUserID    string `json:"ownerUserID"`
	Remark         string `json:"remark"`
	AttachedInfo   string `json:"attachedInfo"`
}

type BlackUserItem struct {
	AddSource      int    `json:"addSource"`
	UserID         string `json:"userID"`
	CreateTime     int64  `json:"createTime"`
	Ex             string `json:"ex"`
	FaceURL        string `json:"faceURL"`
	Nickname       string `json:"nickname"`
	OperatorUserID string `json:"operatorUserID"`
	OwnerUserID    string `json:"ownerUserID"`
}

type FullUserItem struct {
	BlackInfo       *BlackUserItem   `json:"blackInfo"`
	FriendInfo      *FriendUserItem  `json:"friendInfo"`
	PublicInfo      *PublicUserItem  `json:"publicInfo"`
	GroupMemberInfo *GroupMemberItem `json:"groupMemberInfo,omitempty"`
}

type SearchedFriend struct {
	FriendUserItem
	Relationship int `json:"relationship"`
}

type FriendshipInfo struct {
	Result int    `json:"result"`
	UserID string `json:"userID"`
}

// AdvancedMessages is the reply of GetAdvancedHistoryMessageList(+Reverse).
type AdvancedMessages struct {
	IsEnd       bool       `json:"isEnd"`
	LastMinSeq  int64      `json:"lastMinSeq"`
	ErrCode     int        `json:"errCode"`
	ErrMsg      string     `json:"errMsg"`
	MessageList []*Message `json:"messageList"`
}

type SearchResultItem struct {
	ConversationID   string     `json:"conversationID"`
	MessageCount     int        `json:"messageCount"`
	ConversationType int        `json:"conversationType"`
	ShowName         string     `json:"showName"`
	FaceURL          string     `json:"faceURL"`
	MessageList      []*Message `json:"messageList"`
}

type SearchResult struct {
	TotalCount        int                 `json:"totalCount"`
	SearchResultItems []*SearchResultItem `json:"searchResultItems,omitempty"`
	FindResultItems   []*SearchResultItem `json:"findResultItems,omitempty"`
}

type UserOnlineState struct {
	PlatformIDs []int  `json:"platformIDs"`
	Status      int    `json:"status"`
	UserID      string `json:"userID"`
}

// UserStatus is the SDK's UserOnlineState, with kj's last seen: the unix
// ms the user's last socket closed (0 when online, never seen, or hidden).
type UserStatus struct {
	UserID      string `json:"userID"`
	Status      int    `json:"status"`
	PlatformIDs []int  `json:"platformIDs"`
	LastSeen    int64  `json:"lastSeen"`
}

// Status values of UserStatus.
const (
	statusOffline = 0
	statusOnline  = 1
)

// Read receipts (receipts.go).

// ReceiptInfo is one OnRecvC2CReadReceipt item: userID read msgIDList.
type ReceiptInfo struct {
	UserID      string   `json:"userID"`
	GroupID     string   `json:"groupID"`
	MsgIDList   []string `json:"msgIDList"`
	ReadTime    int64    `json:"readTime"`
	MsgFrom     int      `json:"msgFrom"`
	ContentType int      `json:"contentType"`
	SessionType int      `json:"sessionType"`
}

// GroupMessageReceipt is the OnRecvGroupReadReceipt data: the read state
// of some of the receiver's messages in one group conversation.
type GroupMessageReceipt struct {
	ConversationID string             `json:"conversationID"`
	ReadInfo       []GroupMessageRead `json:"groupMessageReadInfo"`
}

// GroupMessageRead is the read state of one group message.
type GroupMessageRead struct {
	ClientMsgID       string             `json:"clientMsgID"`
	HasReadCount      int                `json:"hasReadCount"`
	UnreadCount       int                `json:"unreadCount"`
	HasReadUserIDList []string           `json:"hasReadUserIDList"`
	ReadMembers       []*GroupMemberItem `json:"readMembers"`
}

// AttachedInfoElem carries a message's read state in a group.
type AttachedInfoElem struct {
	GroupHasReadInfo *GroupHasReadInfo `json:"groupHasReadInfo,omitempty"`
}

// GroupHasReadInfo counts who of a group read a message.
type GroupHasReadInfo struct {
	HasReadCount      int      `json:"hasReadCount"`
	UnreadCount       int      `json:"unreadCount"`
	HasReadUserIDList []string `json:"hasReadUserIDList"`
	GroupMemberCount  int      `json:"groupMemberCount"`
}

// Arguments the SDK passes as one JSON object (read with Object).

// CreateGroupParams is a new group: the SDK's CreateGroupParams, also
// used by the HTTP route.
type CreateGroupParams struct {
	MemberUserIDs []string  `json:"memberUserIDs"`
	AdminUserIDs  []string  `json:"adminUserIDs"`
	OwnerUserID   string    `json:"ownerUserID"`
	GroupInfo     GroupInfo `json:"groupInfo"`
}

// GroupInfo are the settable fields of a group.
type GroupInfo struct {
	GroupName         *string `json:"groupName"`
	FaceURL           *string `json:"faceURL"`
	Introduction      *string `json:"introduction"`
	Notification      *string `json:"notification"`
	GroupType         *int    `json:"groupType"`
	NeedVerification  *int    `json:"needVerification"`
	LookMemberInfo    *int    `json:"lookMemberInfo"`
	ApplyMemberFriend *int    `json:"applyMemberFriend"`
	Ex                *string `json:"ex"`
}

// handleFriendParams are the params of AcceptFriendApplication and
// RefuseFriendApplication.
type handleFriendParams struct {
	ToUserID  string `json:"toUserID"`
	HandleMsg string `json:"handleMsg"`
}

// historyParams are the params of GetAdvancedHistoryMessageList and its
// Reverse.
type historyParams struct {
	ConversationID   string `json:"conversationID"`
	UserID           string `json:"userID"`
	GroupID          string `json:"groupID"`
	StartClientMsgID string `json:"startClientMsgID"`
	Count            int64  `json:"count"`
	LastMinSeq       int64  `json:"lastMinSeq"`
}
