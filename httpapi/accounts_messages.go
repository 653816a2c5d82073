package httpapi

// accountMessages are the texts of the accounts area in the six locales.
var accountMessages = Messages{
	"account.invalid": {
		"en-US": "Account must be 4-20 letters, digits or underscores", "es-ES": "La cuenta debe tener de 4 a 20 letras, dígitos o guiones bajos",
		"ms-MY": "Akaun mestilah 4-20 huruf, digit atau garis bawah", "vi-VN": "Tài khoản phải gồm 4-20 chữ cái, chữ số hoặc dấu gạch dưới",
		"zh-CN": "账号须为4-20位字母、数字或下划线", "zh-HANT": "帳號須為4-20位字母、數字或底線",
	},
	"account.exists": {
		"en-US": "This account already exists", "es-ES": "Esta cuenta ya existe", "ms-MY": "Akaun ini sudah wujud",
		"vi-VN": "Tài khoản này đã tồn tại", "zh-CN": "该账号已存在", "zh-HANT": "該帳號已存在",
	},
	"account.unknown": {
		"en-US": "This account does not exist", "es-ES": "Esta cuenta no existe", "ms-MY": "Akaun ini tidak wujud",
		"vi-VN": "Tài khoản này không tồn tại", "zh-CN": "账号不存在", "zh-HANT": "帳號不存在",
	},
	"password.length": {
		"en-US": "Password must be 6-20 characters", "es-ES": "La contraseña debe tener entre 6 y 20 caracteres",
		"ms-MY": "Kata laluan mestilah 6-20 aksara", "vi-VN": "Mật khẩu phải có 6-20 ký tự",
		"zh-CN": "密码长度须为6-20位", "zh-HANT": "密碼長度須為6-20位",
	},
	"password.no.digit": {
		"en-US": "Password must contain digits", "es-ES": "La contraseña debe contener dígitos",
		"ms-MY": "Kata laluan mesti mengandungi digit", "vi-VN": "Mật khẩu phải chứa chữ số",
		"zh-CN": "密码必须包含数字", "zh-HANT": "密碼必須包含數字",
	},
	"password.no.letter": {
		"en-US": "Password must contain letters", "es-ES": "La contraseña debe contener letras",
		"ms-MY": "Kata laluan mesti mengandungi huruf", "vi-VN": "Mật khẩu phải chứa chữ cái",
		"zh-CN": "密码必须包含字母", "zh-HANT": "密碼必須包含字母",
	},
	"password.chars": {
		"en-US": "Password may contain only letters, digits and symbols, without spaces", "es-ES": "La contraseña solo puede contener letras, dígitos y símbolos, sin espacios",
		"ms-MY": "Kata laluan hanya boleh mengandungi huruf, digit dan simbol, tanpa ruang", "vi-VN": "Mật khẩu chỉ được chứa chữ cái, chữ số và ký hiệu, không có khoảng trắng",
		"zh-CN": "密码只能包含字母、数字和符号，不能有空格", "zh-HANT": "密碼只能包含字母、數字和符號，不能有空格",
	},
	"password.mismatch": {
		"en-US": "Two passwords are inconsistent", "es-ES": "Las dos contraseñas no coinciden",
		"ms-MY": "Kedua-dua kata laluan tidak sepadan", "vi-VN": "Hai mật khẩu không khớp",
		"zh-CN": "两次密码输入不一致", "zh-HANT": "兩次密碼輸入不一致",
	},
	"password.old.wrong": {
		"en-US": "The original password is wrong", "es-ES": "La contraseña original es incorrecta",
		"ms-MY": "Kata laluan asal salah", "vi-VN": "Mật khẩu cũ không đúng",
		"zh-CN": "原密码错误", "zh-HANT": "原密碼錯誤",
	},
	"password.locked": {
		"en-US": "Too many wrong passwords, retry after 10 minutes", "es-ES": "Demasiadas contraseñas incorrectas, vuelva a intentarlo en 10 minutos",
		"ms-MY": "Terlalu banyak kata laluan salah, cuba lagi selepas 10 minit", "vi-VN": "Nhập sai mật khẩu quá nhiều lần, vui lòng thử lại sau 10 phút",
		"zh-CN": "密码错误次数过多，请10分钟后再试", "zh-HANT": "密碼錯誤次數過多，請10分鐘後再試",
	},
	"login.credential": {
		"en-US": "Invalid login credential", "es-ES": "Credenciales de inicio de sesión no válidas",
		"ms-MY": "Kelayakan log masuk tidak sah", "vi-VN": "Thông tin đăng nhập không hợp lệ",
		"zh-CN": "账号或密码错误", "zh-HANT": "帳號或密碼錯誤",
	},
	"login.locked": {
		"en-US": "Too many login errors, retry after 10 minutes", "es-ES": "Demasiados errores de inicio de sesión, vuelva a intentarlo en 10 minutos",
		"ms-MY": "Terlalu banyak ralat log masuk, cuba lagi selepas 10 minit", "vi-VN": "Đăng nhập sai quá nhiều lần, vui lòng thử lại sau 10 phút",
		"zh-CN": "登录错误次数过多，请10分钟后再试", "zh-HANT": "登入錯誤次數過多，請10分鐘後再試",
	},
	"invite.invalid": {
		"en-US": "Invalid invitation code", "es-ES": "Código de invitación no válido", "ms-MY": "Kod jemputan tidak sah",
		"vi-VN": "Mã mời không hợp lệ", "zh-CN": "邀请码无效", "zh-HANT": "邀請碼無效",
	},
	"invite.unknown": {
		"en-US": "The invitation code does not exist", "es-ES": "El código de invitación no existe",
		"ms-MY": "Kod jemputan tidak wujud", "vi-VN": "Mã mời không tồn tại",
		"zh-CN": "邀请码不存在", "zh-HANT": "邀請碼不存在",
	},
	"captcha.wrong": {
		"en-US": "The captcha is wrong or has expired, please get a new one", "es-ES": "El captcha es incorrecto o ha caducado; solicite uno nuevo",
		"ms-MY": "Captcha salah atau telah tamat tempoh, sila dapatkan yang baharu", "vi-VN": "Mã captcha sai hoặc đã hết hạn, vui lòng lấy mã mới",
		"zh-CN": "图形验证码错误或已过期，请重新获取", "zh-HANT": "圖形驗證碼錯誤或已過期，請重新獲取",
	},
	"sms.code.invalid": {
		"en-US": "The SMS code is wrong or has expired", "es-ES": "El código SMS es incorrecto o ha caducado",
		"ms-MY": "Kod SMS salah atau telah tamat tempoh", "vi-VN": "Mã SMS sai hoặc đã hết hạn",
		"zh-CN": "短信验证码错误或已过期", "zh-HANT": "簡訊驗證碼錯誤或已過期",
	},
	"sms.code.format": {
		"en-US": "The SMS code must be 6 digits", "es-ES": "El código SMS debe tener 6 dígitos",
		"ms-MY": "Kod SMS mestilah 6 digit", "vi-VN": "Mã SMS phải gồm 6 chữ số",
		"zh-CN": "短信验证码须为6位数字", "zh-HANT": "簡訊驗證碼須為6位數字",
	},
	"sms.cooldown": {
		"en-US": "Please wait {seconds} seconds before requesting another code", "es-ES": "Espere {seconds} segundos antes de solicitar otro código",
		"ms-MY": "Sila tunggu {seconds} saat sebelum meminta kod lain", "vi-VN": "Vui lòng đợi {seconds} giây trước khi yêu cầu mã mới",
		"zh-CN": "请{seconds}秒后再获取验证码", "zh-HANT": "請{seconds}秒後再獲取驗證碼",
	},
	"sms.limit": {
		"en-US": "Too many SMS codes requested for this number, please try again later", "es-ES": "Se han solicitado demasiados códigos SMS para este número; inténtelo más tarde",
		"ms-MY": "Terlalu banyak kod SMS diminta untuk nombor ini, sila cuba sebentar lagi", "vi-VN": "Số điện thoại này đã yêu cầu quá nhiều mã SMS, vui lòng thử lại sau",
		"zh-CN": "该号码获取验证码次数过多，请稍后再试", "zh-HANT": "該號碼獲取驗證碼次數過多，請稍後再試",
	},
	"sms.send.failed": {
		"en-US": "The SMS could not be sent, please try again later", "es-ES": "No se pudo enviar el SMS; inténtelo más tarde",
		"ms-MY": "SMS tidak dapat dihantar, sila cuba sebentar lagi", "vi-VN": "Không thể gửi SMS, vui lòng thử lại sau",
		"zh-CN": "短信发送失败，请稍后再试", "zh-HANT": "簡訊發送失敗，請稍後再試",
	},
	"phone.invalid": {
		"en-US": "Phone number must be {min}-{max} digits", "es-ES": "El número de teléfono debe tener de {min} a {max} dígitos",
		"ms-MY": "Nombor telefon mestilah {min}-{max} digit", "vi-VN": "Số điện thoại phải gồm {min}-{max} chữ số",
		"zh-CN": "手机号须为{min}-{max}位数字", "zh-HANT": "手機號須為{min}-{max}位數字",
	},
	"phone.mismatch": {
		"en-US": "This phone number is not bound to the account", "es-ES": "Este número de teléfono no está vinculado a la cuenta",
		"ms-MY": "Nombor telefon ini tidak terikat pada akaun", "vi-VN": "Số điện thoại này không được liên kết với tài khoản",
		"zh-CN": "该手机号未绑定此账号", "zh-HANT": "該手機號未綁定此帳號",
	},
	"nick.invalid": {
		"en-US": "Nickname must be 1-10 characters", "es-ES": "El apodo debe tener de 1 a 10 caracteres",
		"ms-MY": "Nama panggilan mestilah 1-10 aksara", "vi-VN": "Biệt danh phải có 1-10 ký tự",
		"zh-CN": "昵称须为1-10个字符", "zh-HANT": "暱稱須為1-10個字元",
	},
	"avatar.type": {
		"en-US": "Only PNG, JPEG or WebP images are accepted", "es-ES": "Solo se aceptan imágenes PNG, JPEG o WebP",
		"ms-MY": "Hanya imej PNG, JPEG atau WebP diterima", "vi-VN": "Chỉ chấp nhận ảnh PNG, JPEG hoặc WebP",
		"zh-CN": "仅支持PNG、JPEG或WebP图片", "zh-HANT": "僅支援PNG、JPEG或WebP圖片",
	},
	"avatar.too.large": {
		"en-US": "The image must be at most 5 MB", "es-ES": "La imagen no puede superar los 5 MB",
		"ms-MY": "Imej tidak boleh melebihi 5 MB", "vi-VN": "Ảnh không được vượt quá 5 MB",
		"zh-CN": "图片不能超过5MB", "zh-HANT": "圖片不能超過5MB",
	},
	"avatar.broken": {
		"en-US": "The image is damaged or too large to process", "es-ES": "La imagen está dañada o es demasiado grande para procesarla",
		"ms-MY": "Imej rosak atau terlalu besar untuk diproses", "vi-VN": "Ảnh bị hỏng hoặc quá lớn để xử lý",
		"zh-CN": "图片已损坏或尺寸过大", "zh-HANT": "圖片已損壞或尺寸過大",
	},
	"superior.bound": {
		"en-US": "A superior is already bound to this account", "es-ES": "Esta cuenta ya tiene un superior vinculado",
		"ms-MY": "Akaun ini sudah terikat dengan atasan", "vi-VN": "Tài khoản này đã liên kết cấp trên",
		"zh-CN": "已绑定上级，不能重复绑定", "zh-HANT": "已綁定上級，不能重複綁定",
	},
	"superior.invalid": {
		"en-US": "You cannot bind yourself or your own invitee as superior", "es-ES": "No puede vincularse a sí mismo ni a un invitado suyo como superior",
		"ms-MY": "Anda tidak boleh mengikat diri sendiri atau jemputan anda sebagai atasan", "vi-VN": "Không thể liên kết chính bạn hoặc người bạn đã mời làm cấp trên",
		"zh-CN": "不能绑定自己或自己的下级为上级", "zh-HANT": "不能綁定自己或自己的下級為上級",
	},
}
