package httpapi

// Chat error codes (1300-1399). The chat gateway puts them in the errCode of
// its replies; the chat HTTP routes put them in the envelope. The README's
// "Chat engine" section lists them.
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
)

// chatKeys names the message of each chat code.
var chatKeys = map[int]string{
	CodeChatBadFrame: "chat.frame.malformed", CodeChatUnknownCall: "chat.call.unknown",
	CodeChatBadArgument: "chat.arg.invalid", CodeChatLoginFirst: "chat.login.first",
	CodeChatTokenExpired: "chat.token.expired", CodeChatKicked: "chat.kicked",
	CodeChatRateLimited: "chat.rate.limited", CodeChatUserNotFound: "chat.user.not.found",
	CodeChatConvNotFound: "chat.conversation.not.found", CodeChatGroupNotFound: "chat.group.not.found",
	CodeChatMessageNotFound: "chat.message.not.found", CodeChatBlacklisted: "chat.blacklisted",
	CodeChatVerifyRequired: "chat.friend.verify.required", CodeChatAlreadyFriends: "chat.friend.already",
	CodeChatNotFriends: "chat.friend.not", CodeChatNoApplication: "chat.application.none",
	CodeChatSelf: "chat.self", CodeChatGroupNameRequired: "chat.group.name.required",
	CodeChatGroupFull: "chat.group.full", CodeChatGroupDismissed: "chat.group.dismissed",
	CodeChatNotMember: "chat.group.not.member", CodeChatNoPermission: "chat.group.no.permission",
	CodeChatMuted: "chat.group.muted", CodeChatGroupMuted: "chat.group.all.muted",
	CodeChatChannelReadOnly: "chat.channel.read.only", CodeChatAlreadyMember: "chat.group.already.member",
	CodeChatOwnerCannotQuit: "chat.group.owner.quit", CodeChatUnsupportedType: "chat.message.type.unsupported",
	CodeChatBadMessage: "chat.message.invalid", CodeChatBadMediaURL: "chat.media.url",
	CodeChatRevokeTooLate: "chat.revoke.too.late", CodeChatRevokeDenied: "chat.revoke.denied",
	CodeChatUploadTooLarge: "chat.upload.too.large", CodeChatUploadType: "chat.upload.type",
	CodeChatBusy: "system.busy", CodeChatSlowConsumer: "chat.slow.consumer",
	CodeChatDraining: "chat.draining", CodeChatNicknameInvalid: "chat.nickname.invalid",
	CodeChatMuteRange: "chat.mute.range", CodeChatTargetNotMember: "chat.group.target.not.member",
}

// ChatError is the error of a chat code, with its message arguments as
// name, value pairs.
func ChatError(code int, kv ...any) *Error {
	key, ok := chatKeys[code]
	if !ok {
		key = "system.busy"
	}
	return Fail(code, key, kv...)
}

