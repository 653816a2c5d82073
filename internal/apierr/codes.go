package apierr

// Envelope codes. 0 is success; 401, 402 and 403 carry the client's
// session semantics (the web app renews the token on 401 and signs out on
// 402 and 403); every other failure has a stable
// number, grouped by area, listed in docs/API.md (TestErrorCodeTablesMatchTheCode
// keeps the two equal):
//
//	1000-1099 common   1100-1199 accounts   1200-1299 wallet
//	1300-1399 chat     1400-1499 rounds     1500-1599 content
const (
	CodeOK              = 0
	CodeTokenExpired    = 401 // token missing or expired: renew with the jwt
	CodeLoginInvalid    = 402 // jwt rejected: sign in again
	CodeLoggedElsewhere = 403 // this session was replaced by a newer sign-in

	CodeBadRequest   = 1000 // malformed JSON, wrong types, unknown route
	CodeRequired     = 1001 // a required field is missing
	CodeInvalid      = 1002 // a field breaks its rule
	CodeOperatorOnly = 1003 // an operator route called by a user
	CodeTooLarge     = 1004 // request body over the cap
	CodeInternal     = 1005 // an unexpected server error (logged, never shown)
	CodeNotFound     = 1006 // the thing asked for does not exist or is not yours
	CodeRateLimited  = 1007 // too many requests
	CodeUnsupported  = 1008 // method not allowed on this route
	CodeSystemBusy   = 1009 // store unavailable; try again
	CodeRoleRefused  = 1010 // the operator's role may not call this route (HTTP 403)
)

// Chat error codes (1300-1399). The chat gateway puts them in the errCode of
// its replies; the chat HTTP routes put them in the envelope. docs/API.md lists
// them.
const (
	CodeChatBadFrame          = 1300 // the frame is not a request object
	CodeChatUnknownCall       = 1301 // reqFuncName unknown or not supported
	CodeChatBadArgument       = 1302 // an argument is missing or has the wrong type
	CodeChatLoginFirst        = 1303 // a call before Login
	CodeChatTokenExpired      = 1304 // chat token unknown, expired or signed out
	CodeChatKicked            = 1305 // the same account logged in elsewhere on this platform
	CodeChatRateLimited       = 1306 // too many requests on this socket
	CodeChatUserNotFound      = 1307 // no such user
	CodeChatConvNotFound      = 1308 // no such conversation, or not yours
	CodeChatGroupNotFound     = 1309 // no such group, or not visible to you
	CodeChatMessageNotFound   = 1310 // no such message in the conversation
	CodeChatBlacklisted       = 1311 // the peer added you to its blacklist
	CodeChatVerifyRequired    = 1312 // a friend request needs a verification message
	CodeChatAlreadyFriends    = 1313 // already friends
	CodeChatNotFriends        = 1314 // not friends (remark, ...)
	CodeChatNoApplication     = 1315 // no pending application to answer
	CodeChatSelf              = 1316 // the target is yourself
	CodeChatGroupNameRequired = 1317 // a group needs a name
	CodeChatGroupFull         = 1318 // the group reached its member cap
	CodeChatGroupDismissed    = 1319 // the group was dismissed
	CodeChatNotMember         = 1320 // you are not a member of the group
	CodeChatNoPermission      = 1321 // your role does not allow it
	CodeChatMuted             = 1322 // you are muted in the group
	CodeChatGroupMuted        = 1323 // the whole group is muted
	CodeChatChannelReadOnly   = 1324 // only owner and admins post in a channel
	CodeChatAlreadyMember     = 1325 // the user is already a member
	CodeChatOwnerCannotQuit   = 1326 // the owner must transfer or dismiss
	CodeChatUnsupportedType   = 1327 // message type not accepted
	CodeChatBadMessage        = 1328 // a message field breaks its rule
	CodeChatBadMediaURL       = 1329 // a media URL does not name an upload of ours
	CodeChatRevokeTooLate     = 1330 // the revoke window has passed
	CodeChatRevokeDenied      = 1331 // not your message, nor your right as admin
	CodeChatUploadTooLarge    = 1332 // upload over the size cap
	CodeChatUploadType        = 1333 // upload of a type we do not accept
	CodeChatBusy              = 1335 // the store failed; try again
	CodeChatSlowConsumer      = 1336 // close reason: the socket could not keep up
	CodeChatDraining          = 1337 // close reason: the node is shutting down
	CodeChatNicknameInvalid   = 1338 // nickname must be 1-10 characters
	CodeChatMuteRange         = 1339 // mute seconds out of range
	CodeChatTargetNotMember   = 1340 // the user acted on is not a member
	CodeChatMediaExpired      = 1341 // an attachment link's signature has expired (HTTP 403)
	CodeChatMediaRefused      = 1342 // an attachment fetched without a valid signature or sign-in (HTTP 403)
	CodeChatMentionNotMember  = 1345 // an @message names someone who is not a member
	CodeChatMentionAllDenied  = 1346 // only the owner and admins may mention everyone
	CodeChatAvatarNotOwn      = 1347 // an avatar must be a picture the caller uploaded, or none
	CodeChatEditTooLate       = 1350 // the edit window has passed
	CodeChatEditDenied        = 1351 // only one's own text messages can be edited
	CodeChatReactionLimit     = 1352 // a message has as many different reactions as it may
	CodeChatTooFast           = 1360 // close reason: the client kept sending over the limits
	CodeChatTooManySockets    = 1361 // close reason: too many sockets of the user on this platform
	CodeChatDeviceLimit       = 1362 // close reason: signed out because the user signed in on more devices than allowed
	CodeChatNotSupported      = 1370 // an SDK call the app does on its own (device storage, uploads); kj answers nothing else
	CodeChatPrivateSingleOnly = 1371 // private chat (burn after reading) is for 1:1 chats only
)

