package httpapi

// Wallet error codes (1200-1299), listed in the README's "Wallet and
// ledger" section.
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
)

func init() {
	AddMessages(Messages{
		"wallet.insufficient": {
			"en-US": "Insufficient balance", "es-ES": "Saldo insuficiente", "ms-MY": "Baki tidak mencukupi",
			"vi-VN": "Số dư không đủ", "zh-CN": "余额不足", "zh-HANT": "餘額不足",
		},
		"wallet.amount.invalid": {
			"en-US": "{field} must be a positive whole number of cents",
			"es-ES": "{field} debe ser un número entero positivo de céntimos",
			"ms-MY": "{field} mestilah nombor bulat positif dalam sen",
			"vi-VN": "{field} phải là số nguyên dương tính bằng xu",
			"zh-CN": "{field} 必须是以分为单位的正整数", "zh-HANT": "{field} 必須是以分為單位的正整數",
		},
		"wallet.amount.too.large": {
			"en-US": "{field} is too large", "es-ES": "{field} es demasiado grande", "ms-MY": "{field} terlalu besar",
			"vi-VN": "{field} quá lớn", "zh-CN": "{field} 数值过大", "zh-HANT": "{field} 數值過大",
		},
		"wallet.recharge.min": {
			"en-US": "The minimum recharge is {min} USDT", "es-ES": "La recarga mínima es de {min} USDT",
			"ms-MY": "Tambah nilai minimum ialah {min} USDT", "vi-VN": "Số tiền nạp tối thiểu là {min} USDT",
			"zh-CN": "最低充值 {min} USDT", "zh-HANT": "最低儲值 {min} USDT",
		},
		"wallet.protocol.unknown": {
			"en-US": "Please choose a supported USDT protocol", "es-ES": "Elija un protocolo USDT admitido",
			"ms-MY": "Sila pilih protokol USDT yang disokong", "vi-VN": "Vui lòng chọn giao thức USDT được hỗ trợ",
			"zh-CN": "请选择支持的 USDT 协议", "zh-HANT": "請選擇支援的 USDT 協定",
		},
		"wallet.txhash.invalid": {
			"en-US": "This is not a valid {protocol} transaction hash", "es-ES": "No es un hash de transacción {protocol} válido",
			"ms-MY": "Ini bukan hash transaksi {protocol} yang sah", "vi-VN": "Đây không phải là mã hash giao dịch {protocol} hợp lệ",
			"zh-CN": "不是有效的 {protocol} 交易哈希", "zh-HANT": "不是有效的 {protocol} 交易雜湊",
		},
		"wallet.txhash.used": {
			"en-US": "This transaction hash has already been submitted", "es-ES": "Este hash de transacción ya se ha enviado",
			"ms-MY": "Hash transaksi ini telah dihantar", "vi-VN": "Mã hash giao dịch này đã được gửi",
			"zh-CN": "该交易哈希已提交过", "zh-HANT": "該交易雜湊已提交過",
		},
		"wallet.exchange.min": {
			"en-US": "The minimum exchange is {min}", "es-ES": "El canje mínimo es de {min}", "ms-MY": "Penukaran minimum ialah {min}",
			"vi-VN": "Số tiền đổi tối thiểu là {min}", "zh-CN": "最低兑换金额为 {min}", "zh-HANT": "最低兌換金額為 {min}",
		},
		"wallet.exchange.max": {
			"en-US": "The maximum exchange is {max}", "es-ES": "El canje máximo es de {max}", "ms-MY": "Penukaran maksimum ialah {max}",
			"vi-VN": "Số tiền đổi tối đa là {max}", "zh-CN": "最高兑换金额为 {max}", "zh-HANT": "最高兌換金額為 {max}",
		},
		"wallet.no.card": {
			"en-US": "You have not bound a bank card", "es-ES": "No ha vinculado ninguna tarjeta bancaria",
			"ms-MY": "Anda belum mengikat kad bank", "vi-VN": "Bạn chưa liên kết thẻ ngân hàng",
			"zh-CN": "您还未绑定银行卡", "zh-HANT": "您還未綁定銀行卡",
		},
		"fundpw.not.set": {
			"en-US": "Please set a fund password first", "es-ES": "Primero establezca una contraseña de fondos",
			"ms-MY": "Sila tetapkan kata laluan dana terlebih dahulu", "vi-VN": "Vui lòng đặt mật khẩu quỹ trước",
			"zh-CN": "请先设置资金密码", "zh-HANT": "請先設定資金密碼",
		},
		"fundpw.wrong": {
			"en-US": "Incorrect fund password, {left} attempts left", "es-ES": "Contraseña de fondos incorrecta, quedan {left} intentos",
			"ms-MY": "Kata laluan dana salah, tinggal {left} percubaan", "vi-VN": "Mật khẩu quỹ không đúng, còn {left} lần thử",
			"zh-CN": "资金密码错误，还可尝试 {left} 次", "zh-HANT": "資金密碼錯誤，還可嘗試 {left} 次",
		},
		"fundpw.locked": {
			"en-US": "Too many wrong fund passwords, retry after {minutes} minutes",
			"es-ES": "Demasiados intentos fallidos de la contraseña de fondos, vuelva a intentarlo en {minutes} minutos",
			"ms-MY": "Terlalu banyak kata laluan dana yang salah, cuba lagi selepas {minutes} minit",
			"vi-VN": "Nhập sai mật khẩu quỹ quá nhiều lần, vui lòng thử lại sau {minutes} phút",
			"zh-CN": "资金密码错误次数过多，请 {minutes} 分钟后再试", "zh-HANT": "資金密碼錯誤次數過多，請 {minutes} 分鐘後再試",
		},
		"fundpw.format": {
			"en-US": "The fund password must be exactly 6 digits", "es-ES": "La contraseña de fondos debe tener exactamente 6 dígitos",
			"ms-MY": "Kata laluan dana mestilah tepat 6 digit", "vi-VN": "Mật khẩu quỹ phải gồm đúng 6 chữ số",
			"zh-CN": "资金密码必须为 6 位数字", "zh-HANT": "資金密碼必須為 6 位數字",
		},
		"fundpw.already.set": {
			"en-US": "A fund password is already set; change it instead", "es-ES": "Ya tiene una contraseña de fondos; cámbiela",
			"ms-MY": "Kata laluan dana telah ditetapkan; sila tukarnya", "vi-VN": "Mật khẩu quỹ đã được đặt; vui lòng đổi mật khẩu",
			"zh-CN": "资金密码已设置，请使用修改功能", "zh-HANT": "資金密碼已設定，請使用修改功能",
		},
		"fundpw.unchanged": {
			"en-US": "The new fund password is the same as the old one", "es-ES": "La nueva contraseña de fondos es igual a la anterior",
			"ms-MY": "Kata laluan dana baharu sama dengan yang lama", "vi-VN": "Mật khẩu quỹ mới trùng với mật khẩu cũ",
			"zh-CN": "新资金密码不能与原密码相同", "zh-HANT": "新資金密碼不能與原密碼相同",
		},
		"card.mismatch": {
			"en-US": "Bank card numbers do not match", "es-ES": "Los números de tarjeta bancaria no coinciden",
			"ms-MY": "Nombor kad bank tidak sepadan", "vi-VN": "Số thẻ ngân hàng không khớp",
			"zh-CN": "两次输入的银行卡号不一致", "zh-HANT": "兩次輸入的銀行卡號不一致",
		},
		"card.number.invalid": {
			"en-US": "The card number must be 12 to 19 digits", "es-ES": "El número de tarjeta debe tener entre 12 y 19 dígitos",
			"ms-MY": "Nombor kad mestilah 12 hingga 19 digit", "vi-VN": "Số thẻ phải gồm 12 đến 19 chữ số",
			"zh-CN": "银行卡号必须为 12 至 19 位数字", "zh-HANT": "銀行卡號必須為 12 至 19 位數字",
		},
		"card.bank.unknown": {
			"en-US": "Please choose a bank from the list", "es-ES": "Elija un banco de la lista",
			"ms-MY": "Sila pilih bank daripada senarai", "vi-VN": "Vui lòng chọn ngân hàng trong danh sách",
			"zh-CN": "请从列表中选择银行", "zh-HANT": "請從列表中選擇銀行",
		},
		"card.already.bound": {
			"en-US": "This bank card is already bound", "es-ES": "Esta tarjeta bancaria ya está vinculada",
			"ms-MY": "Kad bank ini telah diikat", "vi-VN": "Thẻ ngân hàng này đã được liên kết",
			"zh-CN": "该银行卡已绑定", "zh-HANT": "該銀行卡已綁定",
		},
		"card.too.many": {
			"en-US": "You can bind at most {max} bank cards", "es-ES": "Puede vincular como máximo {max} tarjetas bancarias",
			"ms-MY": "Anda boleh mengikat maksimum {max} kad bank", "vi-VN": "Bạn chỉ có thể liên kết tối đa {max} thẻ ngân hàng",
			"zh-CN": "最多只能绑定 {max} 张银行卡", "zh-HANT": "最多只能綁定 {max} 張銀行卡",
		},
		"card.holder.invalid": {
			"en-US": "Please enter the cardholder's name (up to 50 characters)", "es-ES": "Introduzca el nombre del titular (hasta 50 caracteres)",
			"ms-MY": "Sila masukkan nama pemegang kad (sehingga 50 aksara)", "vi-VN": "Vui lòng nhập tên chủ thẻ (tối đa 50 ký tự)",
			"zh-CN": "请输入持卡人姓名（最多 50 个字符）", "zh-HANT": "請輸入持卡人姓名（最多 50 個字元）",
		},
		"order.processed": {
			"en-US": "This order has already been processed", "es-ES": "Este pedido ya ha sido procesado",
			"ms-MY": "Pesanan ini telah diproses", "vi-VN": "Đơn này đã được xử lý",
			"zh-CN": "该订单已处理", "zh-HANT": "該訂單已處理",
		},
		"request.key.reused": {
			"en-US": "This request key was already used for a different request", "es-ES": "Esta clave de solicitud ya se usó para otra solicitud",
			"ms-MY": "Kunci permintaan ini telah digunakan untuk permintaan lain", "vi-VN": "Khóa yêu cầu này đã được dùng cho một yêu cầu khác",
			"zh-CN": "该请求标识已用于其他请求", "zh-HANT": "該請求標識已用於其他請求",
		},
		"bank.name.taken": {
			"en-US": "This country already has a bank with that name", "es-ES": "Este país ya tiene un banco con ese nombre",
			"ms-MY": "Negara ini sudah mempunyai bank dengan nama itu", "vi-VN": "Quốc gia này đã có ngân hàng với tên đó",
			"zh-CN": "该国家/地区已有同名银行", "zh-HANT": "該國家/地區已有同名銀行",
		},
	})
}