func init() {
	AddMessages(Messages{
		"chat.frame.malformed": {
			"en-US": "The frame is not a valid request", "es-ES": "La trama no es una solicitud válida",
			"ms-MY": "Bingkai ini bukan permintaan yang sah", "vi-VN": "Khung dữ liệu không phải là yêu cầu hợp lệ",
			"zh-CN": "请求帧格式错误", "zh-HANT": "請求幀格式錯誤",
		},
		"chat.call.unknown": {
			"en-US": "Unknown or unsupported request {name}", "es-ES": "Solicitud desconocida o no admitida {name}",
			"ms-MY": "Permintaan {name} tidak diketahui atau tidak disokong", "vi-VN": "Yêu cầu {name} không xác định hoặc không được hỗ trợ",
			"zh-CN": "未知或不支持的请求 {name}", "zh-HANT": "未知或不支援的請求 {name}",
		},
		"chat.arg.invalid": {
			"en-US": "Argument {arg} is missing or has the wrong type", "es-ES": "El argumento {arg} falta o tiene un tipo incorrecto",
			"ms-MY": "Argumen {arg} tiada atau jenisnya salah", "vi-VN": "Tham số {arg} bị thiếu hoặc sai kiểu",
			"zh-CN": "参数 {arg} 缺失或类型错误", "zh-HANT": "參數 {arg} 缺失或類型錯誤",
		},
		"chat.login.first": {
			"en-US": "Please log in to chat first", "es-ES": "Inicie sesión en el chat primero",
			"ms-MY": "Sila log masuk ke sembang dahulu", "vi-VN": "Vui lòng đăng nhập trò chuyện trước",
			"zh-CN": "请先登录聊天", "zh-HANT": "請先登入聊天",
		},
		"chat.token.expired": {
			"en-US": "Chat token expired, please log in again", "es-ES": "El token del chat ha caducado, inicie sesión de nuevo",
			"ms-MY": "Token sembang tamat tempoh, sila log masuk semula", "vi-VN": "Mã trò chuyện đã hết hạn, vui lòng đăng nhập lại",
			"zh-CN": "聊天凭证已过期，请重新登录", "zh-HANT": "聊天憑證已過期，請重新登入",
		},
		"chat.kicked": {
			"en-US": "Logged in elsewhere, you have been kicked offline", "es-ES": "Se inició sesión en otro lugar, se le ha desconectado",
			"ms-MY": "Log masuk di tempat lain, anda telah diputuskan", "vi-VN": "Đã đăng nhập ở nơi khác, bạn đã bị buộc ngoại tuyến",
			"zh-CN": "您的账号已在其他地方登录，已被踢下线", "zh-HANT": "您的帳號已在其他地方登入，已被踢下線",
		},
		"chat.rate.limited": {
			"en-US": "Too many requests, please slow down", "es-ES": "Demasiadas solicitudes, vaya más despacio",
			"ms-MY": "Terlalu banyak permintaan, sila perlahan", "vi-VN": "Quá nhiều yêu cầu, vui lòng chậm lại",
			"zh-CN": "操作过于频繁，请稍后再试", "zh-HANT": "操作過於頻繁，請稍後再試",
		},
		"chat.user.not.found": {
			"en-US": "User does not exist", "es-ES": "El usuario no existe", "ms-MY": "Pengguna tidak wujud",
			"vi-VN": "Người dùng không tồn tại", "zh-CN": "用户不存在", "zh-HANT": "用戶不存在",
		},
		"chat.conversation.not.found": {
			"en-US": "Conversation does not exist or is not yours", "es-ES": "La conversación no existe o no es suya",
			"ms-MY": "Perbualan tidak wujud atau bukan milik anda", "vi-VN": "Cuộc trò chuyện không tồn tại hoặc không thuộc về bạn",
			"zh-CN": "会话不存在或无权访问", "zh-HANT": "會話不存在或無權存取",
		},
		"chat.group.not.found": {
			"en-US": "Group does not exist", "es-ES": "El grupo no existe", "ms-MY": "Kumpulan tidak wujud",
			"vi-VN": "Nhóm không tồn tại", "zh-CN": "群组不存在", "zh-HANT": "群組不存在",
		},
		"chat.message.not.found": {
			"en-US": "Message does not exist", "es-ES": "El mensaje no existe", "ms-MY": "Mesej tidak wujud",
			"vi-VN": "Tin nhắn không tồn tại", "zh-CN": "消息不存在", "zh-HANT": "訊息不存在",
		},
		"chat.blacklisted": {
			"en-US": "The peer added you to the blacklist", "es-ES": "El otro usuario le ha añadido a su lista negra",
			"ms-MY": "Pihak lain telah menambah anda ke senarai hitam", "vi-VN": "Đối phương đã thêm bạn vào danh sách đen",
			"zh-CN": "对方已将你加入黑名单", "zh-HANT": "對方已將你加入黑名單",
		},
		"chat.friend.verify.required": {
			"en-US": "A verification message is required", "es-ES": "Se requiere un mensaje de verificación",
			"ms-MY": "Mesej pengesahan diperlukan", "vi-VN": "Cần có lời nhắn xác minh",
			"zh-CN": "请填写验证消息", "zh-HANT": "請填寫驗證訊息",
		},
		"chat.friend.already": {
			"en-US": "You are already friends", "es-ES": "Ya son amigos", "ms-MY": "Anda sudah berkawan",
			"vi-VN": "Hai bạn đã là bạn bè", "zh-CN": "你们已经是好友", "zh-HANT": "你們已經是好友",
		},
		"chat.friend.not": {
			"en-US": "This user is not your friend", "es-ES": "Este usuario no es su amigo", "ms-MY": "Pengguna ini bukan kawan anda",
			"vi-VN": "Người dùng này không phải bạn bè của bạn", "zh-CN": "对方不是你的好友", "zh-HANT": "對方不是你的好友",
		},
		"chat.application.none": {
			"en-US": "There is no pending application to handle", "es-ES": "No hay ninguna solicitud pendiente",
			"ms-MY": "Tiada permohonan yang belum diproses", "vi-VN": "Không có yêu cầu nào đang chờ xử lý",
			"zh-CN": "没有待处理的申请", "zh-HANT": "沒有待處理的申請",
		},
		"chat.self": {
			"en-US": "You cannot do this to yourself", "es-ES": "No puede hacer esto consigo mismo",
			"ms-MY": "Anda tidak boleh melakukan ini kepada diri sendiri", "vi-VN": "Bạn không thể làm điều này với chính mình",
			"zh-CN": "不能对自己执行此操作", "zh-HANT": "不能對自己執行此操作",
		},
		"chat.group.name.required": {
			"en-US": "Group name is required", "es-ES": "El nombre del grupo es obligatorio", "ms-MY": "Nama kumpulan diperlukan",
			"vi-VN": "Tên nhóm là bắt buộc", "zh-CN": "请输入群名称", "zh-HANT": "請輸入群組名稱",
		},
		"chat.group.full": {
			"en-US": "Group full", "es-ES": "El grupo está lleno", "ms-MY": "Kumpulan penuh",
			"vi-VN": "Nhóm đã đầy", "zh-CN": "群已满", "zh-HANT": "群組已滿",
		},
		"chat.group.dismissed": {
			"en-US": "Group dismissed", "es-ES": "El grupo ha sido disuelto", "ms-MY": "Kumpulan telah dibubarkan",
			"vi-VN": "Nhóm đã bị giải tán", "zh-CN": "群已解散", "zh-HANT": "群組已解散",
		},
		"chat.group.not.member": {
			"en-US": "You are not a member of this group", "es-ES": "No es miembro de este grupo",
			"ms-MY": "Anda bukan ahli kumpulan ini", "vi-VN": "Bạn không phải là thành viên của nhóm này",
			"zh-CN": "你不是该群成员", "zh-HANT": "你不是該群組成員",
		},
		"chat.group.no.permission": {
			"en-US": "Your role in this group does not allow this", "es-ES": "Su rol en este grupo no lo permite",
			"ms-MY": "Peranan anda dalam kumpulan ini tidak membenarkannya", "vi-VN": "Vai trò của bạn trong nhóm không cho phép thao tác này",
			"zh-CN": "你在该群的身份无权执行此操作", "zh-HANT": "你在該群組的身分無權執行此操作",
		},
		"chat.group.muted": {
			"en-US": "You are muted in this group", "es-ES": "Está silenciado en este grupo", "ms-MY": "Anda telah dibisukan dalam kumpulan ini",
			"vi-VN": "Bạn đã bị cấm nói trong nhóm này", "zh-CN": "你已被禁言", "zh-HANT": "你已被禁言",
		},
		"chat.group.all.muted": {
			"en-US": "This group is muted; only the owner and admins can speak", "es-ES": "El grupo está silenciado; solo el propietario y los administradores pueden hablar",
			"ms-MY": "Kumpulan ini dibisukan; hanya pemilik dan pentadbir boleh bercakap", "vi-VN": "Nhóm đang bị cấm nói; chỉ trưởng nhóm và quản trị viên được phát biểu",
			"zh-CN": "全员禁言中，仅群主和管理员可以发言", "zh-HANT": "全員禁言中，僅群主和管理員可以發言",
		},
		"chat.channel.read.only": {
			"en-US": "Only the owner and admins can post in this channel", "es-ES": "Solo el propietario y los administradores pueden publicar en este canal",
			"ms-MY": "Hanya pemilik dan pentadbir boleh menghantar di saluran ini", "vi-VN": "Chỉ chủ kênh và quản trị viên được đăng trong kênh này",
			"zh-CN": "仅频道主和管理员可以发言", "zh-HANT": "僅頻道主和管理員可以發言",
		},
		"chat.group.already.member": {
			"en-US": "Already a member of this group", "es-ES": "Ya es miembro de este grupo", "ms-MY": "Sudah menjadi ahli kumpulan ini",
			"vi-VN": "Đã là thành viên của nhóm này", "zh-CN": "已经是群成员", "zh-HANT": "已經是群組成員",
		},
		"chat.group.owner.quit": {
			"en-US": "The owner cannot quit; transfer ownership or dismiss the group", "es-ES": "El propietario no puede salir; transfiera la propiedad o disuelva el grupo",
			"ms-MY": "Pemilik tidak boleh keluar; pindahkan pemilikan atau bubarkan kumpulan", "vi-VN": "Trưởng nhóm không thể rời nhóm; hãy chuyển quyền hoặc giải tán nhóm",
			"zh-CN": "群主不能退群，请先转让群主或解散群", "zh-HANT": "群主不能退出群組，請先轉讓群主或解散群組",
		},
		"chat.message.type.unsupported": {
			"en-US": "Unsupported message type", "es-ES": "Tipo de mensaje no admitido", "ms-MY": "Jenis mesej tidak disokong",
			"vi-VN": "Loại tin nhắn không được hỗ trợ", "zh-CN": "不支持的消息类型", "zh-HANT": "不支援的訊息類型",
		},
		"chat.message.invalid": {
			"en-US": "Message field {field} is invalid", "es-ES": "El campo {field} del mensaje no es válido",
			"ms-MY": "Medan mesej {field} tidak sah", "vi-VN": "Trường {field} của tin nhắn không hợp lệ",
			"zh-CN": "消息字段 {field} 不正确", "zh-HANT": "訊息欄位 {field} 不正確",
		},
		"chat.media.url": {
			"en-US": "Media must be uploaded through the chat upload first", "es-ES": "Los archivos multimedia deben subirse primero con la carga del chat",
			"ms-MY": "Media mesti dimuat naik melalui muat naik sembang dahulu", "vi-VN": "Tệp đa phương tiện phải được tải lên qua chức năng tải lên của trò chuyện trước",
			"zh-CN": "媒体文件需先通过聊天上传", "zh-HANT": "媒體檔案需先透過聊天上傳",
		},
		"chat.revoke.too.late": {
			"en-US": "This message can no longer be revoked", "es-ES": "Este mensaje ya no se puede retirar",
			"ms-MY": "Mesej ini tidak lagi boleh ditarik balik", "vi-VN": "Tin nhắn này không thể thu hồi nữa",
			"zh-CN": "消息已超过可撤回时间", "zh-HANT": "訊息已超過可收回時間",
		},
		"chat.revoke.denied": {
			"en-US": "You cannot revoke this message", "es-ES": "No puede retirar este mensaje",
			"ms-MY": "Anda tidak boleh menarik balik mesej ini", "vi-VN": "Bạn không thể thu hồi tin nhắn này",
			"zh-CN": "你无权撤回该消息", "zh-HANT": "你無權收回該訊息",
		},
		"chat.upload.too.large": {
			"en-US": "The file is larger than {max} MB", "es-ES": "El archivo supera los {max} MB",
			"ms-MY": "Fail melebihi {max} MB", "vi-VN": "Tệp lớn hơn {max} MB",
			"zh-CN": "文件超过 {max} MB", "zh-HANT": "檔案超過 {max} MB",
		},
		"chat.upload.type": {
			"en-US": "This file type is not allowed", "es-ES": "Este tipo de archivo no está permitido",
			"ms-MY": "Jenis fail ini tidak dibenarkan", "vi-VN": "Loại tệp này không được phép",
			"zh-CN": "不允许上传此类文件", "zh-HANT": "不允許上傳此類檔案",
		},
		"chat.slow.consumer": {
			"en-US": "Connection too slow, reconnecting", "es-ES": "Conexión demasiado lenta, reconectando",
			"ms-MY": "Sambungan terlalu perlahan, menyambung semula", "vi-VN": "Kết nối quá chậm, đang kết nối lại",
			"zh-CN": "连接过慢，正在重连", "zh-HANT": "連線過慢，正在重新連線",
		},
		"chat.draining": {
			"en-US": "Server restarting, reconnecting", "es-ES": "El servidor se está reiniciando, reconectando",
			"ms-MY": "Pelayan sedang dimulakan semula, menyambung semula", "vi-VN": "Máy chủ đang khởi động lại, đang kết nối lại",
			"zh-CN": "服务器重启中，正在重连", "zh-HANT": "伺服器重新啟動中，正在重新連線",
		},
		"chat.nickname.invalid": {
			"en-US": "Nickname must be 1 to 10 characters", "es-ES": "El apodo debe tener entre 1 y 10 caracteres",
			"ms-MY": "Nama panggilan mestilah 1 hingga 10 aksara", "vi-VN": "Biệt danh phải từ 1 đến 10 ký tự",
			"zh-CN": "昵称需为1到10个字符", "zh-HANT": "暱稱需為1到10個字元",
		},
		"chat.group.target.not.member": {
			"en-US": "This user is not a member of the group", "es-ES": "Este usuario no es miembro del grupo",
			"ms-MY": "Pengguna ini bukan ahli kumpulan", "vi-VN": "Người dùng này không phải là thành viên của nhóm",
			"zh-CN": "该用户不是群成员", "zh-HANT": "該用戶不是群組成員",
		},
		"chat.mute.range": {
			"en-US": "Mute time must be between 0 and {max} seconds", "es-ES": "El tiempo de silencio debe estar entre 0 y {max} segundos",
			"ms-MY": "Tempoh bisu mestilah antara 0 dan {max} saat", "vi-VN": "Thời gian cấm nói phải từ 0 đến {max} giây",
			"zh-CN": "禁言时长需在 0 到 {max} 秒之间", "zh-HANT": "禁言時長需在 0 到 {max} 秒之間",
		},
	})
}