// Error codes of the accounts area (docs/API.md). 1100-1149
// are used here; 1150-1199 are left for the rest of the area (fund
// password, bank cards, notices).
const (
	CodeAccountInvalid   = 1100 // account is not 4-20 letters, digits or underscores
	CodeAccountExists    = 1101 // account taken
	CodeAccountUnknown   = 1102 // no such account
	CodePasswordLength   = 1103 // password not 6-20 characters
	CodePasswordNoDigit  = 1104 // password without digits
	CodePasswordNoLetter = 1105 // password without letters
	CodePasswordChars    = 1106 // password with spaces or non-ASCII characters
	CodePasswordMismatch = 1107 // 'Two passwords are inconsistent'
	CodeOldPasswordWrong = 1108 // change password: the original is wrong
	CodeLoginCredential  = 1109 // 'invalid login credential'
	CodeLoginLocked      = 1110 // 'too many login errors, retry after 10 minutes'
	CodePasswordLocked   = 1111 // too many wrong original passwords
	CodeInviteInvalid    = 1112 // invite code does not start with pro_
	CodeInviteUnknown    = 1113 // invite code names nobody
	CodeCaptchaWrong     = 1114 // captcha wrong, used or expired
	CodeSMSCodeInvalid   = 1115 // SMS code wrong, used or expired
	CodeSMSCodeFormat    = 1116 // SMS code not 6 digits
	CodeSMSCooldown      = 1117 // another code asked for too soon
	CodeSMSLimit         = 1118 // too many codes to one phone
	CodeSMSSendFailed    = 1119 // the sender failed
	CodePhoneInvalid     = 1120 // phone not min-max digits (1121, not the account's phone, is retired: 1115 says it)
	CodeNickInvalid      = 1122 // nickname not 1-10 characters
	CodeAvatarType       = 1123 // not PNG, JPEG or WebP
	CodeAvatarTooLarge   = 1124 // over 5 MB
	CodeAvatarBroken     = 1125 // does not decode, or too many pixels
	CodeSuperiorBound    = 1126 // a superior is already bound
	CodeSuperiorInvalid  = 1127 // binding oneself or one's own invitee
	CodePhoneTaken       = 1128 // the phone is bound (verified) to another account
	CodeAccountFrozen    = 1150 // an operator froze this account's sign-in
	// Leaving with one's data (/user/data/export, /user/account/delete).
	CodePasswordWrong  = 1170 // the login password asked again before an export or a deletion is wrong
	CodeDeleteChoice   = 1171 // deleting an account that holds money without choosing to exchange or forfeit it
	CodeDeleteNotReady = 1172 // deleting an account with bets not yet settled, a recharge under review or groups it owns with other members
)

// Wallet error codes (1200-1299), listed in docs/API.md.
const (
	CodeInsufficientBalance   = 1200 // the wallet holds less than asked
	CodeAmountInvalid         = 1201 // an amount that is not a positive whole number of cents
	CodeAmountTooLarge        = 1202 // an amount beyond what the ledger takes
	CodeBelowMinDeposit       = 1203 // a recharge below minDep
	CodeProtocolUnknown       = 1204 // a USDT protocol that is not offered
	CodeTxHashInvalid         = 1205 // a transaction hash of the wrong shape for its protocol
	CodeTxHashUsed            = 1206 // a transaction hash already claimed
	CodeExchangeBelowMin      = 1207 // an exchange below KJ_EXCHANGE_MIN
	CodeExchangeAboveMax      = 1208 // an exchange above KJ_EXCHANGE_MAX
	CodeNoBankCard            = 1209 // exchange without any bank card bound
	CodeFundPasswordNotSet    = 1210 // a fund password is needed and none is set
	CodeFundPasswordWrong     = 1211 // wrong fund password (attempts left in the message)
	CodeFundPasswordLocked    = 1212 // 5 wrong fund passwords: locked for 10 minutes
	CodeFundPasswordFormat    = 1213 // a new fund password that is not exactly 6 digits
	CodeFundPasswordSet       = 1214 // setWalletPwd when one is set already
	CodeCardNumbersMismatch   = 1215 // cardNumber and confirmCardNumber differ
	CodeCardNumberInvalid     = 1216 // a card number that is not 12-19 digits
	CodeBankUnknown           = 1217 // a bank not in the (enabled) bank list
	CodeCardAlreadyBound      = 1218 // the user bound this card number before
	CodeTooManyCards          = 1219 // more than maxBankCards cards
	CodeHolderNameInvalid     = 1220 // an empty or over-long cardholder name
	CodeOrderProcessed        = 1221 // an operator acts on an order already completed or failed the other way
	CodeRequestKeyReused      = 1222 // an Idempotency-Key reused for a different exchange
	CodeBankNameTaken         = 1223 // operator: the country has a bank of that name
	CodeFundPasswordUnchanged = 1224 // changeWalletPwd to the same password
	CodeSecondApprovalSame    = 1225 // the operator who approved a recharge above KJ_RECHARGE_MAX first approves it again
)

// Activation window error codes (1400-1499), listed in docs/API.md.
const (
	CodeWindowUnknown      = 1400 // no such (enabled) window
	CodeIssueUnknown       = 1401 // the window has no round with that issue number
	CodeBettingNotOpen     = 1402 // the round's betting has not started
	CodeBettingClosed      = 1403 // the round's betting is over (judged by arrival time)
	CodeBetContentInvalid  = 1404 // content is not BIG, SMALL, SINGLE or DOUBLE
	CodeBetAmountInvalid   = 1405 // amount not a positive whole number of cents
	CodeBetBelowMin        = 1406 // amount under the round's minBet
	CodeBetAboveMax        = 1407 // amount over the round's maxBet
	CodeBetIDInvalid       = 1409 // betId is not 1-64 of A-Z a-z 0-9 . _ : -
	CodeBetIDTaken         = 1410 // betId belongs to another player's bet
	CodeBetIDReused        = 1411 // betId already names a different bet of the caller
	CodeWindowRulesInvalid = 1412 // an operator's odds, limits or phase lengths out of range
	CodeBetSlipInvalid     = 1420 // a bet slip of no, more than 4, or repeated selections
)

// Content error codes (1500-1599), listed in docs/API.md.
const (
	CodeVideoLimit      = 1501 // a non-activated account used today's free videos
	CodePageOutOfRange  = 1502 // page beyond the last one
	CodeCityUnknown     = 1503 // no such (enabled) city
	CodeListingUnderAge = 1504 // a listing's age below 18
	CodeContactsTooMany = 1505 // address book over the cap
	CodeCityInUse       = 1506 // deleting a city that still has listings
	CodeCityNameTaken   = 1507 // another city has this name
	CodeManifestOrder   = 1508 // forced version newer than the normal version
	CodeUploadType      = 1509 // upload is not an accepted image or video
	CodeUploadTooLarge  = 1510 // upload over its size cap
)

// Player protection error codes (1600-1699), listed in docs/API.md
// (kj/protection, docs/PROTECTION.md).
const (
	CodeLossLimit        = 1600 // a bet beyond the player's daily, weekly or monthly loss limit (which one, and when it resets, in the message)
	CodeCoolingOff       = 1601 // a bet or a recharge during the player's cool-off (until when in the message)
	CodeSelfExcluded     = 1602 // a bet or a recharge during the player's self-exclusion (until when, or permanently)
	CodeExclusionRange   = 1603 // a cool-off not 1-42 days, or a self-exclusion not 6-60 months nor permanent
	CodeExclusionShorter = 1604 // a cool-off or self-exclusion ending before the one in force
	CodeRechargeHeld     = 1605 // crediting a recharge held by the player's deposit limit or exclusion
	CodeLimitInvalid     = 1606 // a limit that is not 0 (none) or a whole number of cents within the ledger's range
	CodeRealityInvalid   = 1607 // a reality-check interval not 0 (off) nor 1-240 minutes
)
